// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary text to the pattern parser and checks what must always hold: no crash,
// a refusal always says why, the canonical form parses back to the same pattern, and a
// parsed pattern can be evaluated against arbitrary hosts.
#include "policy/PolicyEngine.h"

#include <QString>

#include <cstdint>
#include <cstdlib>

using paddock::Result;
using namespace paddock::policy;

namespace {

void require(bool condition)
{
    if (!condition)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // First line: the pattern. Second line (optional): a host to evaluate it against.
    const QString input = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype newline = input.indexOf(QLatin1Char('\n'));
    const QString text = newline < 0 ? input : input.first(newline);
    const QString host = newline < 0 ? QStringLiteral("a.example.com") : input.sliced(newline + 1);

    for (const PatternContext context : {PatternContext::Allow, PatternContext::Deny, PatternContext::Preset}) {
        const Result<HostPattern> parsed = HostPattern::parse(text, context);
        require(parsed.ok() || !parsed.error().message.isEmpty());
        if (!parsed)
            continue;
        const HostPattern &pattern = parsed.value();
        const QString canonical = pattern.toString();
        // Presets accept everything a valid pattern can express, so the canonical form must
        // parse back there to the very same pattern.
        const Result<HostPattern> again = HostPattern::parse(canonical, PatternContext::Preset);
        require(again.ok());
        require(again.value() == pattern);
        require(again->toString() == canonical);
        if (pattern.kind() != HostPattern::Kind::Network && pattern.kind() != HostPattern::Kind::Everything)
            require(!pattern.domain().empty());
        (void)pattern.matchesName(normaliseHostName(host), 443);

        // The engine's index must agree with the pattern's own matching.
        if (context == PatternContext::Deny) {
            Rule rule;
            rule.verdict = Verdict::Deny;
            rule.pattern = pattern;
            rule.id = ruleIdFor(rule.scope, rule.verdict, pattern);
            PolicyData policy;
            policy.rules = {rule};
            const auto snapshot = Snapshot::build(policy, {});
            Request request;
            request.host = host;
            request.port = pattern.ports().first;
            const Decision decision = snapshot->decide(request);
            require(!decision.allowed);
            const std::string name = normaliseHostName(host);
            const std::optional<IpAddress> literal = IpAddress::parse(QString::fromStdString(name));
            if (!literal && !name.empty()) {
                // A name the pattern covers is denied. A name it does not cover is denied only
                // by an address range reaching the name's address (localhost is loopback).
                const bool denied = decision.basis == Decision::Basis::DeniedByRule;
                if (pattern.matchesName(name, request.port))
                    require(denied);
                else if (denied)
                    require(pattern.kind() == HostPattern::Kind::Network);
            }
            (void)decision.reason();
        }
    }
    return 0;
}
