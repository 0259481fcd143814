// SPDX-License-Identifier: GPL-3.0-or-later
// Ubuntu 24.04 and later let a program create user namespaces only when its AppArmor profile
// says `userns,`. The package's profile must parse, say that and nothing more, and attach to
// exactly the path Paddock runs bubblewrap from once installed (not /usr/bin/bwrap, which
// other programs run too), the path the postinst copies bubblewrap to.
#include "Needs.h"
#include "ProcessRun.h"

#include "runtime/bwrap/BwrapCommand.h"

#include <QtTest>

#include <cstdio>

using namespace paddock;

namespace {
const QString kProfile = QStringLiteral(PADDOCK_SOURCE_DIR "/resources/apparmor/paddock-bwrap");
const QString kPostinst = QStringLiteral(PADDOCK_SOURCE_DIR "/installer/debian/postinst");
/** Set when this program runs as the copy that only prints bwrapProgram(). */
constexpr char kPrintBwrap[] = "PADDOCK_TEST_PRINT_BWRAP";

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/** The rules between the profile's braces, one a line, without comments and blank lines. */
QStringList profileRules(const QString &text)
{
    const qsizetype open = text.indexOf(QLatin1Char('{'));
    const qsizetype close = text.lastIndexOf(QLatin1Char('}'));
    QStringList rules;
    if (open < 0 || close < open)
        return rules;
    for (const QString &line : text.mid(open + 1, close - open - 1).split(QLatin1Char('\n'))) {
        const QString rule = line.trimmed();
        if (!rule.isEmpty() && !rule.startsWith(QLatin1Char('#')))
            rules << rule;
    }
    return rules;
}
} // namespace

class TestAppArmorProfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void profileGrantsUserNamespacesOnly();
    void profileAttachesToWherePaddockRunsBwrap();
    void profileParses();
};

void TestAppArmorProfile::profileGrantsUserNamespacesOnly()
{
    const QString text = readText(kProfile);
    QVERIFY2(!text.isEmpty(), qPrintable(kProfile));
    QVERIFY2(
        text.contains(QRegularExpression(QStringLiteral("^abi <abi/4\\.0>,$"), QRegularExpression::MultilineOption)),
        qPrintable(text));
    QCOMPARE(profileRules(text),
             (QStringList{QStringLiteral("userns,"), QStringLiteral("include if exists <local/paddock-bwrap>")}));
}

void TestAppArmorProfile::profileAttachesToWherePaddockRunsBwrap()
{
    static const QRegularExpression header(QStringLiteral("^profile paddock-bwrap (\\S+) flags=\\(unconfined\\) \\{$"),
                                           QRegularExpression::MultilineOption);
    const QRegularExpressionMatch match = header.match(readText(kProfile));
    QVERIFY(match.hasMatch());
    const QString attached = match.captured(1);
    QCOMPARE(attached, QStringLiteral("/usr/libexec/paddock/bwrap"));
    QVERIFY2(readText(kPostinst).contains(QStringLiteral("own_bwrap=") + attached), qPrintable(kPostinst));

    // Installed under PREFIX/bin, Paddock runs PREFIX/libexec/paddock/bwrap when it is there:
    // this program, copied to such a tree, says what it would run.
    QTemporaryDir prefix;
    QVERIFY(prefix.isValid());
    QVERIFY(QDir().mkpath(prefix.filePath(QStringLiteral("bin"))));
    QVERIFY(QDir().mkpath(prefix.filePath(QStringLiteral("libexec/paddock"))));
    const QString copy = prefix.filePath(QStringLiteral("bin/paddock-test"));
    QVERIFY(QFile::copy(QCoreApplication::applicationFilePath(), copy));
    const QString own = prefix.filePath(QStringLiteral("libexec/paddock/bwrap"));
    QFile stand(own);
    QVERIFY(stand.open(QIODevice::WriteOnly));
    stand.write("#!/bin/sh\nexit 0\n");
    stand.close();
    QVERIFY(QFile::setPermissions(own, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

    test::ProcessOptions options;
    options.environment.insert(QLatin1String(kPrintBwrap), QStringLiteral("1"));
    test::Finished printed = test::runText(copy, {}, options);
    QCOMPARE(printed.exitCode, 0);
    QCOMPARE(printed.out.trimmed(), own);

    // Without the copy, the bwrap on PATH, as before.
    QVERIFY(QFile::remove(own));
    printed = test::runText(copy, {}, options);
    QCOMPARE(printed.exitCode, 0);
    QCOMPARE(printed.out.trimmed(), QStandardPaths::findExecutable(QStringLiteral("bwrap")));
}

void TestAppArmorProfile::profileParses()
{
    const QString parser = QStandardPaths::findExecutable(QStringLiteral("apparmor_parser"),
                                                          {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    PADDOCK_NEED(!parser.isEmpty(), "apparmor_parser (Debian package apparmor, installer/setup-debian.sh)");
    const test::Finished version = test::runText(parser, {QStringLiteral("--version")});
    static const QRegularExpression number(QStringLiteral("version (\\d+)\\."));
    const QRegularExpressionMatch major = number.match(version.out);
    QVERIFY2(major.hasMatch(), qPrintable(version.out + version.err));

    // -Q: parse and compile only, load nothing; -K: no cache.
    QStringList arguments{QStringLiteral("-Q"), QStringLiteral("-K")};
    QString profile = kProfile;
    QTemporaryDir work;
    if (major.captured(1).toInt() < 4) {
        // AppArmor 3 (Debian 12) knows neither abi 4.0 nor the userns rule, which 4.0 brought and
        // Ubuntu 24.04 ships: everything else is parsed, against the 3.0 features under the 4.0
        // name. The rule itself is checked above.
        QVERIFY(work.isValid());
        QVERIFY(QDir().mkpath(work.filePath(QStringLiteral("abi"))));
        QVERIFY(QFile::copy(QStringLiteral("/etc/apparmor.d/abi/3.0"), work.filePath(QStringLiteral("abi/4.0"))));
        QString text = readText(kProfile);
        QVERIFY(text.remove(QStringLiteral("  userns,\n")) != readText(kProfile));
        profile = work.filePath(QStringLiteral("paddock-bwrap"));
        QFile file(profile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
        file.close();
        arguments << QStringLiteral("-I") << work.path();
    }
    const test::Finished parsed = test::runText(parser, arguments << profile);
    QVERIFY2(parsed.exitCode == 0, qPrintable(parsed.out + parsed.err));
}

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsSet(kPrintBwrap)) {
        QCoreApplication app(argc, argv);
        std::printf("%s\n", qPrintable(runtime::bwrap::bwrapProgram()));
        return 0;
    }
    QCoreApplication app(argc, argv);
    TestAppArmorProfile test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_apparmor_profile.moc"
