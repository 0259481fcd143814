// SPDX-License-Identifier: GPL-3.0-or-later
// The Sandboxes and Secrets pages' models fed with what paddockd sends: `sandbox.list`,
// `network` refusals, `events.denials` and `agent.counts` for the sandboxes; `keychain.status`
// and `secret.list` for the keys. Each row is read through data() under the role names QML
// binds to. (tests/gui/sandboxes-page drives the same list through a protocol server.)
#include "GuiModelsSupport.h"

#include "SandboxListModel.h"
#include "SandboxWizard.h"
#include "SecretListModel.h"

#include <QDir>
#include <QJsonArray>
#include <QLocale>
#include <QSignalSpy>
#include <QtTest>

using namespace paddock;
using namespace paddock::gui;
using test::column;
using test::shown;
using test::wireEvent;
using test::wireResult;

namespace {

QJsonArray listedSandboxes()
{
    return wireResult(QStringLiteral("sandbox-list")).value(QLatin1String("sandboxes")).toArray();
}

QDateTime isoTime(const char *text)
{
    return QDateTime::fromString(QLatin1String(text), Qt::ISODateWithMs);
}

/** The listed sandboxes with @p name left out, or replaced by @p replacement when it has one. */
QJsonArray withSandbox(const QString &name, const QJsonObject &replacement = {})
{
    QJsonArray sandboxes;
    for (const QJsonValue &value : listedSandboxes()) {
        if (value.toObject().value(QLatin1String("name")).toString() != name)
            sandboxes.append(value);
        else if (!replacement.isEmpty())
            sandboxes.append(replacement);
    }
    return sandboxes;
}

} // namespace

class TestGuiModelsSandboxes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sandboxesAreListedByNameWithTheirState();
    void aRefusalCountsOnItsSandboxsRow();
    void storedRefusalsAddToTheLiveOnes();
    void agentRefusalsShowOnTheirRow();
    void aStoppedSandboxChangesInPlace();
    void whatASandboxSharesIsOneLine();
    void anotherBackendClearsTheLastError();
    void aRemovedSandboxLeavesTheList();
    void keysAreListedMaskedWithWhereTheyApply();
    void theKeychainBannerSaysWhatToInstall();
    void aRemovedKeyLeavesTheList();

private:
    static int row(const SandboxListModel &model, const char *name)
    {
        return int(column(model, "name").indexOf(QLatin1String(name)));
    }
};

void TestGuiModelsSandboxes::sandboxesAreListedByNameWithTheirState()
{
    SandboxListModel model;
    QSignalSpy count(&model, &SandboxListModel::countChanged);
    model.applyList(listedSandboxes());
    QCOMPARE(count.size(), 1);
    // The daemon lists them in its order; the page, by name.
    QCOMPARE(column(model, "name"),
             QStringList({QStringLiteral("api"), QStringLiteral("docs"), QStringLiteral("ml"), QStringLiteral("web")}));
    QCOMPARE(column(model, "kit"), QStringList({QStringLiteral("course"), QStringLiteral("course"),
                                                QStringLiteral("course"), QStringLiteral("pi")}));
    QCOMPARE(column(model, "stateText"), QStringList({QStringLiteral("Stopped"), QStringLiteral("Running"),
                                                      QStringLiteral("Running · agent exited (status 3)"),
                                                      QStringLiteral("Running · agent running")}));
    // A kernel of its own is said with the backend.
    QCOMPARE(column(model, "backend"), QStringList({QStringLiteral("bwrap"), QStringLiteral("bwrap"),
                                                    QStringLiteral("docker + gVisor"), QStringLiteral("bwrap")}));
    QCOMPARE(column(model, "rootText"), QStringList({QString(), QStringLiteral("root 12.0 kB over the host's system"),
                                                     QString(), QStringLiteral("root 1.2 MB over image pi:1")}));
    QCOMPARE(shown(model, 3, "workspace").toString(), QStringLiteral("/home/ada/web"));
    QCOMPARE(shown(model, 3, "agentAttached").toInt(), 1);
    QCOMPARE(shown(model, 2, "agentExitCode").toInt(), 3);
    QCOMPARE(shown(model, 3, "startedAt").toDateTime(), isoTime("2026-01-05T10:00:00.000Z"));
    // Only a running sandbox has an uptime.
    QCOMPARE(shown(model, 0, "uptime").toString(), QString());
    QVERIFY(!shown(model, 3, "uptime").toString().isEmpty());
    QCOMPARE(shown(model, 0, "status").toString(), QStringLiteral("stopped"));
    QCOMPARE(shown(model, 0, "busy").toBool(), false);
    QCOMPARE(model.get(model.rowOf(QStringLiteral("ml"))).value(QStringLiteral("backend")).toString(),
             QStringLiteral("docker + gVisor"));
}

void TestGuiModelsSandboxes::aRefusalCountsOnItsSandboxsRow()
{
    SandboxListModel model;
    model.applyList(listedSandboxes());
    const int web = row(model, "web");
    QCOMPARE(column(model, "denials"),
             QStringList({QStringLiteral("0"), QStringLiteral("0"), QStringLiteral("0"), QStringLiteral("0")}));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const QJsonObject denied = wireEvent(QStringLiteral("network-denied"), QStringLiteral("network"));
    model.daemonEvent(QStringLiteral("network"), denied);
    QCOMPARE(shown(model, web, "denials").toLongLong(), 1);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), web);
    QCOMPARE(shown(model, row(model, "ml"), "denials").toLongLong(), 0);

    // Not refusals of this run of a listed sandbox: let through, before it started, unknown sandbox.
    model.daemonEvent(QStringLiteral("network"),
                      wireEvent(QStringLiteral("network-allowed"), QStringLiteral("network")));
    model.daemonEvent(QStringLiteral("network"), test::at(denied, isoTime("2026-01-05T09:59:59.000Z")));
    QJsonObject elsewhere = denied;
    elsewhere.insert(QStringLiteral("sandbox"), QStringLiteral("gone"));
    model.daemonEvent(QStringLiteral("network"), elsewhere);
    QCOMPARE(shown(model, web, "denials").toLongLong(), 1);
    QCOMPARE(changed.size(), 1);
}

void TestGuiModelsSandboxes::storedRefusalsAddToTheLiveOnes()
{
    SandboxListModel model;
    model.applyList(listedSandboxes());
    const QDateTime webStart = isoTime("2026-01-05T10:00:00.000Z");
    model.daemonEvent(QStringLiteral("network"),
                      wireEvent(QStringLiteral("network-denied"), QStringLiteral("network")));
    const QJsonObject stored = wireResult(QStringLiteral("events-denials"));
    // An answer about an earlier run of web is no answer about this one.
    model.applyStoredDenials(QStringLiteral("web"), webStart.addSecs(-3600), stored);
    QCOMPARE(shown(model, row(model, "web"), "denials").toLongLong(), 1);
    // Web's stored groups (5 + 1, up to 10:02) and the live refusal of 10:03 after them.
    model.applyStoredDenials(QStringLiteral("web"), webStart, stored);
    QCOMPARE(shown(model, row(model, "web"), "denials").toLongLong(), 7);
    // The same answer names ml's group: it counts on ml's row only.
    model.applyStoredDenials(QStringLiteral("ml"), isoTime("2026-01-05T09:30:00.000Z"), stored);
    QCOMPARE(shown(model, row(model, "ml"), "denials").toLongLong(), 2);
    QCOMPARE(shown(model, row(model, "web"), "denials").toLongLong(), 7);
    // A live refusal the store held already is not counted twice.
    model.daemonEvent(QStringLiteral("network"),
                      test::at(wireEvent(QStringLiteral("network-denied"), QStringLiteral("network")),
                               isoTime("2026-01-05T10:01:30.000Z")));
    QCOMPARE(shown(model, row(model, "web"), "denials").toLongLong(), 7);
}

void TestGuiModelsSandboxes::agentRefusalsShowOnTheirRow()
{
    SandboxListModel model;
    model.applyList(listedSandboxes());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.applyAgentCounts(wireResult(QStringLiteral("agent-counts")));
    QCOMPARE(column(model, "agentRefusals"),
             QStringList({QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("0"), QStringLiteral("3")}));
    QCOMPARE(changed.size(), 1);
    QVERIFY(changed.at(0).at(2).value<QList<int>>().contains(SandboxListModel::AgentRefusalsRole));
    // The same counts again change nothing a view must redraw.
    model.applyAgentCounts(wireResult(QStringLiteral("agent-counts")));
    QCOMPARE(changed.size(), 1);
}

void TestGuiModelsSandboxes::aStoppedSandboxChangesInPlace()
{
    SandboxListModel model;
    model.applyList(listedSandboxes());
    QJsonObject web = listedSandboxes().at(0).toObject();
    QCOMPARE(web.value(QLatin1String("name")).toString(), QStringLiteral("web"));
    web.insert(QStringLiteral("status"), QStringLiteral("stopped"));
    web.insert(QStringLiteral("exitCode"), 143);
    web.remove(QStringLiteral("agent"));
    web.remove(QStringLiteral("uptimeMs"));
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.applyList(withSandbox(QStringLiteral("web"), web));
    // A view keeps its place: one row changed, nothing reset.
    QCOMPARE(reset.size(), 0);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), row(model, "web"));
    QCOMPARE(shown(model, row(model, "web"), "stateText").toString(), QStringLiteral("Stopped"));
    QCOMPARE(shown(model, row(model, "web"), "uptime").toString(), QString());
    QCOMPARE(shown(model, row(model, "web"), "agentState").toString(), QString());
    // The list as it was: nothing to redraw.
    model.applyList(withSandbox(QStringLiteral("web"), web));
    QCOMPARE(changed.size(), 1);
}

void TestGuiModelsSandboxes::aRemovedSandboxLeavesTheList()
{
    SandboxListModel model;
    model.applyList(listedSandboxes());
    QSignalSpy count(&model, &SandboxListModel::countChanged);
    model.applyList(withSandbox(QStringLiteral("ml")));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(column(model, "name"),
             QStringList({QStringLiteral("api"), QStringLiteral("docs"), QStringLiteral("web")}));
    QVERIFY(model.get(model.rowOf(QStringLiteral("ml"))).isEmpty());
    QCOMPARE(count.size(), 1);
    // A sandbox made from a terminal shows up in its place by name.
    QJsonObject made = listedSandboxes().at(0).toObject();
    made.insert(QStringLiteral("name"), QStringLiteral("cli"));
    QJsonArray more = withSandbox(QStringLiteral("ml"));
    more.append(made);
    model.applyList(more);
    QCOMPARE(column(model, "name"), QStringList({QStringLiteral("api"), QStringLiteral("cli"), QStringLiteral("docs"),
                                                 QStringLiteral("web")}));
}

void TestGuiModelsSandboxes::keysAreListedMaskedWithWhereTheyApply()
{
    SecretListModel secrets;
    QVERIFY(!secrets.loaded());
    secrets.applySecretList(wireResult(QStringLiteral("secret-list")));
    QVERIFY(secrets.loaded());
    QCOMPARE(secrets.count(), 3);
    QCOMPARE(column(secrets, "displayName"),
             QStringList({QStringLiteral("anthropic"), QStringLiteral("web/openai"), QStringLiteral("github")}));
    QCOMPARE(column(secrets, "sandbox"), QStringList({QString(), QStringLiteral("web"), QString()}));
    QCOMPARE(column(secrets, "masked"),
             QStringList({QStringLiteral("sk-a…9f3b"), QStringLiteral("sk-p…a1b2"), QString()}));
    QCOMPARE(column(secrets, "present"),
             QStringList({QStringLiteral("true"), QStringLiteral("true"), QStringLiteral("false")}));
    // When it was last set, in the user's format; nothing when the daemon does not know.
    QCOMPARE(shown(secrets, 0, "updated").toString(),
             QLocale().toString(isoTime("2026-01-05T09:00:00Z").toLocalTime(), QLocale::ShortFormat));
    QCOMPARE(shown(secrets, 1, "updated").toString(), QString());
}

void TestGuiModelsSandboxes::theKeychainBannerSaysWhatToInstall()
{
    SecretListModel secrets;
    QVERIFY(!secrets.keychainKnown());
    QSignalSpy changed(&secrets, &SecretListModel::keychainChanged);
    secrets.applyKeychainStatus(wireResult(QStringLiteral("keychain-status-missing")));
    QVERIFY(secrets.keychainKnown());
    QVERIFY(!secrets.keychainAvailable());
    QCOMPARE(secrets.keychainMessage(), QStringLiteral("No Secret Service answers on the session bus"));
    QVERIFY(secrets.keychainInstall().contains(QLatin1String("gnome-keyring")));
    QCOMPARE(changed.size(), 1);
    // Once one answers, the banner has nothing left to say.
    secrets.applyKeychainStatus(wireResult(QStringLiteral("keychain-status")));
    QVERIFY(secrets.keychainAvailable());
    QVERIFY(secrets.keychainMessage().isEmpty());
    QVERIFY(secrets.keychainInstall().isEmpty());
    QCOMPARE(changed.size(), 2);
}

void TestGuiModelsSandboxes::aRemovedKeyLeavesTheList()
{
    SecretListModel secrets;
    QJsonObject list = wireResult(QStringLiteral("secret-list"));
    secrets.applySecretList(list);
    QSignalSpy count(&secrets, &SecretListModel::countChanged);
    QJsonArray rows = list.value(QLatin1String("secrets")).toArray();
    rows.removeAt(1);
    list.insert(QStringLiteral("secrets"), rows);
    secrets.applySecretList(list);
    QCOMPARE(column(secrets, "displayName"), QStringList({QStringLiteral("anthropic"), QStringLiteral("github")}));
    QCOMPARE(count.size(), 1);
}

void TestGuiModelsSandboxes::whatASandboxSharesIsOneLine()
{
    QCOMPARE(SandboxListModel::describeShares({{QStringLiteral("name"), QStringLiteral("plain")}}), QString());
    const QJsonObject info{
        {QStringLiteral("mounts"),
         QJsonArray{QJsonObject{{QStringLiteral("host"), QDir::homePath() + QStringLiteral("/.nuget")},
                                {QStringLiteral("inside"), QStringLiteral("/home/agent/.nuget")},
                                {QStringLiteral("mode"), QStringLiteral("rw")}},
                    QJsonObject{{QStringLiteral("host"), QStringLiteral("/srv/m.json")},
                                {QStringLiteral("inside"), QStringLiteral("/m.json")},
                                {QStringLiteral("mode"), QStringLiteral("ro")}}}},
        {QStringLiteral("env"), QJsonObject{{QStringLiteral("PGHOST"), QStringLiteral("postgres")}}},
        {QStringLiteral("services"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("postgres")},
                                                            {QStringLiteral("ports"), QJsonArray{5432}}}}}};
    QCOMPARE(SandboxListModel::describeShares(info),
             QStringLiteral("Shares ~/.nuget → /home/agent/.nuget (read-write) · /srv/m.json → /m.json (read-only) · "
                            "variables PGHOST · services postgres:5432"));
}

void TestGuiModelsSandboxes::anotherBackendClearsTheLastError()
{
    // An error of a failed create (here: no project folder) does not stay on the review once the
    // person chose another backend: it was the other backend's.
    SandboxWizard wizard;
    wizard.setBackend(QStringLiteral("docker"));
    wizard.create();
    QCOMPARE(wizard.error(), QStringLiteral("Choose an existing project folder."));
    wizard.setBackend(QStringLiteral("bwrap"));
    QCOMPARE(wizard.error(), QString());
}

QTEST_GUILESS_MAIN(TestGuiModelsSandboxes)
#include "tst_gui_models_sandboxes.moc"
