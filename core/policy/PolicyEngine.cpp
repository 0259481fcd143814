// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/PolicyEngine.h"

#include "policy/AllowChoice.h"
#include "policy/HostGrant.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcEngine, "paddock.policy.engine")

namespace paddock::policy {
namespace {

/** Splits `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address. */
bool splitTarget(QStringView target, QString *host, std::uint16_t *port)
{
    *port = 443;
    QStringView portText;
    if (target.startsWith(QLatin1Char('['))) {
        const qsizetype close = target.indexOf(QLatin1Char(']'));
        if (close < 0)
            return false;
        *host = target.sliced(1, close - 1).toString();
        const QStringView rest = target.sliced(close + 1);
        if (!rest.isEmpty()) {
            if (rest.front() != QLatin1Char(':'))
                return false;
            portText = rest.sliced(1);
        }
    } else if (target.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = target.indexOf(QLatin1Char(':'));
        *host = target.first(colon).toString();
        portText = target.sliced(colon + 1);
    } else {
        *host = target.toString();
    }
    if (portText.isNull())
        return true;
    bool ok = false;
    const uint value = portText.toUInt(&ok);
    if (!ok || value == 0 || value > 65535)
        return false;
    *port = std::uint16_t(value);
    return true;
}

/** The pattern text that allows exactly this host (or address) and port. */
QString patternFor(const QString &host, std::uint16_t port)
{
    QString text = host;
    if (port == 443)
        return text;
    if (text.contains(QLatin1Char(':')))
        text = QLatin1Char('[') + text + QLatin1Char(']');
    return text + QLatin1Char(':') + QString::number(port);
}

/** The one suggestion every refusal and the Allow dialog share (AllowChoice.h). */
QString allowCommand(const QString &pattern, const QString &sandbox)
{
    return allowPatternCommand(pattern, sandbox);
}

/** What opens a guarded address: a rule naming it, or for a name the user's own mapping. */
QString guardFix(const Decision &decision, const QString &sandbox)
{
    if (decision.literal)
        return allowCommand(patternFor(decision.address.toString(), decision.port), sandbox);
    // A name whose meaning is fixed (localhost) is opened by a rule naming it; any other name
    // only by the user's own statement of where it leads.
    const std::string name = normaliseHostName(decision.host);
    if (!fixedReachOf(name).empty())
        return allowCommand(patternFor(QString::fromStdString(name), decision.port), sandbox);
    return QStringLiteral("paddock policy resolve set %1 %2")
        .arg(QString::fromStdString(name), decision.address.toString());
}

/** The command that allows this one request: its method, and its path without the query. */
QString requestAllowCommand(const Decision &decision, const QString &sandbox)
{
    const std::string name = normaliseHostName(decision.host);
    const qsizetype space = decision.request.indexOf(QLatin1Char(' '));
    QString path = decision.request.mid(space + 1);
    path.truncate(path.indexOf(QLatin1Char('?')) < 0 ? path.size() : path.indexOf(QLatin1Char('?')));
    return allowCommand(patternFor(QString::fromStdString(name), decision.port), sandbox) +
           QStringLiteral(" --method %1 --path '%2'").arg(decision.request.left(space), path);
}

QString fixFor(const Decision &decision, const QString &sandbox)
{
    switch (decision.basis) {
    case Decision::Basis::AllowedByRule:
    case Decision::Basis::InvalidHost:
        return {};
    case Decision::Basis::NoMatchingRule: {
        if (!decision.request.isEmpty())
            return requestAllowCommand(decision, sandbox);
        const std::string name = normaliseHostName(decision.host);
        return allowCommand(patternFor(QString::fromStdString(name), decision.port), sandbox);
    }
    case Decision::Basis::NonPublicAddress:
        return guardFix(decision, sandbox);
    case Decision::Basis::RequestsUnseen:
        if (decision.rule->verdict == Verdict::Allow) {
            const std::string name = normaliseHostName(decision.host);
            return allowCommand(patternFor(QString::fromStdString(name), decision.port), sandbox);
        }
        [[fallthrough]];
    case Decision::Basis::DeniedByRule:
        switch (decision.rule->origin) {
        case Origin::User:
        case Origin::Approval:
            return QStringLiteral("paddock policy rm %1").arg(decision.rule->id);
        case Origin::Kit:
            return QStringLiteral("remove %1 from permissions.network.deny in the kit %2")
                .arg(decision.rule->pattern.toString(), decision.rule->scope.name);
        case Origin::Preset:
            return QStringLiteral("choose another preset: paddock policy init balanced");
        }
    }
    return {};
}

} // namespace

KitRules kitNetworkRules(const QString &kit, const QStringList &allow, const QStringList &deny)
{
    KitRules result;
    auto add = [&](const QStringList &patterns, Verdict verdict) {
        for (const QString &text : patterns) {
            const Result<HostPattern> parsed = HostPattern::parse(text, patternContextFor(verdict, Origin::Kit));
            if (!parsed) {
                result.errors.append(text + QStringLiteral(": ") + parsed.error().message);
                continue;
            }
            Rule rule;
            rule.scope = Scope::kit(kit);
            rule.verdict = verdict;
            rule.pattern = parsed.value();
            rule.origin = Origin::Kit;
            rule.id = ruleIdFor(rule.scope, verdict, rule.pattern);
            result.rules.append(rule);
        }
    };
    add(allow, Verdict::Allow);
    add(deny, Verdict::Deny);
    return result;
}

PolicyEngine::PolicyEngine(std::shared_ptr<const LocalAddresses> local)
    : m_local(local ? std::move(local) : LocalAddresses::system()), m_snapshot(Snapshot::build({}, {}, m_local))
{}

void PolicyEngine::setPolicy(const PolicyData &data)
{
    const std::lock_guard lock(m_writeMutex);
    m_data = data;
    rebuildLocked();
}

void PolicyEngine::setKitRules(const QString &kit, const QList<Rule> &rules)
{
    const std::lock_guard lock(m_writeMutex);
    m_kitRules.insert(kit, rules);
    rebuildLocked();
}

void PolicyEngine::removeKitRules(const QString &kit)
{
    const std::lock_guard lock(m_writeMutex);
    if (m_kitRules.remove(kit) > 0)
        rebuildLocked();
}

void PolicyEngine::rebuildLocked()
{
    // Built outside the reader lock: readers keep using the old snapshot meanwhile.
    std::shared_ptr<const Snapshot> next = Snapshot::build(m_data, m_kitRules, m_local);
    qCDebug(lcEngine) << "policy now has" << next->rules().size() << "rules";
    const std::lock_guard lock(m_snapshotMutex);
    m_snapshot.swap(next);
}

std::shared_ptr<const Snapshot> PolicyEngine::snapshot() const
{
    const std::lock_guard lock(m_snapshotMutex);
    return m_snapshot;
}

Decision PolicyEngine::decide(const Request &request) const
{
    return snapshot()->decide(request);
}

Explanation PolicyEngine::check(QStringView target, const QString &sandbox, const QString &kit,
                                const QList<QHostAddress> &addresses) const
{
    Request request;
    request.sandbox = sandbox;
    request.kit = kit;
    request.addresses = addresses;
    Explanation explanation;
    if (!splitTarget(target, &request.host, &request.port)) {
        explanation.decision.host = target.toString();
        explanation.decision.basis = Decision::Basis::InvalidHost;
        return explanation;
    }
    explanation.decision = decide(request);
    explanation.fix = fixFor(explanation.decision, sandbox);
    return explanation;
}

Explanation PolicyEngine::explain(const Request &request) const
{
    Explanation explanation;
    explanation.decision = decide(request);
    explanation.fix = fixFor(explanation.decision, request.sandbox);
    return explanation;
}

std::optional<QHostAddress> PolicyEngine::resolveOverride(QStringView host) const
{
    return snapshot()->resolveOverride(host);
}

} // namespace paddock::policy
