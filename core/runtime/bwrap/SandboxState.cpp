// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/bwrap/SandboxState.h"
#include "runtime/SandboxSpecJson.h"

#include "common/AtomicFile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::runtime::bwrap {
namespace {

struct ProcStat
{
    char state = '?';
    quint64 startTime = 0;
};

std::optional<ProcStat> readProcStat(qint64 pid)
{
    if (pid <= 0)
        return std::nullopt;
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray text = file.readAll();
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return std::nullopt;
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    // fields[0] is field 3 (state); the start time is field 22.
    if (fields.size() < 20 || fields[0].isEmpty())
        return std::nullopt;
    bool ok = false;
    const quint64 start = fields[19].toULongLong(&ok);
    if (!ok)
        return std::nullopt;
    return ProcStat{fields[0].at(0), start};
}

QString dateText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime dateFrom(const QJsonValue &value)
{
    return value.toString().isEmpty() ? QDateTime() : QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

QJsonObject identityToJson(const ProcessIdentity &identity)
{
    return {{QStringLiteral("pid"), identity.pid}, {QStringLiteral("startTime"), QString::number(identity.startTime)}};
}

ProcessIdentity identityFrom(const QJsonValue &value)
{
    const QJsonObject object = value.toObject();
    return {object.value(QStringLiteral("pid")).toInteger(),
            object.value(QStringLiteral("startTime")).toString().toULongLong()};
}

} // namespace

std::optional<ProcessIdentity> ProcessIdentity::of(qint64 pid)
{
    const auto stat = readProcStat(pid);
    if (!stat)
        return std::nullopt;
    return ProcessIdentity{pid, stat->startTime};
}

bool ProcessIdentity::isAlive() const
{
    const auto stat = readProcStat(pid);
    // A zombie has finished; only its parent has not collected it yet.
    return stat && stat->startTime == startTime && stat->state != 'Z' && stat->state != 'X';
}

QJsonObject BwrapOptions::toJson() const
{
    QJsonObject object{{QStringLiteral("uid"), uid}, {QStringLiteral("gid"), gid}};
    if (!workspaceSource.isEmpty()) {
        object.insert(QStringLiteral("workspaceSource"), workspaceSource);
        object.insert(QStringLiteral("workspaceTarget"), workspaceTarget);
    }
    return object;
}

BwrapOptions BwrapOptions::fromJson(const QJsonObject &object)
{
    BwrapOptions options;
    options.uid = object.value(QStringLiteral("uid")).toInt(kRegularUid);
    options.gid = object.value(QStringLiteral("gid")).toInt(kRegularGid);
    options.workspaceSource = object.value(QStringLiteral("workspaceSource")).toString();
    options.workspaceTarget = object.value(QStringLiteral("workspaceTarget")).toString();
    return options;
}

QJsonObject RootChoice::toJson() const
{
    const char *names[] = {"read-only-host", "host", "image"};
    QJsonObject object{{QStringLiteral("base"), QLatin1String(names[int(base)])}};
    if (base == Base::Image) {
        object.insert(QStringLiteral("image"), image);
        object.insert(QStringLiteral("imageId"), imageId);
        object.insert(QStringLiteral("layersDir"), layersDir);
        object.insert(QStringLiteral("layers"), QJsonArray::fromStringList(layers));
    }
    if (base == Base::Host)
        object.insert(QStringLiteral("mount"), fuse ? QStringLiteral("fuse") : QStringLiteral("kernel"));
    return object;
}

RootChoice RootChoice::fromJson(const QJsonObject &object)
{
    RootChoice root;
    const QString base = object.value(QStringLiteral("base")).toString();
    if (base == QLatin1String("host")) {
        root.base = Base::Host;
        root.fuse = object.value(QStringLiteral("mount")).toString() != QLatin1String("kernel");
    } else if (base == QLatin1String("image")) {
        root.base = Base::Image;
        root.image = object.value(QStringLiteral("image")).toString();
        root.imageId = object.value(QStringLiteral("imageId")).toString();
        root.layersDir = object.value(QStringLiteral("layersDir")).toString();
        for (const QJsonValue &layer : object.value(QStringLiteral("layers")).toArray())
            root.layers << layer.toString();
    }
    return root;
}

QJsonObject SandboxState::toJson() const
{
    QJsonObject object{
        {QStringLiteral("version"), 1},
        {QStringLiteral("runtime"), QStringLiteral("bwrap")},
        {QStringLiteral("spec"), paddock::runtime::toJson(spec)},
        {QStringLiteral("options"), options.toJson()},
        {QStringLiteral("root"), root.toJson()},
        {QStringLiteral("createdAt"), dateText(createdAt)},
        {QStringLiteral("init"), identityToJson(init)},
        {QStringLiteral("bwrap"), identityToJson(bwrap)},
        {QStringLiteral("logWriter"), identityToJson(logWriter)},
        {QStringLiteral("startedAt"), dateText(startedAt)},
        {QStringLiteral("finishedAt"), dateText(finishedAt)},
    };
    if (exitCode)
        object.insert(QStringLiteral("exitCode"), *exitCode);
    QJsonArray volumeList;
    for (const SandboxVolume &volume : volumes)
        volumeList.append(QJsonObject{{QStringLiteral("path"), volume.path},
                                      {QStringLiteral("tmpfs"), volume.tmpfs},
                                      {QStringLiteral("size"), volume.size},
                                      {QStringLiteral("mode"), volume.mode}});
    if (!volumeList.isEmpty())
        object.insert(QStringLiteral("volumes"), volumeList);
    return object;
}

std::optional<SandboxState> SandboxState::fromJson(const QJsonObject &object, QString *error)
{
    if (object.value(QStringLiteral("version")).toInt() != 1 || !object.value(QStringLiteral("spec")).isObject()) {
        if (error)
            *error = QStringLiteral("not a Paddock sandbox state (version 1)");
        return std::nullopt;
    }
    SandboxState state;
    state.spec = sandboxSpecFromJson(object.value(QStringLiteral("spec")).toObject());
    state.options = BwrapOptions::fromJson(object.value(QStringLiteral("options")).toObject());
    state.root = RootChoice::fromJson(object.value(QStringLiteral("root")).toObject());
    state.createdAt = dateFrom(object.value(QStringLiteral("createdAt")));
    state.init = identityFrom(object.value(QStringLiteral("init")));
    state.bwrap = identityFrom(object.value(QStringLiteral("bwrap")));
    state.logWriter = identityFrom(object.value(QStringLiteral("logWriter")));
    state.startedAt = dateFrom(object.value(QStringLiteral("startedAt")));
    state.finishedAt = dateFrom(object.value(QStringLiteral("finishedAt")));
    if (object.contains(QStringLiteral("exitCode")))
        state.exitCode = object.value(QStringLiteral("exitCode")).toInt();
    for (const QJsonValue &value : object.value(QStringLiteral("volumes")).toArray()) {
        const QJsonObject volume = value.toObject();
        state.volumes.append(
            {volume.value(QStringLiteral("path")).toString(), volume.value(QStringLiteral("tmpfs")).toBool(),
             volume.value(QStringLiteral("size")).toString(), volume.value(QStringLiteral("mode")).toString()});
    }
    return state;
}

std::optional<SandboxState> readState(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!document.isObject()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, parseError.errorString());
        return std::nullopt;
    }
    QString why;
    auto state = SandboxState::fromJson(document.object(), &why);
    if (!state && error)
        *error = QStringLiteral("%1: %2").arg(path, why);
    return state;
}

bool writeState(const QString &path, const SandboxState &state, QString *error)
{
    // A disposable sandbox goes when its command ends, and after a crash with what it left:
    // its state need not wait for the disk at each step.
    return writeFileAtomically(path, QJsonDocument(state.toJson()).toJson(QJsonDocument::Indented), error, 0600,
                               state.spec.disposable ? Durability::Unsynced : Durability::Synced);
}

BwrapStatus readBwrapStatus(const QString &path)
{
    BwrapStatus status;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return status;
    // One JSON object per line: the namespaces and child pid at start, the exit code at the end.
    // A line still being written is incomplete and is read again next time.
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        const QJsonObject object = QJsonDocument::fromJson(lines[i]).object();
        if (object.contains(QStringLiteral("child-pid")))
            status.childPid = object.value(QStringLiteral("child-pid")).toInteger();
        if (object.contains(QStringLiteral("exit-code")))
            status.exitCode = object.value(QStringLiteral("exit-code")).toInt();
    }
    return status;
}

} // namespace paddock::runtime::bwrap
