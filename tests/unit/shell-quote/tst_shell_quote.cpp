// SPDX-License-Identifier: GPL-3.0-or-later
// shellQuote() writes kit values (args, paths, approval commands) into shell lines: whatever
// the value holds, /bin/sh must read back exactly that one word and run nothing of it.
#include "sandbox/KitApplication.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTest>

using paddock::sandbox::shellQuote;

class ShellQuoteTest : public QObject
{
    Q_OBJECT

private slots:
    void theShellReadsBackOneWord_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("plain") << QStringLiteral("game-1.0/src");
        QTest::newRow("empty") << QString();
        QTest::newRow("space") << QStringLiteral("two words");
        QTest::newRow("single quote") << QStringLiteral("it's");
        QTest::newRow("command substitution") << QStringLiteral("$(touch pwned)");
        QTest::newRow("backticks") << QStringLiteral("`touch pwned`");
        QTest::newRow("ends in a newline") << QStringLiteral("word\n");
        QTest::newRow("newline then a command") << QStringLiteral("word\ntouch pwned");
        QTest::newRow("semicolon") << QStringLiteral("a;touch pwned");
        QTest::newRow("glob") << QStringLiteral("*");
    }

    void theShellReadsBackOneWord()
    {
        QFETCH(QString, value);
        const QString quoted = shellQuote(value);
        // Each word the shell sees is printed between < and >, so a split shows as two.
        const QString script = QStringLiteral("cd \"$1\" && printf '<%s>' ") + quoted + QStringLiteral(" && ls -A");
        QProcess sh;
        const QString dir =
            QDir::tempPath() + QStringLiteral("/shell-quote-") + QString::number(QCoreApplication::applicationPid());
        QVERIFY(QDir().mkpath(dir));
        sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script, QStringLiteral("sh"), dir});
        QVERIFY(sh.waitForFinished(10000));
        const QString out = QString::fromUtf8(sh.readAllStandardOutput());
        QDir(dir).removeRecursively();
        QCOMPARE(sh.exitCode(), 0);
        QCOMPARE(out, QLatin1Char('<') + value + QLatin1Char('>'));
    }

    void aPlainWordStaysAsItIs()
    {
        QCOMPARE(shellQuote(QStringLiteral("openai.com:443")), QStringLiteral("openai.com:443"));
        QCOMPARE(shellQuote(QStringLiteral("word\n")), QStringLiteral("'word\n'"));
    }
};

QTEST_GUILESS_MAIN(ShellQuoteTest)
#include "tst_shell_quote.moc"
