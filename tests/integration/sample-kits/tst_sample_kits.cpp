// SPDX-License-Identifier: GPL-3.0-or-later
// The sample kits in resources/kits: they validate as they are, the pi kit says what the course
// says, and the shell kit runs in a real bubblewrap sandbox through the real daemon.
#include "SandboxFixture.h"

using paddock::test::Finished;
using paddock::test::SandboxFixture;

namespace {

QString sampleKit(const QString &name)
{
    return QStringLiteral(PADDOCK_SOURCE_DIR "/resources/kits/") + name;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

} // namespace

class TestSampleKits : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void bothValidateWithoutWarnings();
    void piInjectsTheIlaasKeyAsBearer();
    void piHomeFilesSelectTheIlaasProvider();
    void shellRunsUnderBubblewrap();
    void shellRunsItsDefaultCommand();

private:
    std::unique_ptr<SandboxFixture> m_fixture;
};

void TestSampleKits::initTestCase()
{
    m_fixture = std::make_unique<SandboxFixture>();
    QVERIFY2(m_fixture->setUp(), "the fixture did not start (python3, paddockd)");
}

void TestSampleKits::bothValidateWithoutWarnings()
{
    const Finished validated =
        m_fixture->paddock({QStringLiteral("kit"), QStringLiteral("validate"), sampleKit(QStringLiteral("shell")),
                            sampleKit(QStringLiteral("pi"))});
    QVERIFY2(validated.exitCode == 0, qPrintable(validated.out));
    QCOMPARE(validated.out, sampleKit(QStringLiteral("shell")) + QStringLiteral(": ok\n") +
                                sampleKit(QStringLiteral("pi")) + QStringLiteral(": ok\n"));
}

void TestSampleKits::piInjectsTheIlaasKeyAsBearer()
{
    const Finished shown = m_fixture->paddock(
        {QStringLiteral("kit"), QStringLiteral("show"), QStringLiteral("--json"), sampleKit(QStringLiteral("pi"))});
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
    const QJsonObject kit = QJsonDocument::fromJson(shown.out.toUtf8()).object();
    const QJsonArray credentials = kit.value(QLatin1String("credentials")).toArray();
    QCOMPARE(credentials.size(), 1);
    const QJsonObject ilaas = credentials.first().toObject();
    QCOMPARE(ilaas.value(QLatin1String("service")).toString(), QStringLiteral("ilaas"));
    const QJsonObject apiKey = ilaas.value(QLatin1String("apiKey")).toObject();
    QCOMPARE(apiKey.value(QLatin1String("name")).toString(), QStringLiteral("ILAAS_API_KEY"));
    QVERIFY(apiKey.value(QLatin1String("proxyManaged")).toBool());
    const QJsonObject inject = apiKey.value(QLatin1String("inject")).toArray().first().toObject();
    QCOMPARE(inject.value(QLatin1String("domain")).toString(), QStringLiteral("llm.ilaas.fr"));
    QCOMPARE(inject.value(QLatin1String("header")).toString(), QStringLiteral("Authorization"));
    QCOMPARE(inject.value(QLatin1String("format")).toString(), QStringLiteral("Bearer %s"));
    QVERIFY2(shown.out.contains(QLatin1String("\"pi\"")) && shown.out.contains(QLatin1String("\"-a\"")),
             qPrintable(shown.out));
}

void TestSampleKits::piHomeFilesSelectTheIlaasProvider()
{
    const QString agent = sampleKit(QStringLiteral("pi/files/home/.pi/agent/"));
    const QJsonObject settings = readJson(agent + QStringLiteral("settings.json"));
    QCOMPARE(settings.value(QLatin1String("defaultProvider")).toString(), QStringLiteral("ilaas"));
    const QJsonObject provider = readJson(agent + QStringLiteral("models.json"))
                                     .value(QLatin1String("providers"))
                                     .toObject()
                                     .value(QLatin1String("ilaas"))
                                     .toObject();
    QCOMPARE(provider.value(QLatin1String("baseUrl")).toString(), QStringLiteral("https://llm.ilaas.fr/v1"));
    // The key Pi sends is the sentinel in the variable; the proxy replaces it on the way out.
    QCOMPARE(provider.value(QLatin1String("apiKey")).toString(), QStringLiteral("$ILAAS_API_KEY"));
    QStringList models;
    for (const QJsonValue &model : provider.value(QLatin1String("models")).toArray())
        models << model.toObject().value(QLatin1String("id")).toString();
    QVERIFY2(models.contains(settings.value(QLatin1String("defaultModel")).toString()), qPrintable(models.join(u',')));
}

void TestSampleKits::shellRunsUnderBubblewrap()
{
    const Finished run = m_fixture->paddock(
        {QStringLiteral("run"), QStringLiteral("--kit"), sampleKit(QStringLiteral("shell")), QStringLiteral("--name"),
         QStringLiteral("shell-sample"), m_fixture->workspace(), QStringLiteral("--"), QStringLiteral("sh"),
         QStringLiteral("-c"),
         QStringLiteral("echo \"prompt=$PS1\"; echo made > made-by-shell.txt; cat \"$HOME/AGENTS.md\"")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.startsWith(QLatin1String("prompt=shell$ \n")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("You run in a Paddock sandbox.")), qPrintable(run.out));
    QFile made(m_fixture->workspace() + QStringLiteral("/made-by-shell.txt"));
    QVERIFY(made.open(QIODevice::ReadOnly));
    QCOMPARE(made.readAll(), QByteArray("made\n"));
    // It ran under bubblewrap, as the kit's default says, and not on another backend.
    const Finished inspect = m_fixture->paddock({QStringLiteral("inspect"), QStringLiteral("shell-sample")});
    QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
    QCOMPARE(QJsonDocument::fromJson(inspect.out.toUtf8()).object().value(QLatin1String("backend")).toString(),
             QStringLiteral("bwrap"));
}

void TestSampleKits::shellRunsItsDefaultCommand()
{
    // Without arguments the kit runs `sh`, reading its commands from standard input.
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(m_fixture->workspace());
    process.start(QStringLiteral(PADDOCK_BIN),
                  {QStringLiteral("run"), QStringLiteral("--kit"), sampleKit(QStringLiteral("shell")),
                   QStringLiteral("--name"), QStringLiteral("shell-default"), m_fixture->workspace()});
    process.write("echo from stdin; exit 4\n");
    process.closeWriteChannel();
    QVERIFY(process.waitForFinished(120000));
    QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()), QStringLiteral("from stdin\n"));
    QCOMPARE(process.exitCode(), 4);
}

QTEST_GUILESS_MAIN(TestSampleKits)
#include "tst_sample_kits.moc"
