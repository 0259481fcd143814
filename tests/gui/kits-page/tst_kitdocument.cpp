// SPDX-License-Identifier: GPL-3.0-or-later
// The kit editor's text model: each edit changes only its own lines, inside lists too,
// and every diagnostic lands on the field it is about.
#include "KitDocument.h"

#include "kit/KitLoader.h"

#include <QTemporaryDir>
#include <QTest>

using paddock::gui::KitDocument;
using paddock::gui::KitTextChange;

namespace {

const QByteArray kKit = R"(schemaVersion: "2"
kind: sandbox
name: demo   # the short name
sandbox:
  image: alpine
  entrypoint: [sh]
permissions:
  network:
    allow:
      - api.example.com
credentials:
  # the provider key
  - service: example
    apiKey:
      name: EXAMPLE_KEY
      inject:
        - domain: api.example.com
          header: Authorization
          format: "Bearer %s"
agentInstructions:
  filename: AGENTS.md
  content: |
    Be brief.
    Run the tests.
ports:
  - container: 8080
)";

/** The lines of @p after that are not in @p before, and the other way round. */
QPair<QStringList, QStringList> lineDiff(const KitDocument &doc)
{
    QStringList added;
    QStringList removed;
    for (const KitTextChange &change : doc.changes())
        (change.kind == KitTextChange::Kind::Added ? added : removed) << change.text;
    return {removed, added};
}

} // namespace

class TestKitDocument : public QObject
{
    Q_OBJECT

private slots:
    void readsFieldsInsideLists();
    void setScalarInsideListItemReplacesOnlyValue();
    void setScalarAddsMissingKeyToItem();
    void setPlainWritesBooleanAndNumber();
    void multiLineValueBecomesLiteralBlock();
    void appendItemToNestedList();
    void appendMappingItemCreatesList();
    void removeItemRemovesItsLines();
    void removeEntryInsideItem();
    void flowListRefusesMapItem();
    void diagnosticsMapToFields();
    void saveRefusesInvalidAndChangedOnDisk();
};

void TestKitDocument::readsFieldsInsideLists()
{
    const KitDocument doc(kKit, {});
    QCOMPARE(doc.scalar(QStringLiteral("credentials.0.apiKey.inject.0.domain")), QStringLiteral("api.example.com"));
    QCOMPARE(doc.count(QStringLiteral("credentials")), 1);
    QCOMPARE(doc.strings(QStringLiteral("sandbox.entrypoint")), QStringList{QStringLiteral("sh")});
    QCOMPARE(doc.keys(QStringLiteral("agentInstructions")),
             (QStringList{QStringLiteral("filename"), QStringLiteral("content")}));
    QCOMPARE(doc.errorCount(), 0);
    QVERIFY(!doc.isModified());
}

void TestKitDocument::setScalarInsideListItemReplacesOnlyValue()
{
    KitDocument doc(kKit, {});
    QString error;
    QVERIFY2(doc.setScalar(QStringLiteral("credentials.0.apiKey.inject.0.format"), QStringLiteral("Token %s"), &error),
             qPrintable(error));
    // Its double quotes are kept; nothing else moves.
    QCOMPARE(lineDiff(doc), qMakePair(QStringList{QStringLiteral("          format: \"Bearer %s\"")},
                                      QStringList{QStringLiteral("          format: \"Token %s\"")}));
    QVERIFY(doc.setScalar(QStringLiteral("name"), QStringLiteral("demo-2")));
    QVERIFY(doc.text().contains("name: demo-2   # the short name\n"));
}

void TestKitDocument::setScalarAddsMissingKeyToItem()
{
    KitDocument doc(kKit, {});
    QString error;
    QVERIFY2(doc.setScalar(QStringLiteral("credentials.0.description"), QStringLiteral("The example API"), &error),
             qPrintable(error));
    QCOMPARE(lineDiff(doc).second, QStringList{QStringLiteral("    description: The example API")});
    QVERIFY(lineDiff(doc).first.isEmpty());
    QCOMPARE(doc.scalar(QStringLiteral("credentials.0.description")), QStringLiteral("The example API"));
    QCOMPARE(doc.errorCount(), 0);
    // An item that does not exist cannot be written into.
    QVERIFY(!doc.setScalar(QStringLiteral("credentials.3.service"), QStringLiteral("x"), &error));
}

void TestKitDocument::setPlainWritesBooleanAndNumber()
{
    KitDocument doc(kKit, {});
    QVERIFY(doc.setPlain(QStringLiteral("credentials.0.apiKey.proxyManaged"), QStringLiteral("true")));
    QVERIFY(doc.text().contains("      proxyManaged: true\n"));
    QVERIFY(doc.setPlain(QStringLiteral("ports.0.container"), QStringLiteral("9090")));
    QVERIFY(doc.text().contains("  - container: 9090\n"));
    QVERIFY(doc.setPlain(QStringLiteral("security.privileged"), QStringLiteral("false")));
    QVERIFY2(doc.text().endsWith("security:\n  privileged: false\n"), doc.text().constData());
    QVERIFY(!doc.setPlain(QStringLiteral("ports.0.container"), QStringLiteral("90 90")));
    QCOMPARE(doc.errorCount(), 0);
}

void TestKitDocument::multiLineValueBecomesLiteralBlock()
{
    KitDocument doc(kKit, {});
    QVERIFY(doc.setScalar(QStringLiteral("agentInstructions.content"),
                          QStringLiteral("Be brief.\nRun the tests.\nAsk first.\n")));
    QVERIFY2(doc.text().contains("  content: |\n    Be brief.\n    Run the tests.\n    Ask first.\nports:"),
             doc.text().constData());
    QCOMPARE(lineDiff(doc).second, QStringList{QStringLiteral("    Ask first.")});
    QCOMPARE(doc.scalar(QStringLiteral("agentInstructions.content")),
             QStringLiteral("Be brief.\nRun the tests.\nAsk first.\n"));
}

void TestKitDocument::appendItemToNestedList()
{
    KitDocument doc(kKit, {});
    QString error;
    const QVariantMap rule{{QStringLiteral("domain"), QStringLiteral("api.example.com")},
                           {QStringLiteral("header"), QStringLiteral("X-Key")},
                           {QStringLiteral("format"), QStringLiteral("%s")}};
    QVERIFY2(doc.appendItem(QStringLiteral("credentials.0.apiKey.inject"), rule, &error,
                            {QStringLiteral("domain"), QStringLiteral("header"), QStringLiteral("format")}),
             qPrintable(error));
    const QStringList added = lineDiff(doc).second;
    QCOMPARE(added.size(), 3);
    QCOMPARE(added.at(0), QStringLiteral("        - domain: api.example.com"));
    QCOMPARE(added.at(1), QStringLiteral("          header: X-Key"));
    QVERIFY2(added.at(2) == QStringLiteral("          format: \"%s\""), qPrintable(added.at(2)));
    QVERIFY(lineDiff(doc).first.isEmpty());
    QCOMPARE(doc.count(QStringLiteral("credentials.0.apiKey.inject")), 2);
    QCOMPARE(doc.scalar(QStringLiteral("credentials.0.apiKey.inject.1.format")), QStringLiteral("%s"));
    QCOMPARE(doc.errorCount(), 0);
}

void TestKitDocument::appendMappingItemCreatesList()
{
    KitDocument doc(kKit, {});
    QString error;
    QVERIFY2(doc.appendItem(QStringLiteral("volumes"), QVariantMap{{QStringLiteral("path"), QStringLiteral("/cache")}},
                            &error),
             qPrintable(error));
    QVERIFY2(doc.text().endsWith("volumes:\n  - path: /cache\n"), doc.text().constData());
    QVERIFY(doc.appendItem(
        QStringLiteral("setup.startup"),
        QVariantMap{{QStringLiteral("command"), QVariantList{QStringLiteral("sh"), QStringLiteral("-c")}}}, &error));
    QCOMPARE(doc.strings(QStringLiteral("setup.startup.0.command")),
             (QStringList{QStringLiteral("sh"), QStringLiteral("-c")}));
    // A list created inside an item.
    QVERIFY2(doc.appendItem(QStringLiteral("credentials.0.apiKey.dummy"), QStringLiteral("x"), &error),
             qPrintable(error));
    QCOMPARE(doc.strings(QStringLiteral("credentials.0.apiKey.dummy")), QStringList{QStringLiteral("x")});
    QVERIFY(doc.text().contains("      dummy:\n        - x\n"));
}

void TestKitDocument::removeItemRemovesItsLines()
{
    KitDocument doc(kKit, {});
    const QVariantMap rule{{QStringLiteral("domain"), QStringLiteral("api.example.com")}};
    QVERIFY(doc.appendItem(QStringLiteral("credentials.0.apiKey.inject"), rule));
    QVERIFY(doc.removeItem(QStringLiteral("credentials.0.apiKey.inject"), 1));
    QCOMPARE(doc.text(), kKit);
    // The last item takes its key with it.
    QString error;
    QVERIFY2(doc.removeItem(QStringLiteral("credentials.0.apiKey.inject"), 0, &error), qPrintable(error));
    QVERIFY(!doc.text().contains("inject"));
    QVERIFY(doc.text().contains("      name: EXAMPLE_KEY\nagentInstructions:"));
    // A whole credential, comment above it included in what stays.
    QVERIFY(doc.removeItem(QStringLiteral("credentials"), 0, &error));
    QVERIFY(!doc.text().contains("service: example"));
}

void TestKitDocument::removeEntryInsideItem()
{
    KitDocument doc(kKit, {});
    QVERIFY(doc.setScalar(QStringLiteral("credentials.0.description"), QStringLiteral("x")));
    QString error;
    QVERIFY2(doc.removeEntry(QStringLiteral("credentials.0.description"), &error), qPrintable(error));
    QCOMPARE(doc.text(), kKit);
    // The key on the dash line cannot lose its line alone.
    QVERIFY(!doc.removeEntry(QStringLiteral("credentials.0.service"), &error));
    QCOMPARE(doc.text(), kKit);
}

void TestKitDocument::flowListRefusesMapItem()
{
    KitDocument doc(kKit, {});
    QString error;
    QVERIFY(doc.appendItem(QStringLiteral("sandbox.entrypoint"), QStringLiteral("-l"), &error));
    QCOMPARE(doc.strings(QStringLiteral("sandbox.entrypoint")),
             (QStringList{QStringLiteral("sh"), QStringLiteral("-l")}));
    QVERIFY(!doc.appendItem(QStringLiteral("sandbox.entrypoint"), QVariantMap{{QStringLiteral("a"), 1}}, &error));
    QVERIFY2(error.contains(QStringLiteral("flow")), qPrintable(error));
}

void TestKitDocument::diagnosticsMapToFields()
{
    KitDocument doc(kKit, {});
    QVERIFY(doc.setScalar(QStringLiteral("name"), QStringLiteral("Demo Kit")));
    QVERIFY(doc.setScalar(QStringLiteral("credentials.0.apiKey.inject.0.domain"), QStringLiteral("other.example.com")));
    QVERIFY(!doc.messagesFor(QStringLiteral("name")).isEmpty());
    QCOMPARE(doc.messagesFor(QStringLiteral("credentials.0.apiKey.inject.0.domain")).size(), 1);
    QVERIFY(doc.messagesFor(QStringLiteral("credentials.0.apiKey.inject.0.format")).isEmpty());
    QVERIFY(doc.messagesFor(QStringLiteral("sandbox")).isEmpty());
    QCOMPARE(doc.errorCount(), 1);
    QCOMPARE(doc.warningCount(), 1);
    // Through the text view too, on any line.
    doc.setText(QByteArray(kKit).replace("image: alpine", "image: alpine\n  imag: typo"));
    QCOMPARE(doc.errorCount(), 1);
    QCOMPARE(doc.diagnostics().constFirst().diagnostic.line, 6);
    QCOMPARE(doc.diagnostics().constFirst().path, QStringLiteral("sandbox.imag"));
    QVERIFY(!doc.messagesFor(QStringLiteral("sandbox")).isEmpty());
}

void TestKitDocument::saveRefusesInvalidAndChangedOnDisk()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("spec.yaml"));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kKit);
    }
    KitDocument doc(kKit, path);
    QVERIFY(doc.setScalar(QStringLiteral("name"), QStringLiteral("Bad Name")));
    QString error;
    QVERIFY(!doc.save(&error));
    QVERIFY2(error.contains(QStringLiteral("line 3")), qPrintable(error));
    QVERIFY(doc.setScalar(QStringLiteral("name"), QStringLiteral("good")));
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write("# someone else\n");
    }
    QVERIFY(!doc.save(&error));
    QVERIFY2(error.contains(QStringLiteral("changed on disk")), qPrintable(error));

    KitDocument fresh(QByteArray(kKit) + "# someone else\n", path);
    QVERIFY(fresh.setScalar(QStringLiteral("name"), QStringLiteral("good")));
    QVERIFY2(fresh.save(&error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray(kKit).replace("name: demo ", "name: good ") + "# someone else\n");
    QVERIFY(!fresh.isModified());
    QVERIFY(paddock::kit::KitLoader::loadText(fresh.text(), path).ok());
}

QTEST_GUILESS_MAIN(TestKitDocument)
#include "tst_kitdocument.moc"
