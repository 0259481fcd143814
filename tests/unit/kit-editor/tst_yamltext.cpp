// SPDX-License-Identifier: GPL-3.0-or-later
// Where YamlText says nodes end, checked against what yaml-cpp reads, on every real kit;
// and how scalars are written so they read back unchanged.
#include "EditorTestSupport.h"

#include "kit/YamlText.h"

#include <QRegularExpression>
#include <QTest>

using namespace paddock::kit;
using namespace paddock::kit::test;

namespace {

QString simplified(const QByteArray &text)
{
    return QString::fromUtf8(text).simplified();
}

struct ScannerCheck
{
    const YamlText &text;
    QString file;
    int scalars = 0;
    QStringList failures;

    void fail(const YAML::Node &node, const QString &why)
    {
        failures
            << QStringLiteral("%1:%2:%3: %4").arg(file).arg(node.Mark().line + 1).arg(node.Mark().column + 1).arg(why);
    }

    bool isFlow(const YAML::Node &node) const
    {
        const qsizetype start = text.contentStart(node);
        return start < text.bytes().size() && (text.bytes().at(start) == '[' || text.bytes().at(start) == '{');
    }

    void scalar(const YAML::Node &node, int parentIndent, bool inFlow, bool isKey)
    {
        ++scalars;
        const std::optional<TextRange> range = text.scalarRange(node, parentIndent, inFlow, isKey);
        if (!range) {
            fail(node, QStringLiteral("no range"));
            return;
        }
        const QByteArray raw = text.bytes().mid(range->begin, range->end - range->begin);
        const QString value = QString::fromStdString(node.Scalar());
        switch (text.scalarStyle(node)) {
        case ScalarStyle::Plain:
            if (simplified(raw) != value.simplified())
                fail(node, QStringLiteral("plain text [%1] is not [%2]").arg(QString::fromUtf8(raw), value));
            break;
        case ScalarStyle::DoubleQuoted:
            if (raw.size() < 2 || !raw.endsWith('"') ||
                (!raw.contains('\\') && !raw.contains('\n') && QString::fromUtf8(raw.mid(1, raw.size() - 2)) != value))
                fail(node, QStringLiteral("double-quoted text [%1] is not [%2]").arg(QString::fromUtf8(raw), value));
            break;
        case ScalarStyle::SingleQuoted:
            if (raw.size() < 2 || !raw.endsWith('\'') ||
                (!raw.contains('\n') &&
                 QString::fromUtf8(raw.mid(1, raw.size() - 2)).replace(QStringLiteral("''"), QStringLiteral("'")) !=
                     value))
                fail(node, QStringLiteral("single-quoted text [%1] is not [%2]").arg(QString::fromUtf8(raw), value));
            break;
        case ScalarStyle::Literal:
        case ScalarStyle::Folded: {
            // The range must stop exactly at the value's last line.
            const QStringList valueLines = value.trimmed().split(QLatin1Char('\n'));
            const QList<QByteArray> rawLines = raw.split('\n');
            const QString lastRaw = QString::fromUtf8(rawLines.last()).trimmed();
            if (!value.trimmed().isEmpty() && !valueLines.last().trimmed().endsWith(lastRaw))
                fail(node,
                     QStringLiteral("block scalar ends at [%1], value ends with [%2]").arg(lastRaw, valueLines.last()));
            break;
        }
        }
    }

    void visit(const YAML::Node &node, int parentIndent, bool inFlow)
    {
        const bool flow = inFlow || isFlow(node);
        if (node.IsMap()) {
            for (YAML::const_iterator it = node.begin(); it != node.end(); ++it) {
                const int keyColumn = text.columnOf(text.contentStart(it->first));
                scalar(it->first, keyColumn, flow, true);
                if (it->second.IsScalar())
                    scalar(it->second, keyColumn, flow, false);
                else
                    visit(it->second, keyColumn, flow);
                if (!flow && !it->second.IsNull()) {
                    const std::optional<qsizetype> end = text.entryEnd(it->first, it->second);
                    if (!end)
                        fail(it->first, QStringLiteral("no end for this entry"));
                }
            }
        } else if (node.IsSequence()) {
            const int dashColumn = text.columnOf(text.contentStart(node));
            for (const YAML::Node &item : node) {
                if (item.IsScalar())
                    scalar(item, flow ? parentIndent : dashColumn, flow, false);
                else
                    visit(item, flow ? parentIndent : dashColumn, flow);
            }
        }
    }
};

} // namespace

class TestYamlText : public QObject
{
    Q_OBJECT

private slots:
    void scalarExtentsMatchYamlCppOnEveryFixture()
    {
        const QStringList specs = fixtureSpecs(
            {QStringLiteral("published"), QStringLiteral("args"), QStringLiteral("draft-keys"), QStringLiteral("v1")});
        QVERIFY(specs.size() >= 77);
        int total = 0;
        for (const QString &spec : specs) {
            const YamlText text(readFile(spec));
            QVERIFY2(text.parsed(), qPrintable(spec + QStringLiteral(": ") + text.parseError()));
            ScannerCheck check{text, spec, 0, {}};
            check.visit(text.root(), -1, false);
            QVERIFY2(check.failures.isEmpty(), qPrintable(check.failures.join(QLatin1Char('\n'))));
            total += check.scalars;
        }
        QVERIFY2(total > 3000, qPrintable(QString::number(total)));
    }

    void endsOfTrickyScalars_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QByteArray>("valueText"); // the exact bytes the range must cover

        QTest::newRow("plain with comment") << QByteArray("k: a.example.com   # note\n") << QByteArray("a.example.com");
        QTest::newRow("plain with hash inside") << QByteArray("k: a#b\n") << QByteArray("a#b");
        QTest::newRow("plain on two lines") << QByteArray("k: one\n  two\nn: 1\n") << QByteArray("one\n  two");
        QTest::newRow("double with escaped quote") << QByteArray("k: \"a\\\"b\" # c\n") << QByteArray("\"a\\\"b\"");
        QTest::newRow("double across lines") << QByteArray("k: \"a\n  b\"\n") << QByteArray("\"a\n  b\"");
        QTest::newRow("single with doubled quote") << QByteArray("k: 'it''s' # c\n") << QByteArray("'it''s'");
        QTest::newRow("literal block") << QByteArray("k: |\n  a\n\n  # not a comment\nn: 1\n")
                                       << QByteArray("|\n  a\n\n  # not a comment");
        QTest::newRow("folded with indicator")
            << QByteArray("k: >2-\n   a\n  b\nn: 1\n") << QByteArray(">2-\n   a\n  b");
        QTest::newRow("tagged") << QByteArray("k: !!str 12\n") << QByteArray("12");
        QTest::newRow("anchored") << QByteArray("k: &x v # c\n") << QByteArray("v");
        QTest::newRow("crlf") << QByteArray("k: v\r\nn: 1\r\n") << QByteArray("v");
        QTest::newRow("no final newline") << QByteArray("k: v") << QByteArray("v");
        QTest::newRow("bom") << QByteArray("\xef\xbb\xbfk: v\n") << QByteArray("v");
        QTest::newRow("utf-8 before") << QByteArray("k\xc3\xa9: v\n") << QByteArray("v");
    }

    void endsOfTrickyScalars()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QByteArray, valueText);
        const YamlText text(yaml);
        QVERIFY2(text.parsed(), qPrintable(text.parseError()));
        const YAML::const_iterator first = text.root().begin();
        const std::optional<TextRange> range = text.scalarRange(first->second, 0, false);
        QVERIFY(range);
        QCOMPARE(yaml.mid(range->begin, range->end - range->begin), valueText);
    }

    void flowCollectionEnds()
    {
        const QByteArray yaml = "k: [a, \"b]\", 'c,]', {d: [e]}] # ]\nn: 1\n";
        const YamlText text(yaml);
        QVERIFY(text.parsed());
        const YAML::Node list = text.root()["k"];
        const std::optional<qsizetype> end = text.flowEnd(text.contentStart(list));
        QVERIFY(end);
        QCOMPARE(yaml.left(*end), QByteArray("k: [a, \"b]\", 'c,]', {d: [e]}]"));
        const std::optional<QList<TextRange>> items = text.flowItems(list);
        QVERIFY(items);
        QCOMPARE(items->size(), 4);
        QCOMPARE(yaml.mid(items->at(1).begin, items->at(1).end - items->at(1).begin), QByteArray("\"b]\""));
        QCOMPARE(yaml.mid(items->at(3).begin, items->at(3).end - items->at(3).begin), QByteArray("{d: [e]}"));
    }

    void tabIndentationIsReported()
    {
        const YamlText text("permissions:\n\tnetwork: {}\n");
        QVERIFY(!text.parsed());
        QVERIFY2(text.parseError().contains(QLatin1String("tab")), qPrintable(text.parseError()));
        QVERIFY2(text.parseError().startsWith(QLatin1String("2:")), qPrintable(text.parseError()));
    }

    void fileHabits()
    {
        const YamlText fourSpaces("a:\n    b:\n        - x\n");
        QCOMPARE(fourSpaces.indentUnit(), 4);
        QCOMPARE(fourSpaces.sequenceOffset(), 4);
        const YamlText indentless("a:\n  b:\n  - x\n");
        QCOMPARE(indentless.indentUnit(), 2);
        QCOMPARE(indentless.sequenceOffset(), 0);
        const YamlText crlf("a: 1\r\nb: 2");
        QCOMPARE(crlf.newline(), QByteArray("\r\n"));
        QVERIFY(!crlf.endsWithNewline());
        QCOMPARE(crlf.lineCount(), 2);
    }

    void whenQuotesAreNeeded_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("block");
        QTest::addColumn<bool>("flow");
        QTest::newRow("host") << QStringLiteral("github.com") << false << false;
        QTest::newRow("host and port") << QStringLiteral("github.com:443") << false << true;
        QTest::newRow("cidr") << QStringLiteral("10.0.0.0/8") << false << false;
        QTest::newRow("digit first") << QStringLiteral("1password.com") << false << false;
        QTest::newRow("ipv4") << QStringLiteral("192.168.1.1") << false << false;
        QTest::newRow("wildcard") << QStringLiteral("*.example.com") << true << true;
        QTest::newRow("deep wildcard") << QStringLiteral("**.example.com") << true << true;
        QTest::newRow("bare star") << QStringLiteral("*") << true << true;
        QTest::newRow("ipv6") << QStringLiteral("::1") << true << true;
        QTest::newRow("bool") << QStringLiteral("yes") << true << true;
        QTest::newRow("bool caps") << QStringLiteral("OFF") << true << true;
        QTest::newRow("null") << QStringLiteral("null") << true << true;
        QTest::newRow("int") << QStringLiteral("1") << true << true;
        QTest::newRow("float") << QStringLiteral("1.0") << true << true;
        QTest::newRow("version") << QStringLiteral("1.0.0") << false << false;
        QTest::newRow("octal") << QStringLiteral("0755") << true << true;
        QTest::newRow("date") << QStringLiteral("2024-01-31") << true << true;
        QTest::newRow("colon space") << QStringLiteral("a: b") << true << true;
        QTest::newRow("space hash") << QStringLiteral("a #b") << true << true;
        QTest::newRow("argument") << QStringLiteral("${{ kit.args.host }}") << false << true;
        QTest::newRow("comma") << QStringLiteral("a,b") << false << true;
        QTest::newRow("empty") << QString() << true << true;
    }

    void whenQuotesAreNeeded()
    {
        QFETCH(QString, value);
        QFETCH(bool, block);
        QFETCH(bool, flow);
        QCOMPARE(scalarNeedsQuotes(value, false), block);
        QCOMPARE(scalarNeedsQuotes(value, true), flow);
    }

    void renderedScalarsReadBack_data()
    {
        QTest::addColumn<QString>("value");
        const QStringList values = {QStringLiteral("github.com"),
                                    QStringLiteral("*.example.com"),
                                    QStringLiteral("yes"),
                                    QStringLiteral("1.0"),
                                    QString(),
                                    QStringLiteral(" lead"),
                                    QStringLiteral("trail "),
                                    QStringLiteral("a: b"),
                                    QStringLiteral("a #b"),
                                    QStringLiteral("it's"),
                                    QStringLiteral("say \"hi\""),
                                    QStringLiteral("back\\slash"),
                                    QStringLiteral("line\nbreak"),
                                    QStringLiteral("tab\there"),
                                    QStringLiteral("bell\x07"),
                                    QStringLiteral("${{ kit.args.host }}"),
                                    QStringLiteral("[x]"),
                                    QStringLiteral("{x}"),
                                    QStringLiteral("a,b"),
                                    QStringLiteral("-dash"),
                                    QStringLiteral("?q"),
                                    QStringLiteral("@at"),
                                    QStringLiteral("%pct"),
                                    QStringLiteral("!bang"),
                                    QStringLiteral("&amp"),
                                    QStringLiteral("|pipe"),
                                    QStringLiteral(">gt"),
                                    QStringLiteral("#hash"),
                                    QStringLiteral("caf\u00e9"),
                                    QStringLiteral("\U0001F600 smile"),
                                    QStringLiteral("a:b:c")};
        for (const QString &value : values)
            QTest::newRow(qPrintable(value.toUtf8().toPercentEncoding())) << value;
    }

    void renderedScalarsReadBack()
    {
        QFETCH(QString, value);
        for (const ScalarStyle style : {ScalarStyle::Plain, ScalarStyle::SingleQuoted, ScalarStyle::DoubleQuoted}) {
            for (const bool inFlow : {false, true}) {
                const QByteArray rendered = renderInlineScalar(value, style, inFlow);
                const QByteArray doc = inFlow ? "k: [" + rendered + "]\n" : "k: " + rendered + "\n";
                YAML::Node root;
                try {
                    root = YAML::Load(doc.toStdString());
                } catch (const YAML::Exception &e) {
                    QFAIL(qPrintable(QStringLiteral("%1 does not parse: %2")
                                         .arg(QString::fromUtf8(doc), QString::fromStdString(e.what()))));
                }
                const YAML::Node node = inFlow ? root["k"][0] : root["k"];
                QVERIFY2(node.IsScalar(), doc.constData());
                QCOMPARE(QString::fromStdString(node.Scalar()), value);
                // Written plain only when plain keeps it a string.
                if (!rendered.startsWith('"') && !rendered.startsWith('\''))
                    QVERIFY2(!scalarNeedsQuotes(value, inFlow), doc.constData());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestYamlText)
#include "tst_yamltext.moc"
