// SPDX-License-Identifier: GPL-3.0-or-later
// The secret guard's prefilter, which lets the automaton skip ordinary text: every form of every
// value is still found at every offset and across every split of the stream, found exactly where a
// plain search finds it in text made of near misses, and redacted the same.

#include "proxy/SecretGuard.h"

#include <QtTest>

#include <numeric>
#include <random>

using namespace paddock::proxy;

namespace {

// Values of the shortest length looked for, of a middle one and of one past MaxValueBytes, so the
// prefilter's stride is as short as it gets and its grams come from forms of every length.
std::vector<guard::Value> testValues()
{
    std::string longValue;
    for (int i = 0; longValue.size() < 300; ++i)
        longValue += "L0ng/" + std::to_string(i * 7919) + "=";
    return {{"k8shrt!/", QStringLiteral(".env"), QStringLiteral("SHORT")},
            {"sk-proj-7Qx+f00\"bar baz", QStringLiteral(".env"), QStringLiteral("MIDDLE")},
            {longValue, QStringLiteral("keychain"), QStringLiteral("LONG")}};
}

std::shared_ptr<const guard::Patterns> testPatterns()
{
    std::vector<guard::Value> values = testValues();
    return guard::Patterns::build(values);
}

// Every form of every value, with the index of its value, as the automaton holds them.
std::vector<std::pair<std::string, std::uint16_t>> allForms()
{
    std::vector<std::pair<std::string, std::uint16_t>> forms;
    const std::vector<guard::Value> values = testValues();
    for (std::size_t v = 0; v < values.size(); ++v) {
        const std::string_view bytes = std::string_view(values[v].bytes).substr(0, guard::MaxValueBytes);
        for (std::string &form : guard::formsOf(bytes))
            forms.emplace_back(std::move(form), std::uint16_t(v));
    }
    return forms;
}

// Text whose 4-byte grams are not those of the forms (digits and spaces, which no test form
// starts with), so the prefilter skips all of it.
std::string filler(std::size_t size)
{
    std::string text;
    for (std::size_t i = 0; i < size; ++i)
        text += i % 5 == 4 ? ' ' : char('0' + (i * 7) % 10);
    return text;
}

const guard::Value *scanInPieces(guard::Scanner &scanner, std::string_view text, const std::vector<std::size_t> &cuts)
{
    std::size_t at = 0;
    for (const std::size_t cut : cuts) {
        if (scanner.scan(text.substr(at, cut - at)))
            return scanner.found();
        at = cut;
    }
    scanner.scan(text.substr(at));
    return scanner.found();
}

// Where the naive search finds a form first ends, or npos.
std::size_t firstEnd(const std::string &text, const std::vector<std::pair<std::string, std::uint16_t>> &forms)
{
    std::size_t first = std::string::npos;
    for (const auto &[form, value] : forms) {
        const std::size_t at = text.find(form);
        if (at != std::string::npos)
            first = std::min(first, at + form.size());
    }
    return first;
}

} // namespace

class TestGuardPrefilter : public QObject
{
    Q_OBJECT

private slots:
    void everyFormAtEveryOffsetAcrossEverySplit()
    {
        const auto patterns = testPatterns();
        QCOMPARE(patterns->values().size(), std::size_t(3));
        QVERIFY(patterns->stride() >= 1);
        for (const auto &[form, value] : allForms()) {
            // Offsets through two strides and more, so the form starts on and between samples.
            for (std::size_t offset = 0; offset < 3 * patterns->stride() + 5; ++offset) {
                const std::string text = filler(offset) + form + filler(23);
                for (std::size_t cut = 0; cut <= text.size(); ++cut) {
                    guard::Scanner scanner(patterns);
                    const guard::Value *found = scanInPieces(scanner, text, {cut});
                    QVERIFY2(found, qPrintable(QStringLiteral("form of %1 at %2, split at %3")
                                                   .arg(scanner.valueAt(value).name)
                                                   .arg(offset)
                                                   .arg(cut)));
                    QCOMPARE(found->name, scanner.valueAt(value).name);
                }
                guard::Scanner byteByByte(patterns);
                std::vector<std::size_t> everyByte(text.size());
                std::iota(everyByte.begin(), everyByte.end(), std::size_t(0));
                QVERIFY(scanInPieces(byteByByte, text, everyByte));
            }
        }
    }

    void aFormCutShortOrAlteredIsNotFound()
    {
        const auto patterns = testPatterns();
        for (const auto &[form, value] : allForms()) {
            std::string altered = form;
            altered[altered.size() / 2] = '\x01';
            for (const std::string &near : {form.substr(0, form.size() - 1), form.substr(1), altered}) {
                const std::string text = filler(11) + near + filler(11) + near;
                for (std::size_t cut = 0; cut <= text.size(); cut += 3) {
                    guard::Scanner scanner(patterns);
                    // Only when the near miss holds another whole form is something found.
                    QCOMPARE(scanInPieces(scanner, text, {cut}) != nullptr,
                             firstEnd(text, allForms()) != std::string::npos);
                }
            }
        }
    }

    void findsWhatAPlainSearchFindsInNearMisses()
    {
        // Text made of prefixes, middles and whole forms, often planted where the prefilter's
        // samples fall, against std::string::find over every form; split at random places.
        const auto patterns = testPatterns();
        const auto forms = allForms();
        std::mt19937 random(20261206);
        int withValue = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string text;
            while (text.size() < 400) {
                const auto &[form, value] = forms[random() % forms.size()];
                switch (random() % 4) {
                case 0:
                    text += form.substr(0, 1 + random() % (form.size() - 1));
                    break;
                case 1:
                    text += form.substr(1 + random() % (form.size() - 1), 6);
                    break;
                case 2:
                    text += filler(random() % 9);
                    break;
                default:
                    if (random() % 20 == 0)
                        text += form;
                    else
                        text += form.substr(0, form.size() - 1 - random() % 3);
                }
            }
            std::vector<std::size_t> cuts;
            for (std::size_t at = random() % 40; at < text.size(); at += 1 + random() % 60)
                cuts.push_back(at);
            guard::Scanner scanner(patterns);
            const bool expected = firstEnd(text, forms) != std::string::npos;
            withValue += expected;
            QCOMPARE(scanInPieces(scanner, text, cuts) != nullptr, expected);

            guard::Scanner redactor(patterns);
            std::string redacted;
            std::size_t at = 0;
            for (const std::size_t cut : cuts) {
                redactor.redact(std::string_view(text).substr(at, cut - at), redacted);
                at = cut;
            }
            redactor.redact(std::string_view(text).substr(at), redacted);
            redactor.finishRedaction(redacted);
            QCOMPARE(firstEnd(redacted, forms), std::string::npos);
            QCOMPARE(redactor.redacted().empty(), !expected);
            if (!expected)
                QCOMPARE(redacted, text);
        }
        QVERIFY(withValue > 100); // both sides of the comparison were exercised
        QVERIFY(withValue < 2900);
    }
};

QTEST_GUILESS_MAIN(TestGuardPrefilter)
#include "tst_guard_prefilter.moc"
