// SPDX-License-Identifier: GPL-3.0-or-later
// What the secret guard reads of a workspace, on the host: the values of .env files and private
// keys, the trivial ones left out and said so, and nothing reached through a link.
#include "sandbox/SecretGuardSetup.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using paddock::sandbox::WorkspaceSecrets;

namespace {

void write(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

QStringList names(const WorkspaceSecrets &secrets)
{
    QStringList out;
    for (const auto &value : secrets.values)
        out << value.file + QLatin1Char(' ') + value.name;
    out.sort();
    return out;
}

} // namespace

class TestWorkspaceSecrets : public QObject
{
    Q_OBJECT

private slots:
    void envFilesAndKeysAreRead()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral(".env")),
              "# comment\nOPENAI_KEY=sk-abcdefghijkl\nexport DB_PASSWORD=\"quoted value 123\"\nPORT=8080\n"
              "DEBUG=true\nSHORT=abc\nNOTE=plain-value-here # a comment\n");
        write(dir.filePath(QStringLiteral("app/.env.local")), "TOKEN='tok-0123456789'\n");
        write(dir.filePath(QStringLiteral("keys/id_ed25519")),
              "-----BEGIN OPENSSH PRIVATE KEY-----\n"
              "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
              "QyNTUxOQAAACBxq3Zm0J5w2hT1o7oFqk9aW0f8R7t3z5n4m2k1j0i9hgAAAJgAAAAAAAAA\n"
              "AAAAAAtzc2gtZWQyNTUxOQAAACBxq3Zm0J5w2hT1o7oFqk9aW0f8R7t3z5n4m2k1j0i9hg\n"
              "-----END OPENSSH PRIVATE KEY-----\n");
        write(dir.filePath(QStringLiteral("keys/id_ed25519.pub")), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA pub\n");
        write(dir.filePath(QStringLiteral("cert.pem")), "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n");
        const WorkspaceSecrets secrets = WorkspaceSecrets::read(dir.path());
        QCOMPARE(names(secrets), (QStringList{QStringLiteral(".env DB_PASSWORD"), QStringLiteral(".env NOTE"),
                                              QStringLiteral(".env OPENAI_KEY"), QStringLiteral("app/.env.local TOKEN"),
                                              QStringLiteral("keys/id_ed25519 private key")}));
        for (const auto &value : secrets.values) {
            if (value.name == QLatin1String("DB_PASSWORD"))
                QCOMPARE(value.bytes, std::string("quoted value 123"));
            if (value.name == QLatin1String("NOTE"))
                QCOMPARE(value.bytes, std::string("plain-value-here"));
        }
        const QString skipped = secrets.skipped.join(QLatin1Char('\n'));
        QVERIFY2(skipped.contains(QStringLiteral(".env SHORT: shorter than 8")), qPrintable(skipped));
        QVERIFY2(skipped.contains(QStringLiteral(".env DEBUG")), qPrintable(skipped));
    }

    void linksAreNotFollowed()
    {
        QTemporaryDir outside;
        write(outside.filePath(QStringLiteral(".env")), "OUTSIDE_SECRET=outside-0123456789\n");
        QTemporaryDir dir;
        QVERIFY(QFile::link(outside.filePath(QStringLiteral(".env")), dir.filePath(QStringLiteral(".env"))));
        QVERIFY(QFile::link(outside.path(), dir.filePath(QStringLiteral("linked"))));
        const WorkspaceSecrets secrets = WorkspaceSecrets::read(dir.path());
        QVERIFY2(secrets.values.empty(), qPrintable(names(secrets).join(QLatin1Char(','))));
        QVERIFY(secrets.files.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceSecrets)
#include "tst_workspace_secrets.moc"
