// SPDX-License-Identifier: GPL-3.0-or-later
// An update of a loaded v3 kit that is granted more stops for approval (SPEC-v3 §7.4), with the
// difference in plain words; one that stays within replaces the kit silently.
#include "OciKitArchive.h"

#include "kit/KitArchive.h"
#include "kit/KitLoader.h"
#include "kit/KitSurface.h"

#include <QTemporaryDir>
#include <QTest>

using namespace paddock;
using namespace paddock::test;

namespace {

QByteArray descriptor(const QString &allow, const QString &deny, const QString &extra = {})
{
    return QStringLiteral(R"({"schemaVersion":"3","kind":"workload","capabilities":[)"
                          R"({"type":"com.docker.sandbox/network-policy@1","config":{"runtime":)"
                          R"({"allow":[%1],"deny":[%2]}}}%3]})")
        .arg(allow, deny, extra)
        .toUtf8();
}

QString messages(const QList<kit::Diagnostic> &diagnostics)
{
    QStringList lines;
    for (const kit::Diagnostic &d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestKitUpdateGate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void wideningsGate();
    void narrowingUpdateNeedsNoApproval();
    void installPhaseHostIsAWidening();
    void surfaceOfAKit();
    void gitIdentityIsAWidening();
    void sshAgentGrantsWiden();

private:
    kit::KitArchiveResult loadVersion(const QByteArray &text, bool approve = false);
    QByteArray loadedDescriptor() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    int m_version = 0;
};

void TestKitUpdateGate::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_version = 0;
    const kit::KitArchiveResult first =
        loadVersion(descriptor(QStringLiteral(R"("api.course.test")"), QStringLiteral(R"("ads.course.test")")));
    QVERIFY2(first.ok(), qPrintable(messages(first.diagnostics)));
    QVERIFY(first.widenings.isEmpty());
}

kit::KitArchiveResult TestKitUpdateGate::loadVersion(const QByteArray &text, bool approve)
{
    OciKit oci;
    oci.refName = QStringLiteral("registry.example/course/shell:%1").arg(++m_version);
    oci.layers = {tarOf({folder("etc"), file("etc/os-release", "ID=gate\n")})};
    oci.manifestAnnotations = kitAnnotations(text);
    const QString archive = m_dir->filePath(QStringLiteral("v%1.tar").arg(m_version));
    QFile out(archive);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    out.write(ociKitArchive(oci));
    out.close();
    kit::KitArchiveOptions options;
    options.name = QStringLiteral("course");
    options.kitsRoot = m_dir->filePath(QStringLiteral("kits"));
    options.imageRoot = m_dir->filePath(QStringLiteral("images"));
    options.approveWidening = approve;
    return kit::loadKitArchive(archive, options);
}

QByteArray TestKitUpdateGate::loadedDescriptor() const
{
    QFile file(m_dir->filePath(QStringLiteral("kits/course/kit.json")));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// SPEC-v3 §7.4/widenings-gate
void TestKitUpdateGate::wideningsGate()
{
    const QByteArray before = loadedDescriptor();
    const QByteArray wider =
        descriptor(QStringLiteral(R"("api.course.test","uploads.course.test")"), {},
                   QStringLiteral(R"(,{"type":"com.docker.sandbox/port@1","config":{"container":8080}})"));
    const kit::KitArchiveResult stopped = loadVersion(wider);
    QVERIFY(!stopped.ok());
    // Declined by the gate, not broken: `kit load` tells the two apart by its exit status.
    QVERIFY(stopped.refused());
    QCOMPARE(stopped.widenings, QStringList({QStringLiteral("may reach uploads.course.test on any port"),
                                             QStringLiteral("no longer denies ads.course.test on any port"),
                                             QStringLiteral("publishes port 8080/tcp on 127.0.0.1")}));
    QVERIFY2(messages(stopped.diagnostics).contains(QLatin1String("Accept it with --approve-kit-changes")),
             qPrintable(messages(stopped.diagnostics)));
    // Nothing changed: the kit in the library is the one approved before.
    QCOMPARE(loadedDescriptor(), before);

    const kit::KitArchiveResult approved = loadVersion(wider, true);
    QVERIFY2(approved.ok(), qPrintable(messages(approved.diagnostics)));
    QCOMPARE(loadedDescriptor(), wider);
    QCOMPARE(approved.kit->reference, QStringLiteral("registry.example/course/shell:3"));
}

void TestKitUpdateGate::narrowingUpdateNeedsNoApproval()
{
    // Fewer domains and one more deny: within what was granted.
    const QByteArray narrower = descriptor({}, QStringLiteral(R"("ads.course.test","tracker.course.test")"));
    const kit::KitArchiveResult loaded = loadVersion(narrower);
    QVERIFY2(loaded.ok(), qPrintable(messages(loaded.diagnostics)));
    QVERIFY(loaded.widenings.isEmpty());
    QCOMPARE(loadedDescriptor(), narrower);
}

// SPEC-v3 §7.4: the install phase's lists are surface too, each phase on its own.
void TestKitUpdateGate::installPhaseHostIsAWidening()
{
    const QByteArray installing = QByteArrayLiteral(
        R"({"schemaVersion":"3","kind":"workload","capabilities":[{"type":"com.docker.sandbox/network-policy@1",)"
        R"("config":{"install":{"allow":["deb.course.test"]},"runtime":{"allow":["api.course.test"],)"
        R"("deny":["ads.course.test"]}}}]})");
    const kit::KitArchiveResult stopped = loadVersion(installing);
    QVERIFY(stopped.refused());
    QCOMPARE(stopped.widenings, QStringList{QStringLiteral("may reach deb.course.test on any port while installing")});
    const kit::KitArchiveResult approved = loadVersion(installing, true);
    QVERIFY2(approved.ok(), qPrintable(messages(approved.diagnostics)));
    // The agent is not granted what installs were.
    QCOMPARE(approved.kit->networkAllow, QStringList{QStringLiteral("api.course.test:*")});
    QCOMPARE(approved.kit->networkInstallAllow, QStringList{QStringLiteral("deb.course.test:*")});
}

void TestKitUpdateGate::surfaceOfAKit()
{
    const kit::KitLoadResult loaded = kit::KitLoader::loadText(
        descriptor(
            QStringLiteral(R"("b.test","a.test","a.test")"), {},
            QStringLiteral(R"(,{"type":"com.docker.sandbox/credential@1","config":{"service":"github",)"
                           R"("phase":"runtime","apiKey":{"name":"GH_TOKEN","proxyManaged":true,)"
                           R"("inject":[{"domain":"a.test","header":"Authorization","format":"Bearer %s"}]}}})")),
        QStringLiteral("kit.yaml"));
    QVERIFY2(loaded.kit, qPrintable(messages(loaded.diagnostics)));
    const kit::KitSurface surface = kit::surfaceOf(*loaded.kit);
    QCOMPARE(surface.allow, QStringList({QStringLiteral("a.test:*"), QStringLiteral("b.test:*")}));
    QCOMPARE(surface.credentials, QStringList{QStringLiteral("github, presented to a.test in Authorization")});
    QCOMPARE(kit::wideningsOf(surface, surface), QStringList());
    QCOMPARE(kit::wideningsOf({}, surface).size(), 3);
}

// The person's name and email leave the host: an update that starts asking for them is asked about.
void TestKitUpdateGate::gitIdentityIsAWidening()
{
    const QByteArray withIdentity =
        descriptor(QStringLiteral(R"("api.course.test")"), QStringLiteral(R"("ads.course.test")"),
                   QStringLiteral(R"(,{"type":"com.docker.sandbox/git-identity@1"})"));
    const kit::KitArchiveResult stopped = loadVersion(withIdentity);
    QVERIFY(stopped.refused());
    QCOMPARE(stopped.widenings, QStringList{QStringLiteral("gives git inside your git name and email")});
    QVERIFY(loadVersion(withIdentity, true).ok());
    // Loaded again as it is: nothing new.
    const kit::KitArchiveResult again = loadVersion(withIdentity);
    QVERIFY2(again.ok(), qPrintable(messages(again.diagnostics)));
}

// ssh-agent@1/grant-names-scope: each namespace and server is asked about, in plain words.
void TestKitUpdateGate::sshAgentGrantsWiden()
{
    const auto withAgent = [](const QString &config) {
        return descriptor(QStringLiteral(R"("api.course.test")"), QStringLiteral(R"("ads.course.test")"),
                          QStringLiteral(R"(,{"type":"com.docker.sandbox/ssh-agent@1","config":%1})").arg(config));
    };
    const auto step = [&](const QString &config, const QStringList &widenings) {
        const QByteArray text = withAgent(config);
        const kit::KitArchiveResult result = loadVersion(text);
        if (widenings.isEmpty())
            return result.ok() && result.widenings.isEmpty();
        if (!result.refused() || result.widenings != widenings) {
            qWarning() << result.widenings;
            return false;
        }
        return loadVersion(text, true).ok();
    };
    QVERIFY(step(QStringLiteral(R"({"phase":"runtime","unrestricted":false,"sign":["git"]})"),
                 {QStringLiteral("may sign git signatures with your SSH keys")}));
    QVERIFY(step(QStringLiteral(R"({"phase":"runtime","unrestricted":false,"sign":["git"],)"
                                R"("authenticate":["git@github.com"]})"),
                 {QStringLiteral("may log in with your SSH keys to git@github.com")}));
    // Any account on the host is wider than one account on it.
    QVERIFY(step(QStringLiteral(R"({"phase":"runtime","unrestricted":false,"authenticate":["github.com"]})"),
                 {QStringLiteral("may log in with your SSH keys to github.com")}));
    // ... and the reverse stays within.
    QVERIFY(step(QStringLiteral(R"({"phase":"runtime","unrestricted":false,"authenticate":["git@github.com"]})"), {}));
    QVERIFY(step(QStringLiteral(R"({"phase":"install","unrestricted":false,"authenticate":["git@github.com"]})"),
                 {QStringLiteral("may log in with your SSH keys to git@github.com while installing")}));
    QVERIFY(step(QStringLiteral(R"({"phase":"runtime"})"), {QStringLiteral("may use your SSH keys for anything")}));
}

QTEST_GUILESS_MAIN(TestKitUpdateGate)
#include "tst_kit_update_gate.moc"
