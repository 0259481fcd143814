// SPDX-License-Identifier: GPL-3.0-or-later
#include "DnsAnswer.h"

#include <cstdint>
#include <cstring>

#include <arpa/inet.h>

namespace paddock::init::dns {
namespace {

constexpr std::size_t kHeaderSize = 12;
constexpr std::uint16_t kTypeA = 1;
constexpr std::uint16_t kTypeAaaa = 28;
constexpr std::uint16_t kTypeAny = 255;
constexpr std::uint16_t kClassIn = 1;

enum Rcode : std::uint8_t {
    NoError = 0,
    FormatError = 1,
    ServerFailure = 2,
    NameError = 3,
    NotImplemented = 4,
    Refused = 5,
};

std::uint16_t read16(std::string_view bytes, std::size_t at)
{
    return std::uint16_t(std::uint8_t(bytes[at]) << 8 | std::uint8_t(bytes[at + 1]));
}

void append16(std::string &out, std::uint16_t value)
{
    out += char(value >> 8);
    out += char(value & 0xff);
}

/** @brief The question of a query: where it ends, the name as text, and whether it is a host name. */
struct Question
{
    std::size_t end = 0; ///< offset after QTYPE and QCLASS
    std::string name;
    bool hostName = true;
    std::uint16_t type = 0;
    std::uint16_t klass = 0;
};

bool isHostChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/** Reads the one question after the header; false when it is not well formed. */
bool readQuestion(std::string_view query, Question *question)
{
    std::size_t at = kHeaderSize;
    for (;;) {
        if (at >= query.size())
            return false;
        const std::size_t length = std::uint8_t(query[at++]);
        if (length == 0)
            break;
        // A question carries its name whole: a compression pointer (or a reserved label type) is not one.
        if (length > 63 || at + length > query.size() || question->name.size() + length + 1 > 253)
            return false;
        if (!question->name.empty())
            question->name += '.';
        for (std::size_t i = 0; i < length; ++i) {
            char c = query[at + i];
            if (c >= 'A' && c <= 'Z')
                c = char(c - 'A' + 'a');
            question->hostName = question->hostName && isHostChar(c);
            question->name += c;
        }
        at += length;
    }
    if (at + 4 > query.size())
        return false;
    question->type = read16(query, at);
    question->klass = read16(query, at + 2);
    question->end = at + 4;
    return true;
}

/** The response's header and question, with @p rcode and @p answers answer records to follow. */
std::string responseHead(std::string_view query, const Question &question, Rcode rcode, int answers)
{
    std::string out(query.substr(0, 2)); // the id
    const std::uint8_t recursionDesired = std::uint8_t(query[2]) & 0x01;
    out += char(0x84 | recursionDesired); // QR, authoritative, RD as asked
    out += char(0x80 | rcode);            // recursion available
    append16(out, question.end ? 1 : 0);
    append16(out, std::uint16_t(answers));
    append16(out, 0);
    append16(out, 0);
    if (question.end)
        out.append(query.substr(kHeaderSize, question.end - kHeaderSize));
    return out;
}

void appendAnswer(std::string &out, std::uint16_t type, const void *data, std::uint16_t size)
{
    append16(out, 0xC000 | kHeaderSize); // the name: the question's
    append16(out, type);
    append16(out, kClassIn);
    const std::uint32_t ttl = std::uint32_t(NameTable::kTtl.count());
    append16(out, std::uint16_t(ttl >> 16));
    append16(out, std::uint16_t(ttl & 0xffff));
    append16(out, size);
    out.append(static_cast<const char *>(data), size);
}

bool isLocalhost(const std::string &name)
{
    const std::string suffix = ".localhost";
    return name == "localhost" ||
           (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0);
}

} // namespace

Result answer(std::string_view query, NameTable *table, bool ipv6)
{
    Result result;
    // Responses (QR set) and anything shorter than a header are not answered at all: a reply
    // to a reply could bounce between two resolvers.
    if (query.size() < kHeaderSize || (std::uint8_t(query[2]) & 0x80))
        return result;
    Question question;
    const int opcode = (std::uint8_t(query[2]) >> 3) & 0x0f;
    if (opcode != 0 || read16(query, 4) != 1 || !readQuestion(query, &question)) {
        result.response = responseHead(query, Question(), opcode != 0 ? NotImplemented : FormatError, 0);
        return result;
    }
    result.name = question.name;
    if (question.klass != kClassIn) {
        result.response = responseHead(query, question, NotImplemented, 0);
        return result;
    }
    if (!question.hostName || question.name.empty()) {
        result.outcome = question.name.empty() ? Outcome::Answered : Outcome::NoSuchName;
        result.response = responseHead(query, question, question.name.empty() ? NoError : NameError, 0);
        return result;
    }
    if (!table && !isLocalhost(question.name)) {
        result.outcome = Outcome::Uncaptured;
        result.response = responseHead(query, question, Refused, 0);
        return result;
    }
    const bool wantsA = question.type == kTypeA || question.type == kTypeAny;
    const bool wantsAaaa = ipv6 && (question.type == kTypeAaaa || question.type == kTypeAny);
    in_addr v4{htonl(INADDR_LOOPBACK)};
    in6_addr v6 = in6addr_loopback;
    if ((wantsA || wantsAaaa) && !isLocalhost(question.name)) {
        const std::uint32_t index = table->indexFor(question.name);
        if (index == 0) {
            result.outcome = Outcome::Full;
            result.response = responseHead(query, question, ServerFailure, 0);
            return result;
        }
        v4 = NameTable::ipv4Of(index);
        v6 = NameTable::ipv6Of(index);
    }
    result.outcome = Outcome::Answered;
    result.response = responseHead(query, question, NoError, int(wantsA) + int(wantsAaaa));
    if (wantsA)
        appendAnswer(result.response, kTypeA, &v4, sizeof v4);
    if (wantsAaaa)
        appendAnswer(result.response, kTypeAaaa, &v6, sizeof v6);
    return result;
}

} // namespace paddock::init::dns
