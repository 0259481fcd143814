// SPDX-License-Identifier: GPL-3.0-or-later
// Every real kit survives an edit and its undo: one line added (or the minimal missing
// block), the new entry readable by yaml-cpp, and the original bytes back after removal.
#include "EditorTestSupport.h"

#include "kit/KitEditor.h"
#include "kit/KitLoader.h"

#include <QRegularExpression>
#include <QTest>

using namespace paddock::kit;
using namespace paddock::kit::test;

namespace {

bool hasPath(const QByteArray &text, const QStringList &path)
{
    YAML::Node node = YAML::Load(text.toStdString());
    for (const QString &key : path) {
        if (!node.IsMap() || !node[key.toStdString()])
            return false;
        YAML::Node next = node[key.toStdString()];
        node.reset(next);
    }
    return true;
}

// How a new item should be written among @p siblings of @p original: a pattern that
// needs quotes takes the siblings' kind of quote (double by default); one that does not
// is quoted only when every sibling that needs no quotes is quoted.
QByteArray expectedForm(const QByteArray &original, const QStringList &siblings, const QString &pattern)
{
    int optional = 0;
    int doubled = 0;
    int single = 0;
    bool anySingle = false;
    bool anyDouble = false;
    for (const QString &sibling : siblings) {
        const bool d = original.contains("- \"" + sibling.toUtf8() + '"');
        const bool s = original.contains("- '" + sibling.toUtf8() + '\'');
        anySingle = anySingle || s;
        anyDouble = anyDouble || d;
        if (sibling.startsWith(QLatin1Char('*')))
            continue;
        ++optional;
        doubled += d ? 1 : 0;
        single += s ? 1 : 0;
    }
    const QByteArray p = pattern.toUtf8();
    if (pattern.startsWith(QLatin1Char('*')))
        return anySingle && !anyDouble ? '\'' + p + '\'' : '"' + p + '"';
    if (optional > 0 && doubled == optional)
        return '"' + p + '"';
    if (optional > 0 && single == optional)
        return '\'' + p + '\'';
    return p;
}

QStringList editableSpecs()
{
    return fixtureSpecs({QStringLiteral("published"), QStringLiteral("args")});
}

} // namespace

class TestKitEditorFixtures : public QObject
{
    Q_OBJECT

private:
    void addAndRemove(NetworkList list, const QString &pattern)
    {
        QFETCH(QString, spec);
        const QByteArray original = readFile(spec);
        QVERIFY(!original.isEmpty());
        const QString name = list == NetworkList::Allow ? QStringLiteral("allow") : QStringLiteral("deny");
        const QStringList path = {QStringLiteral("permissions"), QStringLiteral("network"), name};
        const QStringList before = yamlList(original, path);
        const QByteArray writtenAs = expectedForm(original, before, pattern);

        KitEditor editor = KitEditor::fromText(original, spec);
        const KitEditResult added = editor.addNetworkPattern(list, pattern);
        QVERIFY2(added.changed(), qPrintable(added.message));

        const std::optional<QList<QByteArray>> lines = addedLines(original, editor.text());
        QVERIFY2(lines, "lines of the original changed");
        if (hasPath(original, path)) {
            QCOMPARE(lines->size(), 1);
            static const QRegularExpression item(QStringLiteral("^ *- +(.*)$"));
            const QRegularExpressionMatch match = item.match(QString::fromUtf8(lines->first()));
            QVERIFY2(match.hasMatch(), lines->first().constData());
            QCOMPARE(match.captured(1).toUtf8(), writtenAs);
        } else if (hasPath(original, path.mid(0, 2))) {
            QCOMPARE(*lines, (QList<QByteArray>{"    " + name.toUtf8() + ':', "      - " + writtenAs}));
        } else if (hasPath(original, path.mid(0, 1))) {
            QCOMPARE(lines->size(), 3);
        } else {
            QCOMPARE(*lines, (QList<QByteArray>{"permissions:", "  network:", "    " + name.toUtf8() + ':',
                                                "      - " + writtenAs}));
        }
        QCOMPARE(yamlList(editor.text(), path), before + QStringList{pattern});

        // A kit the loader accepts stays acceptable after the edit.
        const KitLoadResult originalLoad = KitLoader::loadText(original, spec);
        if (originalLoad.ok()) {
            const KitLoadResult edited = KitLoader::loadText(editor.text(), spec);
            QVERIFY2(edited.ok(), edited.diagnostics.isEmpty() ? "no diagnostics"
                                                               : qPrintable(edited.diagnostics.first().toString()));
        }

        const KitEditResult removed = editor.removeNetworkPattern(list, pattern);
        QVERIFY2(removed.changed(), qPrintable(removed.message));
        QCOMPARE(editor.text(), original);
    }

private slots:
    void addThenRemoveAllowed_data()
    {
        QTest::addColumn<QString>("spec");
        const QStringList specs = editableSpecs();
        QCOMPARE(specs.size(), 64);
        for (const QString &spec : specs)
            QTest::newRow(qPrintable(spec.section(QLatin1Char('/'), -2, -2))) << spec;
    }

    void addThenRemoveAllowed() { addAndRemove(NetworkList::Allow, QStringLiteral("paddock-check.example.org")); }

    void addThenRemoveDeniedWildcard_data() { addThenRemoveAllowed_data(); }

    void addThenRemoveDeniedWildcard() { addAndRemove(NetworkList::Deny, QStringLiteral("*.tracker.example.org")); }

    void environmentVariableRoundTrip_data() { addThenRemoveAllowed_data(); }

    void environmentVariableRoundTrip()
    {
        QFETCH(QString, spec);
        const QByteArray original = readFile(spec);
        KitEditor editor = KitEditor::fromText(original, spec);
        const QStringList path = {QStringLiteral("environment"), QStringLiteral("variables"),
                                  QStringLiteral("PADDOCK_CHECK")};
        QVERIFY(editor.setEnvironmentVariable(QStringLiteral("PADDOCK_CHECK"), QStringLiteral("on")).changed());
        QCOMPARE(yamlScalar(editor.text(), path), std::optional<QString>(QStringLiteral("on")));
        const std::optional<QList<QByteArray>> lines = addedLines(original, editor.text());
        QVERIFY(lines);
        QVERIFY(lines->size() == 1 || lines->size() == 3);
        QVERIFY(editor.removeEnvironmentVariable(QStringLiteral("PADDOCK_CHECK")).changed());
        QCOMPARE(editor.text(), original);

        // Changing an existing variable touches one line, and changing it back restores it.
        YAML::Node variables = YAML::Load(original.toStdString())["environment"]["variables"];
        if (!variables.IsMap() || variables.size() == 0)
            return;
        const QString name = QString::fromStdString(variables.begin()->first.Scalar());
        const QString value = QString::fromStdString(variables.begin()->second.Scalar());
        QVERIFY(editor.setEnvironmentVariable(name, QStringLiteral("changed value")).changed());
        QCOMPARE(changedLineCount(original, editor.text()), 1);
        QVERIFY(editor.setEnvironmentVariable(name, value).changed());
        QCOMPARE(editor.text(), original);
    }
};

QTEST_GUILESS_MAIN(TestKitEditorFixtures)
#include "tst_kiteditor_fixtures.moc"
