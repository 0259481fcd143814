// SPDX-License-Identifier: GPL-3.0-or-later
#include "network/PolicyDecider.h"

#include "common/QuotedString.h"
#include "policy/AllowChoice.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcDecider, "paddock.network.decider")

namespace paddock::network {
namespace {

/** `host:port`, IPv6 literals in brackets: the target form PolicyEngine::check reads. */
QString targetText(const QString &host, quint16 port)
{
    const QString name = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return name + QLatin1Char(':') + QString::number(port);
}

policy::Request requestOf(const proxy::ConnectionQuery &query)
{
    policy::Request request;
    request.sandbox = query.sandbox;
    request.kit = query.kit;
    request.host = query.host;
    request.port = query.port;
    request.addresses = QList<QHostAddress>(query.addresses.cbegin(), query.addresses.cend());
    request.program = query.program;
    request.method = query.method;
    request.path = query.target;
    request.seesRequests = query.seesRequests;
    return request;
}

/** The label marker: a control character no rule id or default label contains. */
constexpr QChar kLearnedMark = QChar(0x1e);

/** "/tmp/curl", "/work/curl (python3)": the file of @p program a person should look at. */
QString writtenFile(const ClientProgram &program)
{
    const bool script = !program.scriptFile.path.empty() && program.scriptOrigin == FileOrigin::Written;
    return QString::fromStdString(script ? program.scriptFile.path : program.exe);
}

/**
 * Why @p query was refused when a rule names a program it pretends to be: a file written inside
 * the sandbox under the name of one of its base's, or a program started under another's name
 * (`exec -a curl`, a link named curl). Empty when no allow would hold for the program it imitates.
 */
QString imitationReason(const policy::PolicyEngine &engine, const policy::Request &request)
{
    const ClientProgram &program = request.program;
    if (!program.known())
        return {};
    policy::Request imitated = request;
    if (!program.fromBase() && program.exeOrigin != FileOrigin::Unknown) {
        imitated.program.exeOrigin = FileOrigin::Base;
        imitated.program.scriptOrigin = FileOrigin::Base;
        const policy::Decision decision = engine.decide(imitated);
        if (decision.allowed && decision.rule)
            return QStringLiteral("%1 is not the sandbox's %2: it was written inside the sandbox (%3), and rule %4 "
                                  "holds only for the %2 of its base")
                .arg(writtenFile(program), QString::fromStdString(program.name()),
                     QString::fromStdString(program.writtenWhere), decision.rule->id);
    }
    const QString started = program.args.empty() ? QString() : QString::fromStdString(program.args.front());
    const QString startedName = started.section(QLatin1Char('/'), -1);
    const QString runs = QString::fromStdString(program.exe);
    if (startedName.isEmpty() || startedName == runs.section(QLatin1Char('/'), -1) || !program.scriptFile.path.empty())
        return {};
    imitated = request;
    imitated.program.exe = runs.section(QLatin1Char('/'), 0, -2).toStdString() + '/' + startedName.toStdString();
    imitated.program.exeOrigin = FileOrigin::Base;
    const policy::Decision decision = engine.decide(imitated);
    if (!decision.allowed || !decision.rule)
        return {};
    return QStringLiteral("the program started as %1 runs %2: rule %3 holds only for the sandbox's own %4, not for "
                          "another program under its name")
        .arg(started, runs, decision.rule->id, startedName);
}

/** The command that allows @p request's program as this very file (its digest, wherever it is), when it has one. */
QString digestFix(const policy::Request &request)
{
    const ClientProgram &program = request.program;
    const bool script = !program.scriptFile.path.empty();
    const std::string &digest = script ? program.scriptFile.sha256 : program.exeFile.sha256;
    if (digest.empty())
        return {};
    const QString pattern = policy::allowChoicePattern(request.host, request.port, QStringLiteral("exact"))
                                .valueOr(targetText(request.host, request.port));
    return policy::allowPatternCommand(pattern, request.sandbox) +
           QStringLiteral(" --program %1 --program-sha256 %2")
               .arg(shellWord(QString::fromStdString(program.name())), QString::fromStdString(digest));
}

} // namespace

void SandboxModes::setLearning(const QString &sandbox, bool enabled)
{
    const std::lock_guard lock(m_mutex);
    if (enabled)
        m_learning.insert(sandbox);
    else
        m_learning.remove(sandbox);
}

bool SandboxModes::isLearning(const QString &sandbox) const
{
    const std::lock_guard lock(m_mutex);
    return m_learning.contains(sandbox);
}

void SandboxModes::setAsking(const QString &sandbox, bool enabled)
{
    const std::lock_guard lock(m_mutex);
    if (enabled)
        m_asking.insert(sandbox);
    else
        m_asking.remove(sandbox);
}

bool SandboxModes::isAsking(const QString &sandbox) const
{
    const std::lock_guard lock(m_mutex);
    return m_asking.contains(sandbox);
}

void SandboxModes::forget(const QString &sandbox)
{
    const std::lock_guard lock(m_mutex);
    m_learning.remove(sandbox);
    m_asking.remove(sandbox);
}

QString LearnedRefusal::toLabel() const
{
    return kLearnedMark + rule + kLearnedMark + reason;
}

std::optional<LearnedRefusal> LearnedRefusal::fromLabel(const QString &label)
{
    if (!label.startsWith(kLearnedMark))
        return std::nullopt;
    const qsizetype split = label.indexOf(kLearnedMark, 1);
    if (split < 0)
        return std::nullopt;
    return LearnedRefusal{label.mid(1, split - 1), label.mid(split + 1)};
}

proxy::Verdict decide(const policy::PolicyEngine &engine, const SandboxModes &learning,
                      const proxy::ConnectionQuery &query)
{
    proxy::Verdict verdict = decide(engine, query);
    if (verdict.allowed)
        return verdict;
    const policy::AskSettings askSettings = engine.snapshot()->data().ask;
    const bool asking = askSettings.everySandbox || learning.isAsking(query.sandbox);
    if (!asking && !learning.isLearning(query.sandbox))
        return verdict;
    const policy::Request request = requestOf(query);
    // Learning and asking never open the host's own or the local network: the rebinding guard
    // protects more than the policy's default.
    if (engine.decide(request).basis != policy::Decision::Basis::NoMatchingRule ||
        engine.snapshot()->reachesGuardedAddress(request))
        return verdict;
    if (asking) {
        verdict.ask = true;
        verdict.askFor = std::chrono::seconds(askSettings.timeoutSeconds);
        verdict.allowUnanswered = askSettings.allowUnanswered;
        verdict.rule = kAskRule;
        verdict.reason = QStringLiteral("no rule covers %1, and sandbox %2 asks before connecting")
                             .arg(targetText(query.host, query.port), query.sandbox);
        return verdict; // the fix stays: the command that would allow it for good
    }
    qCDebug(lcDecider).noquote() << "learned" << targetText(query.host, query.port) << "for" << query.sandbox;
    return proxy::Verdict{true, LearnedRefusal{verdict.rule, verdict.reason}.toLabel(), {}, {}};
}

proxy::Decider policyDecider(const policy::PolicyEngine &engine, std::shared_ptr<const SandboxModes> learning)
{
    return [&engine, learning](const proxy::ConnectionQuery &query) { return decide(engine, *learning, query); };
}

proxy::Verdict decide(const policy::PolicyEngine &engine, const proxy::ConnectionQuery &query)
{
    const policy::Request request = requestOf(query);
    const policy::Decision decision = engine.decide(request);

    proxy::Verdict verdict;
    verdict.allowed = decision.allowed;
    verdict.rule = decision.ruleLabel();
    verdict.reason = decision.reason();
    if (!decision.allowed) {
        // Only refusals pay for the fix text; explain() decides again the same way.
        verdict.fix = engine.explain(request).fix;
        if (decision.basis == policy::Decision::Basis::NoMatchingRule) {
            if (const QString imitation = imitationReason(engine, request); !imitation.isEmpty()) {
                verdict.reason = imitation;
                if (const QString fix = digestFix(request); !fix.isEmpty())
                    verdict.fix = fix;
            }
        }
        qCDebug(lcDecider).noquote() << "refused" << targetText(query.host, query.port) << verdict.reason;
    }
    return verdict;
}

proxy::Decider policyDecider(const policy::PolicyEngine &engine)
{
    return [&engine](const proxy::ConnectionQuery &query) { return decide(engine, query); };
}

QMap<QString, QHostAddress> syncResolveOverrides(proxy::ResolveOverrides &resolver,
                                                 const QMap<QString, QHostAddress> &previous,
                                                 const QMap<QString, QHostAddress> &next)
{
    for (auto it = previous.cbegin(); it != previous.cend(); ++it) {
        if (!next.contains(it.key()))
            resolver.remove(it.key(), 0);
    }
    for (auto it = next.cbegin(); it != next.cend(); ++it)
        resolver.set(it.key(), 0, {it.value()});
    return next;
}

} // namespace paddock::network
