// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/Checklist.h"

#include "events/EventStore.h"
#include "kit/KitLoader.h"
#include "policy/PolicyEngine.h"
#include "policy/PolicyStore.h"
#include "runtime/Runtime.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryFile>
#include <QThread>
#include <QUuid>

#include <fcntl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcChecklist, "paddock.checklist")

namespace paddock::sandbox {

namespace {

/** What a proxy-managed credential variable holds inside (core/sandbox/KitApplication). */
const QString kSentinel = QStringLiteral("proxy-managed");
/** Probe host names start with this, so later checks can tell the probes from real refusals. */
const QString kProbePrefix = QStringLiteral("paddock-verify-");

struct Inside
{
    bool ran = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString error; ///< when the command could not be run at all
};

QByteArray readBack(const QTemporaryFile &file)
{
    QFile again(file.fileName());
    return again.open(QIODevice::ReadOnly) ? again.read(1024 * 1024) : QByteArray();
}

/** Runs @p argv inside the sandbox with no terminal and captures what it prints. */
Inside runInside(runtime::Runtime &runtime, const QString &name, const QStringList &argv)
{
    Inside inside;
    QTemporaryFile out;
    QTemporaryFile err;
    const int input = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!out.open() || !err.open() || input < 0) {
        if (input >= 0)
            ::close(input);
        inside.error = QStringLiteral("cannot create temporary files");
        return inside;
    }
    runtime::ExecRequest request;
    request.argv = argv;
    const runtime::RuntimeResult result = runtime.exec(name, request, {input, int(out.handle()), int(err.handle())});
    ::close(input);
    if (!result.ok) {
        inside.error = result.error;
        return inside;
    }
    inside.ran = true;
    inside.exitCode = result.exitCode.value_or(0);
    inside.out = readBack(out);
    inside.err = readBack(err);
    return inside;
}

QString firstLine(const QByteArray &text)
{
    const QString line = QString::fromUtf8(text).trimmed().section(QLatin1Char('\n'), 0, 0);
    return line.size() > 200 ? line.left(200) + QStringLiteral("...") : line;
}

CheckResult make(const QString &id, const QString &title, CheckResult::Status status, const QString &message)
{
    CheckResult check;
    check.id = id;
    check.title = title;
    check.status = status;
    check.message = message;
    return check;
}

CheckResult checkCredentials(runtime::Runtime &runtime, const QString &name, const std::optional<kit::Kit> &kit,
                             const QString &kitProblem)
{
    const QString id = QStringLiteral("credential");
    const QString title = QStringLiteral("The credential variable inside is the sentinel");
    if (!kit)
        return make(id, title, CheckResult::Status::Skipped, kitProblem);
    QList<const kit::Credential *> withVariable;
    for (const kit::Credential &credential : kit->credentials) {
        if (credential.apiKey && !credential.apiKey->name.isEmpty())
            withVariable << &credential;
    }
    if (withVariable.isEmpty())
        return make(id, title, CheckResult::Status::Skipped,
                    QStringLiteral("The kit declares no credential variable."));
    const Inside env = runInside(runtime, name, {QStringLiteral("env")});
    if (!env.ran || env.exitCode != 0)
        return make(
            id, title, CheckResult::Status::Failed,
            QStringLiteral("Could not read the environment inside: %1").arg(env.ran ? firstLine(env.err) : env.error));
    QMap<QString, QString> variables;
    for (const QByteArray &line : env.out.split('\n')) {
        const qsizetype equals = line.indexOf('=');
        if (equals > 0)
            variables.insert(QString::fromUtf8(line.left(equals)), QString::fromUtf8(line.mid(equals + 1)));
    }
    CheckResult check = make(id, title, CheckResult::Status::Ok, {});
    QStringList good;
    for (const kit::Credential *credential : std::as_const(withVariable)) {
        const QString variable = credential->apiKey->name;
        if (!variables.contains(variable)) {
            if (credential->apiKey->proxyManaged) {
                check.status = CheckResult::Status::Failed;
                check.details
                    << QStringLiteral("%1 is not set inside; it should hold the sentinel %2").arg(variable, kSentinel);
            } else {
                good << QStringLiteral("%1 is not set inside").arg(variable);
            }
        } else if (variables.value(variable) != kSentinel) {
            // The value itself is never printed: it may well be the key.
            check.status = CheckResult::Status::Failed;
            check.details << QStringLiteral("%1 holds a value that is not the sentinel (%2 characters): a key may be "
                                            "readable inside the sandbox")
                                 .arg(variable)
                                 .arg(variables.value(variable).size());
        } else {
            good << QStringLiteral("%1 is %2").arg(variable, kSentinel);
        }
    }
    if (check.status == CheckResult::Status::Ok) {
        check.message = QStringLiteral("Inside the sandbox %1, not a key.").arg(good.join(QStringLiteral(", ")));
    } else {
        check.message = check.details.join(QStringLiteral("; ")) + QLatin1Char('.');
        check.details.clear(); // the sentence already names each variable
    }
    return check;
}

/** The refusal of @p host logged for @p sandbox since @p since, waiting for the daemon to write it. */
std::optional<events::NetworkEvent> findProbeEvent(const QString &sandbox, const QString &host, const QDateTime &since,
                                                   int waitMs)
{
    events::EventStore store;
    const QDateTime deadline = QDateTime::currentDateTimeUtc().addMSecs(waitMs);
    for (;;) {
        std::optional<events::NetworkEvent> found;
        if (store.isOpen() || store.open()) {
            events::EventFilter filter;
            filter.sandbox = sandbox;
            filter.since = since;
            filter.includeUpstreamFailures = true;
            store.forEachEvent(filter, [&](const events::NetworkEvent &event) {
                if (event.host == host)
                    found = event;
                return !found;
            });
        }
        // The daemon stores events in batches; the refusal shows up a moment after the request.
        if (found || QDateTime::currentDateTimeUtc() > deadline)
            return found;
        QThread::msleep(100);
    }
}

CheckResult checkBlocked(runtime::Runtime &runtime, const QString &name, int waitMs)
{
    const QString id = QStringLiteral("blocked");
    const QString title = QStringLiteral("A domain on no list is refused and logged");
    const QString host =
        kProbePrefix + QUuid::createUuid().toString(QUuid::Id128).left(10) + QStringLiteral(".example");
    const QString url = QStringLiteral("https://%1/").arg(host);
    const QDateTime since = QDateTime::currentDateTimeUtc().addSecs(-2);
    const QString script =
        QStringLiteral("if command -v curl >/dev/null 2>&1; then exec curl -sS -o /dev/null --max-time 30 \"$1\"; "
                       "elif command -v wget >/dev/null 2>&1; then exec wget -q -T 30 -O /dev/null \"$1\"; "
                       "else echo 'neither curl nor wget is installed' >&2; exit 127; fi");
    const Inside request =
        runInside(runtime, name, {QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh"), url});
    if (!request.ran)
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("Could not run a request inside: %1").arg(request.error));
    if (request.exitCode == 127)
        return make(id, title, CheckResult::Status::Skipped,
                    QStringLiteral("Neither curl nor wget is inside the sandbox to make the request."));
    if (request.exitCode == 0)
        return make(
            id, title, CheckResult::Status::Failed,
            QStringLiteral("A request to %1, a domain on no list, succeeded: the policy lets it through.").arg(host));
    const std::optional<events::NetworkEvent> event = findProbeEvent(name, host, since, waitMs);
    if (!event)
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("The request to %1 failed (exit %2), but no refusal was logged for this sandbox: "
                                   "it did not fail at Paddock's proxy.")
                        .arg(host)
                        .arg(request.exitCode));
    if (event->outcome != events::NetworkEvent::Outcome::Denied)
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("The proxy did not refuse %1 (%2, rule %3): the policy lets a domain on no list "
                                   "through.")
                        .arg(host, events::outcomeToken(event->outcome), event->rule));
    return make(id, title, CheckResult::Status::Ok,
                QStringLiteral("A request to %1 failed inside and the policy log records its refusal (%2).")
                    .arg(host, event->rule));
}

CheckResult checkWorkspace(runtime::Runtime &runtime, const QString &name, const QString &workspace)
{
    const QString id = QStringLiteral("workspace");
    const QString title = QStringLiteral("A file edited inside appears on the host");
    if (workspace.isEmpty() || !QFileInfo(workspace).isDir())
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("The sandbox's workspace %1 is not a folder on the host.").arg(workspace));
    const QString token = QUuid::createUuid().toString(QUuid::Id128);
    const QString path = workspace + QStringLiteral("/.paddock-verify-") + token.left(12);
    const Inside write = runInside(runtime, name,
                                   {QStringLiteral("sh"), QStringLiteral("-c"),
                                    QStringLiteral("printf %s \"$1\" > \"$2\""), QStringLiteral("sh"), token, path});
    QFile file(path);
    const QByteArray seen = file.open(QIODevice::ReadOnly) ? file.read(1024) : QByteArray();
    file.close();
    QFile::remove(path);
    if (!write.ran)
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("Could not run a command inside: %1").arg(write.error));
    if (write.exitCode != 0)
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("Writing %1 inside the sandbox failed: %2")
                        .arg(path, firstLine(write.err).isEmpty() ? QStringLiteral("exit %1").arg(write.exitCode)
                                                                  : firstLine(write.err)));
    if (seen != token.toLatin1())
        return make(
            id, title, CheckResult::Status::Failed,
            QStringLiteral("A file written inside at %1 is not on the host: the workspace is not shared.").arg(path));
    return make(id, title, CheckResult::Status::Ok,
                QStringLiteral("A file written inside %1 appeared on the host at once.").arg(workspace));
}

/** The ids of every deny rule in force for the sandbox: chosen refusals. */
QSet<QString> chosenDenyRules(const QString &kitName, const std::optional<SandboxRecord> &record)
{
    QSet<QString> ids;
    QFile file(policy::PolicyStore::defaultPath());
    if (file.open(QIODevice::ReadOnly)) {
        auto parsed = policy::PolicyStore::parse(file.readAll(), file.fileName());
        if (const auto *data = std::get_if<policy::PolicyData>(&parsed)) {
            for (const policy::Rule &rule : data->rules) {
                if (rule.verdict == policy::Verdict::Deny)
                    ids.insert(rule.id);
            }
            for (const policy::Rule &rule : policy::presetRules(data->preset)) {
                if (rule.verdict == policy::Verdict::Deny)
                    ids.insert(rule.id);
            }
        }
    }
    if (record) {
        for (const policy::Rule &rule : policy::kitNetworkRules(kitName, {}, record->networkDeny).rules)
            ids.insert(rule.id);
    }
    return ids;
}

CheckResult checkLog(const QString &sandbox, const QString &kitName, const QDateTime &startedAt,
                     const std::optional<SandboxRecord> &record)
{
    const QString id = QStringLiteral("log");
    const QString title = QStringLiteral("The policy log shows no refusal the policy did not choose");
    events::EventStore store;
    if (!store.open())
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("The event log cannot be read: %1").arg(store.errorString()));
    const QSet<QString> chosen = chosenDenyRules(kitName, record);
    struct Unexpected
    {
        qint64 count = 0;
        QString rule;
        QString reason;
    };
    QMap<QString, Unexpected> unexpected;
    qint64 chosenCount = 0;
    events::EventFilter filter;
    filter.sandbox = sandbox;
    filter.since = startedAt;
    store.forEachEvent(filter, [&](const events::NetworkEvent &event) {
        if (event.outcome != events::NetworkEvent::Outcome::Denied || event.host.startsWith(kProbePrefix))
            return true;
        if (chosen.contains(event.rule)) {
            ++chosenCount;
            return true;
        }
        Unexpected &entry = unexpected[QStringLiteral("%1:%2").arg(event.host).arg(event.port)];
        ++entry.count;
        entry.rule = event.rule;
        entry.reason = event.reason;
        return true;
    });
    if (unexpected.isEmpty())
        return make(id, title, CheckResult::Status::Ok,
                    chosenCount == 0 ? QStringLiteral("No refusal was logged for this sandbox since it started.")
                                     : QStringLiteral("Every refusal since the sandbox started (%1) was decided by a "
                                                      "deny rule.")
                                           .arg(chosenCount));
    CheckResult check = make(id, title, CheckResult::Status::Failed, {});
    for (auto it = unexpected.cbegin(); it != unexpected.cend(); ++it)
        check.details
            << QStringLiteral("%1 refused %2 time(s) (%3): %4").arg(it.key()).arg(it->count).arg(it->rule, it->reason);
    check.message = QStringLiteral("%1 destination(s) were refused without a rule choosing it: %2. Allow what the "
                                   "agent needs ('paddock kit allow KIT HOST'), or deny it explicitly.")
                        .arg(unexpected.size())
                        .arg(QStringList(unexpected.keys()).join(QStringLiteral(", ")));
    return check;
}

CheckResult checkKey(const KeyTest &keyTest, const std::optional<kit::Kit> &kit, const QString &kitDir)
{
    const QString id = QStringLiteral("key");
    const QString title = QStringLiteral("The key reaches its provider");
    if (!kit)
        return make(id, title, CheckResult::Status::Skipped, QStringLiteral("The kit cannot be read."));
    QStringList services;
    for (const kit::Credential &credential : kit->credentials) {
        if (credential.apiKey && !credential.apiKey->inject.isEmpty())
            services << credential.service;
    }
    if (services.isEmpty())
        return make(id, title, CheckResult::Status::Skipped, QStringLiteral("The kit injects no key."));
    if (!keyTest)
        return make(id, title, CheckResult::Status::Skipped, QStringLiteral("skipped: not available"));
    CheckResult combined = make(id, title, CheckResult::Status::Ok, {});
    QStringList messages;
    for (const QString &service : std::as_const(services)) {
        const std::optional<CheckResult> result = keyTest(service, kitDir);
        if (!result)
            return make(id, title, CheckResult::Status::Skipped, QStringLiteral("skipped: not available"));
        if (result->status == CheckResult::Status::Failed)
            combined.status = CheckResult::Status::Failed;
        else if (result->status == CheckResult::Status::Skipped && combined.status == CheckResult::Status::Ok)
            combined.status = CheckResult::Status::Skipped;
        messages << QStringLiteral("%1: %2").arg(service, result->message);
        combined.details << result->details;
    }
    combined.message = messages.join(QStringLiteral("; "));
    return combined;
}

// The kit configures pi-permission-system: its merged rules, as the extension reads them in the
// sandbox, must refuse the agent reading .env, and the check names the rule that does. The
// daemon asked its agent.test method before the checks ran (@p answer).
CheckResult checkAgentRules(const api::Reply &answer, const QString &sandbox)
{
    const QString id = QStringLiteral("agent");
    const QString title = QStringLiteral("The agent's rules refuse reading .env");
    if (answer.isError())
        return make(id, title, CheckResult::Status::Failed,
                    QStringLiteral("the rules could not be tested: %1").arg(answer.errorMessage()));
    const QJsonObject result = answer.result();
    const QJsonObject decided = result.value(QLatin1String("decidedBy")).toObject();
    const QString rule =
        QStringLiteral("%1 rule %2")
            .arg(decided.value(QLatin1String("layer")).toString(), decided.value(QLatin1String("rule")).toString());
    if (result.value(QLatin1String("state")).toString() == QLatin1String("deny"))
        return make(id, title, CheckResult::Status::Ok, QStringLiteral("reading .env is refused by the %1").arg(rule));
    return make(id, title, CheckResult::Status::Failed,
                QStringLiteral("reading .env would be %1 (%2); add \"*.env\": \"deny\" to the path surface "
                               "(paddock agent-perms set --sandbox %3 path '*.env' deny)")
                    .arg(result.value(QLatin1String("state")).toString(), rule, sandbox));
}

QString lastLine(const QByteArray &text)
{
    const QStringList lines = QString::fromUtf8(text).trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

} // namespace

KeyTest keyTestThrough(const QString &program)
{
    return [program](const QString &service, const QString &kitDir) -> std::optional<CheckResult> {
        constexpr int kTimeoutMs = 90000;
        QProcess process;
        process.start(program,
                      {QStringLiteral("secret"), QStringLiteral("test"), service, QStringLiteral("--kit"), kitDir});
        process.closeWriteChannel();
        CheckResult result;
        result.id = QStringLiteral("key");
        if (!process.waitForFinished(kTimeoutMs)) {
            process.kill();
            process.waitForFinished();
            result.status = CheckResult::Status::Failed;
            result.message = QStringLiteral("the provider did not answer in time");
            return result;
        }
        const QByteArray output = process.readAllStandardOutput();
        const QByteArray errors = process.readAllStandardError();
        QString said = lastLine(errors).isEmpty() ? lastLine(output) : lastLine(errors);
        if (said.startsWith(QLatin1String("paddock: ")))
            said = said.mid(9);
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() > 1)
            return std::nullopt;
        result.status = process.exitCode() == 0 ? CheckResult::Status::Ok : CheckResult::Status::Failed;
        result.message = process.exitCode() == 0 ? lastLine(output) : said;
        return result;
    };
}

QString CheckResult::statusName(Status status)
{
    switch (status) {
    case Status::Ok:
        return QStringLiteral("ok");
    case Status::Failed:
        return QStringLiteral("failed");
    case Status::Skipped:
        return QStringLiteral("skipped");
    }
    return {};
}

QJsonObject CheckResult::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("title"), title},
            {QStringLiteral("status"), statusName(status)},
            {QStringLiteral("message"), message},
            {QStringLiteral("details"), QJsonArray::fromStringList(details)}};
}

bool Checklist::passed() const
{
    return std::none_of(checks.cbegin(), checks.cend(),
                        [](const CheckResult &check) { return check.status == CheckResult::Status::Failed; });
}

QJsonObject Checklist::toJson() const
{
    QJsonArray array;
    for (const CheckResult &check : checks)
        array.append(check.toJson());
    return {{QStringLiteral("sandbox"), sandbox},
            {QStringLiteral("kit"), kit},
            {QStringLiteral("passed"), passed()},
            {QStringLiteral("checks"), array}};
}

QString agentRulesQuery()
{
    return QStringLiteral("read: .env");
}

QStringList checkIds()
{
    return {QStringLiteral("credential"), QStringLiteral("blocked"), QStringLiteral("workspace"), QStringLiteral("log"),
            QStringLiteral("key")};
}

Checklist runChecklist(runtime::Runtime &runtime, const ChecklistTarget &target, const VerifyOptions &options,
                       const CheckReport &report)
{
    Checklist checklist;
    checklist.sandbox = target.sandbox;
    checklist.kit = target.kitName;
    std::optional<kit::Kit> kit;
    QString kitProblem;
    const QString kitDir = target.record ? target.record->kitDirectory : QString();
    if (kitDir.isEmpty()) {
        kitProblem = QStringLiteral("Paddock has no record of this sandbox's kit.");
    } else {
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(kitDir, {});
        if (loaded.ok())
            kit = loaded.kit;
        else
            kitProblem = QStringLiteral("The kit %1 no longer loads.").arg(kitDir);
    }

    qCInfo(lcChecklist) << "verifying sandbox" << target.sandbox;
    QList<std::function<CheckResult()>> checks{
        [&] { return checkCredentials(runtime, target.sandbox, kit, kitProblem); },
        [&] { return checkBlocked(runtime, target.sandbox, options.eventWaitMs); },
        [&] { return checkWorkspace(runtime, target.sandbox, target.workspace); },
        [&] { return checkLog(target.sandbox, target.kitName, target.startedAt, target.record); },
        [&] { return checkKey(options.keyTest, kit, kitDir); },
    };
    if (target.agentRules)
        checks << [&] { return checkAgentRules(*target.agentRules, target.sandbox); };
    for (const std::function<CheckResult()> &check : checks) {
        checklist.checks << check();
        if (report)
            report(checklist.checks.constLast());
    }
    return checklist;
}

} // namespace paddock::sandbox
