// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/LearningProposal.h"

#include "policy/IpAddress.h"
#include "policy/PublicSuffixList.h"
#include "policy/Snapshot.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

#include <algorithm>

namespace paddock::sandbox {
namespace {

QString targetPattern(const QString &host, quint16 port)
{
    const QString name = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return port == 443 && !host.contains(QLatin1Char(':')) ? name : name + QLatin1Char(':') + QString::number(port);
}

bool appliesTo(const policy::Scope &scope, const QString &sandbox, const QString &kit)
{
    switch (scope.kind) {
    case policy::Scope::Kind::Global:
        return true;
    case policy::Scope::Kind::Sandbox:
        return scope.name == sandbox;
    case policy::Scope::Kind::Kit:
        return scope.name == kit;
    }
    return false;
}

/** Whether deny pattern @p deny matches some host exactly one label below @p parent. */
bool denyOverlapsChildren(const policy::HostPattern &deny, const QString &parent)
{
    const QString domain = QString::fromStdString(deny.domain());
    switch (deny.kind()) {
    case policy::HostPattern::Kind::Everything:
        return true;
    case policy::HostPattern::Kind::Network:
        return false;
    case policy::HostPattern::Kind::ExactHost:
        return domain.endsWith(QLatin1Char('.') + parent) &&
               !domain.left(domain.size() - parent.size() - 1).contains(QLatin1Char('.'));
    case policy::HostPattern::Kind::OneLabelWildcard:
        return domain == parent;
    case policy::HostPattern::Kind::AnyDepthWildcard:
        return domain == parent || parent.endsWith(QLatin1Char('.') + domain);
    }
    return true;
}

} // namespace

QString registrableDomain(const QString &host)
{
    if (policy::IpAddress::parse(host))
        return {};
    return policy::PublicSuffixList::system().registrableDomain(host);
}

QJsonObject PolicyProposal::toJson() const
{
    QJsonArray array;
    for (const ProposalEntry &entry : entries)
        array.append(QJsonObject{{QStringLiteral("host"), entry.host},
                                 {QStringLiteral("port"), entry.port},
                                 {QStringLiteral("count"), entry.count},
                                 {QStringLiteral("lastSeen"), entry.lastSeen.toUTC().toString(Qt::ISODateWithMs)},
                                 {QStringLiteral("suggestion"), entry.suggestion}});
    return {{QStringLiteral("entries"), array}, {QStringLiteral("patterns"), QJsonArray::fromStringList(patterns)}};
}

PolicyProposal proposePolicy(const QList<ObservedDestination> &observed, const policy::PolicyEngine &engine,
                             const QString &sandbox, const QString &kit)
{
    // One entry per destination, however many times it was seen.
    QMap<QPair<QString, quint16>, ProposalEntry> byTarget;
    for (const ObservedDestination &seen : observed) {
        ProposalEntry &entry = byTarget[{seen.host.toLower(), seen.port}];
        entry.host = seen.host.toLower();
        entry.port = seen.port;
        entry.count += seen.count;
        entry.lastSeen = std::max(entry.lastSeen, seen.lastSeen);
    }

    const std::shared_ptr<const policy::Snapshot> snapshot = engine.snapshot();
    QList<policy::HostPattern> denials;
    for (const policy::Rule &rule : snapshot->rules()) {
        if (rule.verdict == policy::Verdict::Deny && appliesTo(rule.scope, sandbox, kit))
            denials.append(rule.pattern);
    }

    // Hosts still to be covered, grouped by parent and port for folding.
    QMap<QPair<QString, quint16>, QStringList> siblings;
    for (ProposalEntry &entry : byTarget) {
        policy::Request request;
        request.sandbox = sandbox;
        request.kit = kit;
        request.host = entry.host;
        request.port = entry.port;
        const policy::Decision decision = engine.decide(request);
        if (decision.basis == policy::Decision::Basis::DeniedByRule) {
            entry.suggestion = QStringLiteral("none: rule %1 denies it").arg(decision.ruleLabel());
            continue;
        }
        if (decision.allowed) {
            entry.suggestion = QStringLiteral("none: rule %1 allows it already").arg(decision.ruleLabel());
            continue;
        }
        entry.suggestion = targetPattern(entry.host, entry.port);
        const QString registrable = registrableDomain(entry.host);
        const qsizetype dot = entry.host.indexOf(QLatin1Char('.'));
        if (registrable.isEmpty() || dot < 0)
            continue;
        const QString parent = entry.host.mid(dot + 1);
        // Never wider than the registrable domain: its parent must be it or below it.
        if (parent == registrable || parent.endsWith(QLatin1Char('.') + registrable))
            siblings[{parent, entry.port}].append(entry.host);
    }
    for (auto it = siblings.cbegin(); it != siblings.cend(); ++it) {
        if (it.value().size() < 2)
            continue;
        const QString parent = it.key().first;
        if (std::any_of(denials.cbegin(), denials.cend(),
                        [&](const policy::HostPattern &deny) { return denyOverlapsChildren(deny, parent); }))
            continue;
        const QString pattern = targetPattern(QStringLiteral("*.") + parent, it.key().second);
        for (const QString &host : it.value())
            byTarget[{host, it.key().second}].suggestion = pattern;
    }

    PolicyProposal proposal;
    QSet<QString> patterns;
    for (const ProposalEntry &entry : std::as_const(byTarget)) {
        proposal.entries.append(entry);
        if (!entry.suggestion.startsWith(QLatin1String("none:")))
            patterns.insert(entry.suggestion);
    }
    std::sort(proposal.entries.begin(), proposal.entries.end(),
              [](const ProposalEntry &a, const ProposalEntry &b) { return a.count > b.count; });
    proposal.patterns = QStringList(patterns.cbegin(), patterns.cend());
    proposal.patterns.sort();
    return proposal;
}

} // namespace paddock::sandbox
