// SPDX-License-Identifier: GPL-3.0-or-later
// credentials.yaml: the sbx shape read and written, approvals and revocations, whether a
// kit's credential is covered, broken files reported by line, atomic writes.
#include "secrets/CredentialBindings.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace paddock::secrets;

namespace {

void writeFile(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(contents);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

const QByteArray kSbxFile = "bindings:\n"
                            "  anthropic:\n"
                            "    apiKey:\n"
                            "      domains:\n"
                            "        - api.anthropic.com\n"
                            "  github:\n"
                            "    apiKey:\n"
                            "      domains: [api.github.com, \"*.githubusercontent.com\"]\n";

} // namespace

class TestSecretsBindings : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void defaultPathIsInTheConfigDir();
    void missingFileHasNoBindings();
    void roundTrip();
    void sbxShapedFileIsRead();
    void coverage();
    void extraDomainIsNotCovered();
    void wildcardApproval();
    void approvingAddsToWhatIsThere();
    void revoke();
    void unknownFieldsAreKept();
    void handEditIsKeptOnChange();
    void brokenFileNamesItsLine_data();
    void brokenFileNamesItsLine();
    void brokenFileRefusesChanges();
    void writesAreAtomicAndPrivate();
    void badDomainsAreRefused();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestSecretsBindings::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("paddock/credentials.yaml"));
}

void TestSecretsBindings::defaultPathIsInTheConfigDir()
{
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir->path()));
    QCOMPARE(CredentialBindings::defaultPath(), m_dir->filePath(QStringLiteral("paddock/credentials.yaml")));
    QCOMPARE(CredentialBindings().path(), CredentialBindings::defaultPath());
}

void TestSecretsBindings::missingFileHasNoBindings()
{
    CredentialBindings bindings(m_path);
    QVERIFY(!bindings.load());
    QVERIFY(bindings.bindings().isEmpty());
    QVERIFY(!bindings.coverage(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}).covered);
    QVERIFY(!QFile::exists(m_path));
}

void TestSecretsBindings::roundTrip()
{
    CredentialBindings bindings(m_path);
    QVERIFY(!bindings.load());
    QString error;
    QVERIFY2(bindings.approve(QStringLiteral("openai"),
                              {QStringLiteral("API.OpenAI.com."), QStringLiteral("api.openai.com")}, &error),
             qPrintable(error));
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}, &error));

    CredentialBindings reread(m_path);
    QVERIFY(!reread.load());
    const QList<Binding> list = reread.bindings();
    QCOMPARE(list.size(), 2);
    QCOMPARE(list[0].service, QStringLiteral("anthropic"));
    QCOMPARE(list[0].domains, QStringList{QStringLiteral("api.anthropic.com")});
    QCOMPARE(list[1].service, QStringLiteral("openai"));
    QCOMPARE(list[1].domains, QStringList{QStringLiteral("api.openai.com")});

    // The sbx shape, so sbx reads what Paddock writes.
    const QByteArray text = readFile(m_path);
    QVERIFY2(text.startsWith("bindings:\n"), text.constData());
    QVERIFY2(text.contains("  anthropic:\n    apiKey:\n      domains:\n        - api.anthropic.com"), text.constData());
}

void TestSecretsBindings::sbxShapedFileIsRead()
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    writeFile(m_path, kSbxFile);
    CredentialBindings bindings(m_path);
    const std::optional<BindingsError> error = bindings.load();
    QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
    QCOMPARE(bindings.bindings().size(), 2);
    const std::optional<Binding> github = bindings.binding(QStringLiteral("github"));
    QVERIFY(github);
    QCOMPARE(github->domains,
             (QStringList{QStringLiteral("api.github.com"), QStringLiteral("*.githubusercontent.com")}));
    QVERIFY(bindings.coverage(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}).covered);
}

void TestSecretsBindings::coverage()
{
    CredentialBindings bindings(m_path);
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}));

    Coverage c = bindings.coverage(QStringLiteral("anthropic"), {QStringLiteral("API.anthropic.com.")});
    QVERIFY(c.covered);
    QVERIFY(c.bound);
    QVERIFY(c.newDomains.isEmpty());
    QVERIFY(c.explanation(QStringLiteral("anthropic")).isEmpty());

    c = bindings.coverage(QStringLiteral("openai"), {QStringLiteral("api.openai.com")});
    QVERIFY(!c.covered);
    QVERIFY(!c.bound);
    QCOMPARE(c.newDomains, QStringList{QStringLiteral("api.openai.com")});
    QVERIFY(c.explanation(QStringLiteral("openai")).contains(QLatin1String("openai is not approved")));
}

void TestSecretsBindings::extraDomainIsNotCovered()
{
    CredentialBindings bindings(m_path);
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}));
    const Coverage c = bindings.coverage(QStringLiteral("anthropic"),
                                         {QStringLiteral("api.anthropic.com"), QStringLiteral("evil.example.net")});
    QVERIFY(!c.covered);
    QVERIFY(c.bound);
    QCOMPARE(c.newDomains, QStringList{QStringLiteral("evil.example.net")});
    QCOMPARE(c.explanation(QStringLiteral("anthropic")),
             QStringLiteral("anthropic is not approved for evil.example.net"));
}

void TestSecretsBindings::wildcardApproval()
{
    CredentialBindings bindings(m_path);
    QVERIFY(bindings.approve(QStringLiteral("github"), {QStringLiteral("*.githubusercontent.com")}));
    QVERIFY(bindings.coverage(QStringLiteral("github"), {QStringLiteral("raw.githubusercontent.com")}).covered);
    QVERIFY(bindings.coverage(QStringLiteral("github"), {QStringLiteral("*.githubusercontent.com")}).covered);
    QVERIFY(!bindings.coverage(QStringLiteral("github"), {QStringLiteral("githubusercontent.com")}).covered);
    QVERIFY(!bindings.coverage(QStringLiteral("github"), {QStringLiteral("evilgithubusercontent.com")}).covered);
    // A narrow approval does not cover a wildcard request.
    QVERIFY(bindings.approve(QStringLiteral("openai"), {QStringLiteral("api.openai.com")}));
    QVERIFY(!bindings.coverage(QStringLiteral("openai"), {QStringLiteral("*.openai.com")}).covered);
}

void TestSecretsBindings::approvingAddsToWhatIsThere()
{
    CredentialBindings bindings(m_path);
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}));
    QVERIFY(bindings.approve(QStringLiteral("anthropic"),
                             {QStringLiteral("console.anthropic.com"), QStringLiteral("api.anthropic.com")}));
    QCOMPARE(bindings.binding(QStringLiteral("anthropic"))->domains,
             (QStringList{QStringLiteral("api.anthropic.com"), QStringLiteral("console.anthropic.com")}));
    QVERIFY(bindings
                .coverage(QStringLiteral("anthropic"),
                          {QStringLiteral("console.anthropic.com"), QStringLiteral("api.anthropic.com")})
                .covered);
}

void TestSecretsBindings::revoke()
{
    CredentialBindings bindings(m_path);
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}));
    QVERIFY(bindings.approve(QStringLiteral("openai"), {QStringLiteral("api.openai.com")}));
    QString error;
    QVERIFY2(bindings.revoke(QStringLiteral("anthropic"), &error), qPrintable(error));
    QVERIFY(!bindings.binding(QStringLiteral("anthropic")));
    QVERIFY(!bindings.coverage(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}).covered);

    CredentialBindings reread(m_path);
    QVERIFY(!reread.load());
    QVERIFY(!reread.binding(QStringLiteral("anthropic")));
    QVERIFY(reread.binding(QStringLiteral("openai")));

    QVERIFY(!bindings.revoke(QStringLiteral("anthropic"), &error));
    QCOMPARE(error, QStringLiteral("anthropic has no binding"));
}

void TestSecretsBindings::unknownFieldsAreKept()
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    writeFile(m_path, "schema: future\n"
                      "bindings:\n"
                      "  anthropic:\n"
                      "    note: set up by the course\n"
                      "    apiKey:\n"
                      "      header: x-api-key\n"
                      "      domains: [api.anthropic.com]\n"
                      "    oauth:\n"
                      "      tokenHost: auth.example.test\n");
    CredentialBindings bindings(m_path);
    QVERIFY(!bindings.load());
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("console.anthropic.com")}));
    QVERIFY(bindings.approve(QStringLiteral("openai"), {QStringLiteral("api.openai.com")}));
    const QByteArray text = readFile(m_path);
    QVERIFY2(text.contains("schema: future"), text.constData());
    QVERIFY2(text.contains("note: set up by the course"), text.constData());
    QVERIFY2(text.contains("header: x-api-key"), text.constData());
    QVERIFY2(text.contains("tokenHost: auth.example.test"), text.constData());
    QVERIFY(!bindings.load());
    QCOMPARE(bindings.binding(QStringLiteral("anthropic"))->domains,
             (QStringList{QStringLiteral("api.anthropic.com"), QStringLiteral("console.anthropic.com")}));
}

void TestSecretsBindings::handEditIsKeptOnChange()
{
    CredentialBindings bindings(m_path);
    QVERIFY(bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api.anthropic.com")}));
    // Someone (sbx, an editor) adds a binding while this object holds the old state.
    writeFile(m_path, readFile(m_path) + "  mistral:\n    apiKey:\n      domains: [api.mistral.ai]\n");
    QVERIFY(bindings.approve(QStringLiteral("openai"), {QStringLiteral("api.openai.com")}));
    QVERIFY(bindings.binding(QStringLiteral("mistral")));
    QVERIFY(bindings.coverage(QStringLiteral("mistral"), {QStringLiteral("api.mistral.ai")}).covered);
}

void TestSecretsBindings::brokenFileNamesItsLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("words");
    QTest::newRow("unclosed flow list") << QByteArray(
                                               "bindings:\n  anthropic:\n    apiKey:\n      domains: [a.com, b.com\n")
                                        << 5 << QStringLiteral("");
    QTest::newRow("domains not a list") << QByteArray(
                                               "bindings:\n  anthropic:\n    apiKey:\n      domains:\n        a: b\n")
                                        << 5 << QStringLiteral("'domains' must be a list");
    QTest::newRow("bindings a list") << QByteArray("# comment\nbindings:\n  - anthropic\n") << 3
                                     << QStringLiteral("'bindings' must map");
    QTest::newRow("bad service name")
        << QByteArray("bindings:\n  anthropic:\n    apiKey: {domains: [a.com]}\n  \"bad name\":\n    apiKey: {}\n") << 4
        << QStringLiteral("is not a service name");
    QTest::newRow("bad domain")
        << QByteArray("bindings:\n  anthropic:\n    apiKey:\n      domains:\n        - a.com\n        - \"a b\"\n") << 6
        << QStringLiteral("is not a domain name");
}

void TestSecretsBindings::brokenFileNamesItsLine()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, words);
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    writeFile(m_path, text);
    CredentialBindings bindings(m_path);
    const std::optional<BindingsError> error = bindings.load();
    QVERIFY(error);
    QCOMPARE(error->line, line);
    QVERIFY2(error->toString().startsWith(m_path + QStringLiteral(":%1:").arg(line)), qPrintable(error->toString()));
    QVERIFY2(error->message.contains(words), qPrintable(error->message));
}

void TestSecretsBindings::brokenFileRefusesChanges()
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    const QByteArray broken = "bindings:\n  anthropic: [\n";
    writeFile(m_path, broken);
    CredentialBindings bindings(m_path);
    QString error;
    QVERIFY(!bindings.approve(QStringLiteral("openai"), {QStringLiteral("api.openai.com")}, &error));
    QVERIFY2(error.contains(QLatin1String("credentials.yaml")) && error.contains(QLatin1String("fix it first")),
             qPrintable(error));
    QVERIFY(!bindings.revoke(QStringLiteral("anthropic"), &error));
    QCOMPARE(readFile(m_path), broken);
}

void TestSecretsBindings::writesAreAtomicAndPrivate()
{
    CredentialBindings bindings(m_path);
    for (int i = 0; i < 5; ++i)
        QVERIFY(bindings.approve(QStringLiteral("service%1").arg(i), {QStringLiteral("api%1.example.com").arg(i)}));
    QVERIFY(bindings.revoke(QStringLiteral("service2")));
    const QStringList entries = QDir(QFileInfo(m_path).absolutePath())
                                    .entryList(QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    QCOMPARE(entries, QStringList{QStringLiteral("credentials.yaml")});
    QCOMPARE(QFile::permissions(m_path) & (QFileDevice::ReadOther | QFileDevice::ReadGroup | QFileDevice::WriteOther),
             QFileDevice::Permissions());
}

void TestSecretsBindings::badDomainsAreRefused()
{
    CredentialBindings bindings(m_path);
    QString error;
    QVERIFY(!bindings.approve(QStringLiteral("anthropic"), {QStringLiteral("api anthropic com")}, &error));
    QVERIFY(error.contains(QLatin1String("not a domain name")));
    QVERIFY(!bindings.approve(QStringLiteral("bad/name"), {QStringLiteral("a.com")}, &error));
    QVERIFY(!QFile::exists(m_path));
}

QTEST_GUILESS_MAIN(TestSecretsBindings)
#include "tst_secrets_bindings.moc"
