// SPDX-License-Identifier: GPL-3.0-or-later
// The kit editor on an authored schemaVersion "3" descriptor (STEM/STEM.yaml): network-policy@1's
// runtime lists edited in place, entries checked with the decoder's rule, strict saves.
#include "EditorTestSupport.h"

#include "kit/KitEditor.h"
#include "kit/KitV3Authored.h"
#include "kit/KitV3Descriptor.h"

#include <QTemporaryDir>
#include <QTest>

using namespace paddock::kit;
using namespace paddock::kit::test;

namespace {

const QByteArray kDescriptor = "# syntax=docker/sandbox-kit:3\n"
                               "schemaVersion: \"3\"\n"
                               "kind: workload\n"
                               "displayName: Demo agent   # as listed\n"
                               "description: A shell that reaches GitHub\n"
                               "capabilities:\n"
                               "  - type: com.docker.sandbox/lifecycle@1\n"
                               "    config:\n"
                               "      startup:\n"
                               "        - command: [\"true\"]\n";

QString writeKit(const QTemporaryDir &root, const QByteArray &descriptor = kDescriptor)
{
    const QString dir = root.filePath(QStringLiteral("demo"));
    QDir().mkpath(dir);
    QFile file(dir + QStringLiteral("/demo.yaml"));
    if (!file.open(QIODevice::WriteOnly) || file.write(descriptor) != descriptor.size())
        return {};
    file.close();
    QFile recipe(dir + QStringLiteral("/demo.dockerfile"));
    if (!recipe.open(QIODevice::WriteOnly) || recipe.write("FROM scratch\n") < 0)
        return {};
    return dir;
}

} // namespace

class TestKitEditorV3 : public QObject
{
    Q_OBJECT

private slots:
    void editsTheRuntimeListsOfAnAuthoredKit()
    {
        QTemporaryDir root;
        const QString dir = writeKit(root);
        QVERIFY(!dir.isEmpty());
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        QCOMPARE(editor->filePath(), dir + QStringLiteral("/demo.yaml"));
        QVERIFY(editor->isV3Descriptor());
        QVERIFY(editor->networkPatterns(NetworkList::Allow).isEmpty());

        const KitEditResult added = editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("github.com"));
        QVERIFY2(added.changed(), qPrintable(added.message));
        QVERIFY(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("api.github.com:443")).changed());
        QVERIFY(editor->addNetworkPattern(NetworkList::Deny, QStringLiteral("*.ads.example.com")).changed());
        QCOMPARE(editor->addNetworkPattern(NetworkList::Allow, QStringLiteral("GitHub.com")).status,
                 KitEditResult::Status::Unchanged);
        QCOMPARE(editor->networkPatterns(NetworkList::Allow), QStringList({"github.com", "api.github.com:443"}));
        QVERIFY2(editor->save(&error), qPrintable(error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), kDescriptor +
                                                                   "  - type: com.docker.sandbox/network-policy@1\n"
                                                                   "    config:\n"
                                                                   "      runtime:\n"
                                                                   "        allow:\n"
                                                                   "          - github.com\n"
                                                                   "          - api.github.com:443\n"
                                                                   "        deny:\n"
                                                                   "          - \"*.ads.example.com\"\n");
        // What `paddock kit build` reads: the descriptor decodes, the kit is ready to build.
        const AuthoredKitResult built = readAuthoredKit(dir);
        QVERIFY2(built.kit, qPrintable(built.diagnostics.isEmpty() ? QString() : built.diagnostics.first().toString()));

        // Removing both allowed hosts again leaves the request with its deny list only.
        QVERIFY(editor->removeNetworkPattern(NetworkList::Allow, QStringLiteral("github.com")).changed());
        QVERIFY(editor->removeNetworkPattern(NetworkList::Allow, QStringLiteral("api.github.com:443")).changed());
        QVERIFY(editor->text().endsWith("      runtime:\n        deny:\n          - \"*.ads.example.com\"\n"));
        // The last pattern takes the request with it: the file as it was.
        QVERIFY(editor->removeNetworkPattern(NetworkList::Deny, QStringLiteral("*.ads.example.com")).changed());
        QCOMPARE(editor->text(), kDescriptor);
    }

    void refusesWhatTheDecoderRefuses_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::newRow("a space") << "git hub.com";
        QTest::newRow("a port out of range") << "api.example.com:99999";
        QTest::newRow("a scheme") << "https://github.com";
        QTest::newRow("a wildcard inside") << "bedrock.*.amazonaws.com";
    }

    void refusesWhatTheDecoderRefuses()
    {
        QFETCH(QString, pattern);
        QTemporaryDir root;
        const QString dir = writeKit(root);
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        const KitEditResult result = editor->addNetworkPattern(NetworkList::Allow, pattern);
        QVERIFY(result.failed());
        QVERIFY2(result.message.contains(QStringLiteral("is not a host pattern")), qPrintable(result.message));
        QVERIFY(!editor->isModified());
        QVERIFY(editor->save(&error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), kDescriptor);

        // The decoder says the same of that entry in a file, at its line and column.
        QByteArray text = kDescriptor;
        text += "  - type: com.docker.sandbox/network-policy@1\n"
                "    config:\n"
                "      runtime:\n"
                "        allow: [\"" +
                pattern.toUtf8() + "\"]\n";
        const V3DecodeResult decoded = decodeV3Descriptor(text, QStringLiteral("demo.yaml"));
        QVERIFY(!decoded.descriptor);
        QCOMPARE(decoded.diagnostics.size(), 1);
        QCOMPARE(decoded.diagnostics.first().line, 14);
        QCOMPARE(decoded.diagnostics.first().column, 17);
        QVERIFY(decoded.diagnostics.first().message.contains(QStringLiteral("runtime.allow[0]")));
    }

    void acceptsTheSpecificationsPatterns_data()
    {
        QTest::addColumn<QString>("entry");
        for (const char *entry : {"api.example.com", "api.example.com:443", "*.example.com", "*", "**", "10.0.0.0/8",
                                  "${{ kit.args.registry }}"})
            QTest::newRow(entry) << QString::fromLatin1(entry);
    }

    void acceptsTheSpecificationsPatterns()
    {
        QFETCH(QString, entry);
        const std::optional<QString> problem = v3NetworkEntryProblem(entry);
        QVERIFY2(!problem, qPrintable(problem.value_or(QString())));
    }

    void aSaveThatWouldNotDecodeLeavesTheFile()
    {
        QTemporaryDir root;
        const QString dir = writeKit(root);
        QString error;
        std::optional<KitEditor> editor = KitEditor::open(dir, &error);
        QVERIFY2(editor, qPrintable(error));
        QVERIFY(editor->setScalar(QStringLiteral("kind"), QStringLiteral("sandbox")).changed());
        QVERIFY(!editor->save(&error));
        QVERIFY2(error.contains(QStringLiteral("demo.yaml:3:7: error:")), qPrintable(error));
        QCOMPARE(readFile(dir + QStringLiteral("/demo.yaml")), kDescriptor);
    }
};

QTEST_GUILESS_MAIN(TestKitEditorV3)
#include "tst_kiteditor_v3.moc"
