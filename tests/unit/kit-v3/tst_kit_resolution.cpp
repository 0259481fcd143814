// SPDX-License-Identifier: GPL-3.0-or-later
// Resolution of a composition of schemaVersion 3 kits, one test per check of the specification
// (the names follow its `tck:` markers, SPEC-v3 §5): a closed set, conflicts, integrates, order,
// one workload, one provider per name, and constraints no version can meet.
#include "kit/KitResolution.h"

#include <QtTest>

using namespace paddock;
using namespace paddock::kit;

namespace {

Kit kitNamed(const QString &name, KitKind kind, QStringList provides = {}, QStringList requirements = {},
             QStringList integrates = {}, QStringList conflicts = {})
{
    Kit kit;
    kit.schemaVersion = QStringLiteral("3");
    kit.name = name;
    kit.kind = kind;
    kit.provides = std::move(provides);
    kit.requirements = std::move(requirements);
    kit.integrates = std::move(integrates);
    kit.conflicts = std::move(conflicts);
    return kit;
}

Kit workload(const QString &name, QStringList provides = {}, QStringList requirements = {})
{
    return kitNamed(name, KitKind::Sandbox, std::move(provides), std::move(requirements));
}

Kit mixin(const QString &name, QStringList provides = {}, QStringList requirements = {}, QStringList integrates = {},
          QStringList conflicts = {})
{
    return kitNamed(name, KitKind::Mixin, std::move(provides), std::move(requirements), std::move(integrates),
                    std::move(conflicts));
}

QStringList namesInOrder(const QList<Kit> &kits, const QList<int> &order)
{
    QStringList names;
    for (const int k : order)
        names << kits.at(k).name;
    return names;
}

} // namespace

class TestKitResolution : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void versionsCompareSegmentBySegment_data();
    void versionsCompareSegmentBySegment();
    void unsatisfiableConstraintIsRejectedAtParse_data();
    void unsatisfiableConstraintIsRejectedAtParse();
    void unversionedProvideSatisfiesOnlyABareRequire();
    void closedSet();
    void conflictsFail();
    void integratesViolationFails();
    void dependencyOrder();
    void oneWorkload();
    void oneProviderPerName();
    void circleIsRefusedNamingTheKits();
};

void TestKitResolution::versionsCompareSegmentBySegment_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("order");
    QTest::newRow("numeric, not lexical") << "1.10.0"
                                          << "1.9.0" << 1;
    QTest::newRow("equal") << "2.98.0"
                           << "2.98.0" << 0;
    QTest::newRow("leading zeros") << "1.007"
                                   << "1.7" << 0;
    QTest::newRow("prefix first") << "1"
                                  << "1.0" << -1;
    QTest::newRow("long numbers") << "1.123456789012345678901"
                                  << "1.99" << 1;
    QTest::newRow("words lexically") << "1.0.beta"
                                     << "1.0.alpha" << 1;
}

void TestKitResolution::versionsCompareSegmentBySegment()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, order);
    QCOMPARE(compareV3Versions(a, b), order);
    QCOMPARE(compareV3Versions(b, a), -order);
}

void TestKitResolution::unsatisfiableConstraintIsRejectedAtParse_data()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<bool>("valid");
    QTest::newRow("range") << "node >= 20.0.0, < 21.0.0" << true;
    QTest::newRow("bare") << "node" << true;
    QTest::newRow("touching inclusive") << "node >= 20, <= 20" << true;
    QTest::newRow("pin inside") << "node = 20.1, >= 20" << true;
    QTest::newRow("inverted") << "node >= 21, < 20" << false;
    QTest::newRow("touching exclusive") << "node > 20, <= 20" << false;
    QTest::newRow("conflicting pins") << "node = 20, = 21" << false;
    QTest::newRow("pin outside") << "node = 19, >= 20" << false;
    QTest::newRow("no version") << "node >=" << false;
    QTest::newRow("v prefix") << "node >= v20" << false;
}

void TestKitResolution::unsatisfiableConstraintIsRejectedAtParse()
{
    QFETCH(QString, entry);
    QFETCH(bool, valid);
    const Result<V3Constraint> parsed = parseV3Constraint(entry);
    QVERIFY2(parsed.ok() == valid, qPrintable(parsed.errorText()));
    if (parsed)
        QCOMPARE(parsed->name, QStringLiteral("com.docker.kit/node"));
    else
        QVERIFY2(parsed.errorText().contains(entry.left(4)), qPrintable(parsed.errorText()));
}

void TestKitResolution::unversionedProvideSatisfiesOnlyABareRequire()
{
    const V3Provide unversioned = *parseV3Provide(QStringLiteral("gh"));
    QVERIFY(satisfies(unversioned, *parseV3Constraint(QStringLiteral("com.docker.kit/gh"))));
    QVERIFY(!satisfies(unversioned, *parseV3Constraint(QStringLiteral("gh >= 0"))));
    // A third party's name never matches the default namespace's.
    QVERIFY(!satisfies(*parseV3Provide(QStringLiteral("com.example/gh@2")), *parseV3Constraint(QStringLiteral("gh"))));
}

// SPEC-v3 §5.3/closed-set
void TestKitResolution::closedSet()
{
    const QList<Kit> met{workload(QStringLiteral("shell"), {QStringLiteral("node@20.11.1")}),
                         mixin(QStringLiteral("claude"), {QStringLiteral("claude@2.1.6")},
                               {QStringLiteral("node >= 20.0.0, < 21.0.0")})};
    QVERIFY2(resolveComposition(met).ok(), qPrintable(resolveComposition(met).errorText()));

    const QList<Kit> missing{workload(QStringLiteral("shell")),
                             mixin(QStringLiteral("claude"), {}, {QStringLiteral("node >= 20.0.0")})};
    const Result<QList<int>> refused = resolveComposition(missing);
    QVERIFY(!refused);
    QCOMPARE(refused.error().message, QStringLiteral("kit claude requires 'node >= 20.0.0', and no kit of the "
                                                     "composition provides com.docker.kit/node"));

    const QList<Kit> outOfRange{workload(QStringLiteral("shell"), {QStringLiteral("node@22.1.0")}),
                                mixin(QStringLiteral("claude"), {}, {QStringLiteral("node >= 20.0.0, < 21.0.0")})};
    QCOMPARE(resolveComposition(outOfRange).error().message,
             QStringLiteral("kit claude requires 'node >= 20.0.0, < 21.0.0', and kit shell provides 'node@22.1.0'"));
}

// SPEC-v3 §5.3/conflicts-fail
void TestKitResolution::conflictsFail()
{
    const QList<Kit> kits{
        workload(QStringLiteral("shell"), {QStringLiteral("docker-engine@25.0.3")}),
        mixin(QStringLiteral("podman"), {QStringLiteral("podman@4")}, {}, {}, {QStringLiteral("docker-engine")})};
    QCOMPARE(resolveComposition(kits).error().message,
             QStringLiteral("kit podman conflicts with com.docker.kit/docker-engine, which kit shell provides"));
    // Absent, the conflict is no failure.
    QVERIFY(resolveComposition({workload(QStringLiteral("shell")), kits.at(1)}).ok());
}

// SPEC-v3 §5.3/integrates-violation-fails
void TestKitResolution::integratesViolationFails()
{
    const Kit tool = mixin(QStringLiteral("compose"), {}, {}, {QStringLiteral("docker-engine >= 25.0.0")});
    // A present provider outside the range fails; one inside passes; an absent one is fine.
    QCOMPARE(resolveComposition({workload(QStringLiteral("old"), {QStringLiteral("docker-engine@24.0.7")}), tool})
                 .error()
                 .message,
             QStringLiteral("kit compose integrates 'docker-engine >= 25.0.0', and kit old provides "
                            "'docker-engine@24.0.7', outside that range"));
    QVERIFY(resolveComposition({workload(QStringLiteral("new"), {QStringLiteral("docker-engine@25.0.3")}), tool}).ok());
    QVERIFY(resolveComposition({workload(QStringLiteral("none")), tool}).ok());
}

// SPEC-v3 §5.3/dependency-order
void TestKitResolution::dependencyOrder()
{
    // Given requirers first, and the workload last: providers still come before their users.
    const QList<Kit> kits{
        mixin(QStringLiteral("claude"), {QStringLiteral("claude@2")}, {QStringLiteral("node >= 20")}),
        mixin(QStringLiteral("skills"), {}, {}, {QStringLiteral("claude >= 2")}),
        mixin(QStringLiteral("node"), {QStringLiteral("node@20.11.1")}),
        workload(QStringLiteral("shell")),
    };
    const Result<QList<int>> order = resolveComposition(kits);
    QVERIFY2(order.ok(), qPrintable(order.errorText()));
    QCOMPARE(namesInOrder(kits, *order), QStringList({QStringLiteral("shell"), QStringLiteral("node"),
                                                      QStringLiteral("claude"), QStringLiteral("skills")}));
}

// SPEC-v3 §5.3/one-workload
void TestKitResolution::oneWorkload()
{
    QCOMPARE(resolveComposition({mixin(QStringLiteral("gh"))}).error().message,
             QStringLiteral("the composition has no workload: one kit must be a workload, the others mixins"));
    QCOMPARE(
        resolveComposition({workload(QStringLiteral("shell")), workload(QStringLiteral("claude"))}).error().message,
        QStringLiteral("the composition has 2 workloads (shell, claude): exactly one is run, the others must "
                       "be mixins"));
}

// SPEC-v3 §5.3/one-provider-per-name
void TestKitResolution::oneProviderPerName()
{
    // The canonical mistake: the workload already carries the agent the mixin installs.
    const QList<Kit> kits{workload(QStringLiteral("claude"), {QStringLiteral("claude@2.1.6")}),
                          mixin(QStringLiteral("claude-mixin"), {QStringLiteral("com.docker.kit/claude@2.1.7")})};
    const Result<QList<int>> refused = resolveComposition(kits);
    QCOMPARE(refused.error().message, QStringLiteral("kits claude and claude-mixin both provide com.docker.kit/claude: "
                                                     "one name has one provider"));
    QCOMPARE(refused.error().fix, QStringLiteral("leave one of them out"));
}

void TestKitResolution::circleIsRefusedNamingTheKits()
{
    const QList<Kit> kits{workload(QStringLiteral("shell")),
                          mixin(QStringLiteral("a"), {QStringLiteral("a@1")}, {QStringLiteral("b")}),
                          mixin(QStringLiteral("b"), {QStringLiteral("b@1")}, {QStringLiteral("a")})};
    QCOMPARE(resolveComposition(kits).error().message,
             QStringLiteral("kits a, b require one another in a circle: no order composes them"));
}

QTEST_GUILESS_MAIN(TestKitResolution)
#include "tst_kit_resolution.moc"
