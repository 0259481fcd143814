// SPDX-License-Identifier: GPL-3.0-or-later
// A workload and its mixins merged into the kit a sandbox applies (SPEC-v3 §7.1.1 and §9.5's
// combination rules): lists united, hooks and files in composition order, an instance stated
// twice differently refused, and the kits' names and digests kept in order.
#include "kit/KitComposition.h"

#include <QtTest>

using namespace paddock;
using namespace paddock::kit;

namespace {

Kit v3(const QString &name, KitKind kind, QStringList provides = {}, QStringList requirements = {})
{
    Kit kit;
    kit.schemaVersion = QStringLiteral("3");
    kit.name = name;
    kit.kind = kind;
    kit.digest = QStringLiteral("sha256:") + QString(64, name.at(0));
    kit.provides = std::move(provides);
    kit.requirements = std::move(requirements);
    if (kind == KitKind::Sandbox)
        kit.sandbox = SandboxBlock{};
    return kit;
}

Credential apiKeyFor(const QString &service, const QString &variable, const QString &domain)
{
    Credential credential;
    credential.service = service;
    ApiKey key;
    key.name = variable;
    key.proxyManaged = true;
    Injection injection;
    injection.domain = domain;
    injection.header = QStringLiteral("Authorization");
    injection.format = QStringLiteral("Bearer %s");
    key.inject << injection;
    credential.apiKey = key;
    return credential;
}

} // namespace

class TestKitMerge : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void declarationsMergeInCompositionOrder()
    {
        Kit shell = v3(QStringLiteral("shell"), KitKind::Sandbox, {QStringLiteral("shell@1.0")});
        shell.networkAllow = {QStringLiteral("example.com")};
        shell.setup.install << InstallCommand{QStringLiteral("echo shell"), {}, {}, std::nullopt};
        Kit gh = v3(QStringLiteral("gh"), KitKind::Mixin, {QStringLiteral("gh@2.0")}, {QStringLiteral("shell")});
        gh.networkAllow = {QStringLiteral("api.github.com"), QStringLiteral("example.com")};
        gh.networkDeny = {QStringLiteral("gist.github.com")};
        gh.credentials << apiKeyFor(QStringLiteral("github"), QStringLiteral("GH_TOKEN"),
                                    QStringLiteral("api.github.com"));
        gh.environment.append({QStringLiteral("GH_PAGER"), QStringLiteral("cat")});
        gh.setup.install << InstallCommand{QStringLiteral("echo gh"), {}, {}, std::nullopt};
        gh.ports << Port{8080, QStringLiteral("tcp"), {}};
        Kit helper = v3(QStringLiteral("helper"), KitKind::Mixin, {}, {QStringLiteral("gh >= 2")});
        helper.setup.install << InstallCommand{QStringLiteral("echo helper"), {}, {}, std::nullopt};
        // The same credential stated the same way is one request.
        helper.credentials << gh.credentials;

        // Given helper first: the order comes from the declarations.
        const Result<Composition> composed = composeKits({helper, gh, shell});
        QVERIFY2(composed.ok(), qPrintable(composed.errorText()));
        const Kit &kit = composed->kit;
        QCOMPARE(kit.name, QStringLiteral("shell+gh+helper"));
        QVERIFY(kit.isSandbox());
        QCOMPARE(kit.networkAllow, (QStringList{QStringLiteral("example.com"), QStringLiteral("api.github.com")}));
        QCOMPARE(kit.networkDeny, QStringList{QStringLiteral("gist.github.com")});
        QCOMPARE(kit.credentials.size(), 1);
        QCOMPARE(kit.ports.size(), 1);
        QCOMPARE(kit.environment.size(), 1);
        QStringList install;
        for (const InstallCommand &command : kit.setup.install)
            install << command.command;
        QCOMPARE(install,
                 (QStringList{QStringLiteral("echo shell"), QStringLiteral("echo gh"), QStringLiteral("echo helper")}));
        QCOMPARE(composed->parts.size(), 3);
        QCOMPARE(composed->parts.at(0).name, QStringLiteral("shell"));
        QVERIFY(composed->parts.at(0).workload);
        QCOMPARE(composed->parts.at(2).digest, helper.digest);
    }

    void differingInstancesAreRefused()
    {
        Kit shell = v3(QStringLiteral("shell"), KitKind::Sandbox);
        shell.credentials << apiKeyFor(QStringLiteral("github"), QStringLiteral("GH_TOKEN"), QStringLiteral("a.test"));
        Kit gh = v3(QStringLiteral("gh"), KitKind::Mixin);
        gh.credentials << apiKeyFor(QStringLiteral("github"), QStringLiteral("GITHUB_TOKEN"), QStringLiteral("a.test"));
        QCOMPARE(composeKits({shell, gh}).error().message,
                 QStringLiteral("kits shell and gh both declare the credential for service github, differently: a "
                                "composition states each once"));

        Kit a = v3(QStringLiteral("a"), KitKind::Mixin);
        a.environment.append({QStringLiteral("MODE"), QStringLiteral("fast")});
        Kit b = v3(QStringLiteral("b"), KitKind::Mixin);
        b.environment.append({QStringLiteral("MODE"), QStringLiteral("slow")});
        QCOMPARE(composeKits({v3(QStringLiteral("shell"), KitKind::Sandbox), a, b}).error().message,
                 QStringLiteral("kits a and b both declare the variable MODE, differently: a composition states each "
                                "once"));

        Kit c = v3(QStringLiteral("c"), KitKind::Mixin);
        c.setup.files << SetupFile{QStringLiteral("/etc/tool.conf"), QStringLiteral("x"), {}, false, {}};
        Kit d = c;
        d.name = QStringLiteral("d");
        QCOMPARE(composeKits({v3(QStringLiteral("shell"), KitKind::Sandbox), c, d}).error().message,
                 QStringLiteral("kits c and d both write the file /etc/tool.conf (lifecycle@1 files)"));

        // A volume is one instance for its path: the same one twice is kept once, another refused.
        Kit e = v3(QStringLiteral("e"), KitKind::Mixin);
        e.volumes << Volume{QStringLiteral("/cache"), QString(), QStringLiteral("1G"), QStringLiteral("0700")};
        Kit f = e;
        f.name = QStringLiteral("f");
        const Result<Composition> same = composeKits({v3(QStringLiteral("shell"), KitKind::Sandbox), e, f});
        QVERIFY2(same.ok(), qPrintable(same.errorText()));
        QCOMPARE(same->kit.volumes.size(), 1);
        f.volumes.first().mode = QStringLiteral("0755");
        QCOMPARE(composeKits({v3(QStringLiteral("shell"), KitKind::Sandbox), e, f}).error().message,
                 QStringLiteral("kits e and f both declare the volume /cache, differently: a composition states each "
                                "once"));
    }

    void theSandboxsLimitsAndInteractiveTailHaveOneOwner()
    {
        // A mixin's limits and interactive tail become the sandbox's when the workload has none.
        Resources limits;
        limits.memory = QStringLiteral("256M");
        limits.memoryBytes = 256 << 20;
        Kit tui = v3(QStringLiteral("tui"), KitKind::Mixin);
        tui.mixinResources = limits;
        tui.mixinInteractive = QStringList{QStringLiteral("--tui")};
        Kit shell = v3(QStringLiteral("shell"), KitKind::Sandbox);
        shell.sandbox->commandInteractive = QStringList(); // an empty tail takes no place
        const Result<Composition> composed = composeKits({shell, tui});
        QVERIFY2(composed.ok(), qPrintable(composed.errorText()));
        QCOMPARE(composed->kit.sandbox->resources->memoryBytes, std::optional<qint64>(256 << 20));
        QCOMPARE(composed->kit.sandbox->commandInteractive.value_or(QStringList()),
                 QStringList{QStringLiteral("--tui")});

        // The same limits restated are the same ask; other limits are refused.
        Kit same = v3(QStringLiteral("same"), KitKind::Mixin);
        same.mixinResources = limits;
        QVERIFY2(composeKits({shell, tui, same}).ok(), "the same limits twice");
        Kit other = same;
        other.name = QStringLiteral("other");
        other.mixinResources->memoryBytes = 512 << 20;
        QCOMPARE(composeKits({shell, tui, other}).error().message,
                 QStringLiteral("kits tui and other both declare resources@1 (the sandbox's limits), differently: a "
                                "composition states each once"));
        shell.sandbox->resources = limits;
        QCOMPARE(composeKits({shell, other}).error().message,
                 QStringLiteral("kits shell and other both declare resources@1 (the sandbox's limits), differently: a "
                                "composition states each once"));

        // A second interactive tail is refused, even an equal one: it replaces, it does not add.
        Kit again = tui;
        again.name = QStringLiteral("again");
        again.mixinResources.reset();
        QCOMPARE(composeKits({shell, tui, again}).error().message,
                 QStringLiteral("kits tui and again both declare lifecycle@1's interactive tail: it replaces the "
                                "launch's tail, so a composition has one"));
        shell.sandbox->commandInteractive = QStringList{QStringLiteral("--own")};
        QCOMPARE(composeKits({shell, again}).error().message,
                 QStringLiteral("kits shell and again both declare lifecycle@1's interactive tail: it replaces the "
                                "launch's tail, so a composition has one"));

        // The workload's newSession names the same launch: a mixin's tail must agree with it.
        Kit agent = v3(QStringLiteral("agent"), KitKind::Sandbox);
        agent.agentInteractiveSessions =
            QJsonObject{{QStringLiteral("newSession"), QJsonArray{QStringLiteral("--new")}}};
        QCOMPARE(composeKits({agent, again}).error().message,
                 QStringLiteral("kit again's lifecycle@1 interactive tail differs from the newSession verb of kit "
                                "agent's agent-interactive-sessions@1: both name the new interactive session"));
        again.mixinInteractive = QStringList{QStringLiteral("--new")};
        QVERIFY2(composeKits({agent, again}).ok(), "a tail that agrees with newSession");
    }

    void resolutionFailureAndV2KitsAreRefused()
    {
        const Result<Composition> missing =
            composeKits({v3(QStringLiteral("shell"), KitKind::Sandbox),
                         v3(QStringLiteral("gh"), KitKind::Mixin, {}, {QStringLiteral("node")})});
        QCOMPARE(missing.error().message, QStringLiteral("kit gh requires 'node', and no kit of the composition "
                                                         "provides com.docker.kit/node"));
        Kit v2 = v3(QStringLiteral("old"), KitKind::Sandbox);
        v2.schemaVersion = QStringLiteral("2");
        QVERIFY(!composeKits({v2, v3(QStringLiteral("gh"), KitKind::Mixin)}).ok());
    }
};

QTEST_GUILESS_MAIN(TestKitMerge)
#include "tst_kit_merge.moc"
