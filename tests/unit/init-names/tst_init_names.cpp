// SPDX-License-Identifier: GPL-3.0-or-later
// The sandbox's resolver (app/init/DnsAnswer.h, NameTable.h): every name gets an address of its
// own from the benchmarking ranges, the address leads back to the name, and the table stays
// bounded without ever giving a recently answered address another name. The real resolver in a
// real sandbox, with getent, curl and ssh, is tested in tests/integration/sandbox-capture.
#include "DnsAnswer.h"
#include "NameTable.h"

#include <QtTest>

#include <arpa/inet.h>

using paddock::init::NameTable;
namespace dns = paddock::init::dns;

namespace {

/** A query for @p name of @p type, as a stub resolver sends it (with an EDNS record after it). */
std::string query(const std::string &name, std::uint16_t type, std::uint16_t id = 0x4242)
{
    std::string q;
    auto put16 = [&q](std::uint16_t v) {
        q += char(v >> 8);
        q += char(v & 0xff);
    };
    put16(id);
    put16(0x0100); // RD
    put16(1);
    put16(0);
    put16(0);
    put16(1);
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t dot = std::min(name.find('.', start), name.size());
        q += char(dot - start);
        q += name.substr(start, dot - start);
        start = dot + 1;
    }
    q += '\0';
    put16(type);
    put16(1);
    q += std::string("\0\0\x29\x04\xd0\0\0\0\0\0\0", 11); // OPT
    return q;
}

std::uint16_t read16(const std::string &bytes, std::size_t at)
{
    return std::uint16_t(std::uint8_t(bytes[at]) << 8 | std::uint8_t(bytes[at + 1]));
}

/** The addresses in @p response's answer records, as text. */
QStringList answers(const std::string &response)
{
    QStringList found;
    std::size_t at = 12;
    while (response[at] != 0)
        at += std::size_t(std::uint8_t(response[at])) + 1;
    at += 5;
    for (int i = 0; i < read16(response, 6); ++i) {
        const std::uint16_t type = read16(response, at + 2);
        const std::uint16_t length = read16(response, at + 10);
        char text[INET6_ADDRSTRLEN] = {};
        inet_ntop(type == 1 ? AF_INET : AF_INET6, response.data() + at + 12, text, sizeof text);
        found << QString::fromLatin1(text);
        at += 12 + length;
    }
    return found;
}

sockaddr_storage addressOf(const QString &text)
{
    sockaddr_storage storage{};
    if (text.contains(QLatin1Char(':'))) {
        auto &in6 = reinterpret_cast<sockaddr_in6 &>(storage);
        in6.sin6_family = AF_INET6;
        inet_pton(AF_INET6, text.toLatin1().constData(), &in6.sin6_addr);
    } else {
        auto &in = reinterpret_cast<sockaddr_in &>(storage);
        in.sin_family = AF_INET;
        inet_pton(AF_INET, text.toLatin1().constData(), &in.sin_addr);
    }
    return storage;
}

} // namespace

class InitNamesTest : public QObject
{
    Q_OBJECT

private slots:
    void everyNameGetsAnAddressThatLeadsBackToIt()
    {
        NameTable table;
        const dns::Result a = dns::answer(query("Git.Example.COM", 1), &table, true);
        QCOMPARE(a.outcome, dns::Outcome::Answered);
        QCOMPARE(a.name, std::string("git.example.com"));
        QCOMPARE(read16(a.response, 0), 0x4242);          // the query's id
        QCOMPARE(read16(a.response, 2) & 0x800f, 0x8000); // a response, NOERROR
        const QStringList v4 = answers(a.response);
        QCOMPARE(v4.size(), 1);
        QVERIFY2(v4.first().startsWith(QLatin1String("198.18.")) || v4.first().startsWith(QLatin1String("198.19.")),
                 qPrintable(v4.first()));
        const QStringList v6 = answers(dns::answer(query("git.example.com", 28), &table, true).response);
        QCOMPARE(v6.size(), 1);
        QVERIFY2(v6.first().startsWith(QLatin1String("2001:2::")), qPrintable(v6.first()));
        // The same name keeps its address; both addresses name it.
        QCOMPARE(answers(dns::answer(query("git.example.com", 1), &table, true).response), v4);
        QCOMPARE(table.nameOf(addressOf(v4.first())), std::string("git.example.com"));
        QCOMPARE(table.nameOf(addressOf(v6.first())), std::string("git.example.com"));
        // Another name, another address; an address never handed out names nothing.
        const QStringList other = answers(dns::answer(query("db.test", 1), &table, true).response);
        QVERIFY(other != v4);
        QCOMPARE(table.nameOf(addressOf(QStringLiteral("198.19.200.1"))), std::string());
        QCOMPARE(table.nameOf(addressOf(QStringLiteral("192.0.2.1"))), std::string());
    }

    void otherTypesGetNoDataAndNoIpv6WhereThereIsNone()
    {
        NameTable table;
        const dns::Result mx = dns::answer(query("example.org", 15), &table, true);
        QCOMPARE(mx.outcome, dns::Outcome::Answered);
        QCOMPARE(read16(mx.response, 2) & 0x000f, 0);
        QCOMPARE(read16(mx.response, 6), 0);
        QCOMPARE(read16(dns::answer(query("example.org", 28), &table, false).response, 6), 0);
        QCOMPARE(table.size(), std::size_t(0)); // nothing was handed out for them
    }

    void localhostIsLoopback()
    {
        NameTable table;
        QCOMPARE(answers(dns::answer(query("localhost", 1), &table, true).response), QStringList{"127.0.0.1"});
        QCOMPARE(answers(dns::answer(query("app.localhost", 28), &table, true).response), QStringList{"::1"});
        QCOMPARE(table.size(), std::size_t(0));
    }

    void whatIsNotAHostNameOrNotAQueryIsRefused()
    {
        NameTable table;
        const dns::Result odd = dns::answer(query("a b.example", 1), &table, true);
        QCOMPARE(odd.outcome, dns::Outcome::NoSuchName);
        QCOMPARE(read16(odd.response, 2) & 0x000f, 3); // NXDOMAIN
        std::string response = query("example.org", 1);
        response[2] = char(0x81); // QR: a response is never answered
        QVERIFY(dns::answer(response, &table, true).response.empty());
        QVERIFY(dns::answer("short", &table, true).response.empty());
        std::string pointer = query("example.org", 1);
        pointer[12] = char(0xc0); // a compression pointer in the question
        QCOMPARE(read16(dns::answer(pointer, &table, true).response, 2) & 0x000f, 1); // FORMERR
        std::string truncated = query("example.org", 1).substr(0, 20);
        QCOMPARE(read16(dns::answer(truncated, &table, true).response, 2) & 0x000f, 1);
    }

    void theTableIsBoundedAndRecentAnswersKeepTheirMeaning()
    {
        NameTable table;
        const auto start = NameTable::Clock::now();
        for (std::uint32_t i = 0; i < NameTable::kCapacity; ++i)
            QVERIFY(table.indexFor("n" + std::to_string(i) + ".test", start) != 0);
        // Full of names answered just now: a new name gets no address rather than taking one.
        QCOMPARE(table.indexFor("late.test", start + std::chrono::seconds(1)), 0u);
        const dns::Result full = dns::answer(query("late.test", 1), &table, true);
        QCOMPARE(full.outcome, dns::Outcome::Full);
        QCOMPARE(read16(full.response, 2) & 0x000f, 2); // SERVFAIL
        // Once the oldest is unused for twice the TTL it gives way; its address is not reused at once.
        const auto later = start + 3 * NameTable::kTtl;
        const std::uint32_t fresh = table.indexFor("late.test", later);
        QVERIFY(fresh > NameTable::kCapacity);
        QCOMPARE(table.size(), std::size_t(NameTable::kCapacity));
        sockaddr_storage first{};
        auto &in = reinterpret_cast<sockaddr_in &>(first);
        in.sin_family = AF_INET;
        in.sin_addr = NameTable::ipv4Of(1);
        QCOMPARE(table.nameOf(first, later), std::string()); // n0.test went
        in.sin_addr = NameTable::ipv4Of(fresh);
        QCOMPARE(table.nameOf(first, later), std::string("late.test"));
    }
};

QTEST_GUILESS_MAIN(InitNamesTest)
#include "tst_init_names.moc"
