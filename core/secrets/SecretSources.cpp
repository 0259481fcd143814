// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/SecretSources.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "secrets/Masking.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <mutex>

namespace paddock::secrets {
namespace {

/** The first line of @p text that says something, cut to a readable length. */
QString firstLine(const QByteArray &text)
{
    for (const QByteArray &line : text.split('\n')) {
        const QString trimmed = QString::fromUtf8(line).trimmed();
        if (!trimmed.isEmpty())
            return trimmed.left(200);
    }
    return QString();
}

std::mutex g_statusMutex;

} // namespace

SourceRun runSource(const SecretSource &source, int timeoutMs)
{
    SourceRun run;
    const QString name = source.program();
    QString problem;
    QStringList argv = source.argv(&problem);
    if (argv.isEmpty()) {
        run.error = QStringLiteral("%1 failed: %2").arg(name, problem);
        return run;
    }
    QProcess process;
    process.setProgram(argv.takeFirst());
    process.setArguments(argv);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(QIODevice::ReadOnly);
    if (!process.waitForStarted(timeoutMs)) {
        run.error = QStringLiteral("%1 failed: %2").arg(name, process.errorString());
        return run;
    }
    QByteArray out;
    QElapsedTimer clock;
    clock.start();
    bool finished = false;
    while (!finished && clock.elapsed() < timeoutMs) {
        finished =
            process.waitForFinished(int(std::max<qint64>(1, std::min<qint64>(200, timeoutMs - clock.elapsed()))));
        out += process.readAllStandardOutput();
        if (out.size() > SecretSource::kMaxValueBytes)
            break;
    }
    const QString stderrLine = firstLine(process.readAllStandardError());
    if (!finished) {
        process.kill();
        process.waitForFinished(2000);
        wipe(out);
        run.error =
            out.size() > SecretSource::kMaxValueBytes
                ? QStringLiteral("%1 failed: it printed more than %2 bytes").arg(name).arg(SecretSource::kMaxValueBytes)
                : QStringLiteral("%1 failed: no answer within %2 s").arg(name).arg(timeoutMs / 1000);
        return run;
    }
    out += process.readAllStandardOutput();
    const QString detail = stderrLine.isEmpty() ? QString() : QStringLiteral(": ") + stderrLine;
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        wipe(out);
        run.error = process.exitStatus() != QProcess::NormalExit
                        ? QStringLiteral("%1 failed: it crashed%2").arg(name, detail)
                        : QStringLiteral("%1 failed: exit status %2%3").arg(name).arg(process.exitCode()).arg(detail);
        return run;
    }
    run.value = out.trimmed();
    wipe(out);
    if (run.value.isEmpty())
        run.error = QStringLiteral("%1 failed: it printed nothing%2").arg(name, detail);
    return run;
}

SecretSources::SecretSources(const QString &path) : m_path(path) {}

QString SecretSources::defaultPath()
{
    return paths::configDir() + QStringLiteral("/secret-sources.json");
}

std::optional<QList<std::pair<SecretId, SecretSource>>> SecretSources::read(QString *error) const
{
    QList<std::pair<SecretId, SecretSource>> sources;
    QFile file(m_path);
    if (!file.exists())
        return sources;
    const auto fail = [&](const QString &why) -> std::optional<QList<std::pair<SecretId, SecretSource>>> {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_path, why);
        return std::nullopt;
    };
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    if (file.size() > kMaxFileBytes)
        return fail(QStringLiteral("larger than %1 bytes").arg(kMaxFileBytes));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(kMaxFileBytes), &parseError);
    if (!document.isObject())
        return fail(parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                 : QStringLiteral("expected a JSON object"));
    const QJsonObject root = document.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::optional<SecretId> id = SecretId::fromKeychainKey(it.key());
        if (!id || !id->validate().isEmpty())
            return fail(QStringLiteral("\"%1\" names no secret").arg(it.key().left(80)));
        QString why;
        const std::optional<SecretSource> source = SecretSource::fromJson(it.value().toObject(), &why);
        if (!source)
            return fail(QStringLiteral("%1: %2").arg(id->displayName(), why));
        sources.append({*id, *source});
    }
    return sources;
}

std::optional<SecretSource> SecretSources::find(const SecretId &id) const
{
    const auto all = read();
    if (!all)
        return std::nullopt;
    for (const auto &[each, source] : *all) {
        if (each == id)
            return source;
    }
    return std::nullopt;
}

bool SecretSources::set(const SecretId &id, const SecretSource &source, QString *error) const
{
    std::optional<QList<std::pair<SecretId, SecretSource>>> all = read(error);
    if (!all)
        return false;
    all->removeIf([&id](const auto &entry) { return entry.first == id; });
    all->append({id, source});
    return write(*all, error);
}

bool SecretSources::remove(const SecretId &id, QString *error) const
{
    std::optional<QList<std::pair<SecretId, SecretSource>>> all = read(error);
    if (!all)
        return false;
    if (all->removeIf([&id](const auto &entry) { return entry.first == id; }) == 0)
        return true;
    return write(*all, error);
}

bool SecretSources::write(const QList<std::pair<SecretId, SecretSource>> &sources, QString *error) const
{
    QJsonObject root;
    for (const auto &[id, source] : sources)
        root.insert(id.keychainKey(), source.toJson());
    if (!paths::ensurePrivateDir(QFileInfo(m_path).absolutePath(), error))
        return false;
    return writeFileAtomically(m_path, QJsonDocument(root).toJson(QJsonDocument::Indented), error, 0600);
}

QString SourceStatus::defaultPath()
{
    return paths::stateDir() + QStringLiteral("/secret-sources-state.json");
}

QHash<QString, SourceStatus> SourceStatus::readAll(const QString &path)
{
    QHash<QString, SourceStatus> all;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > SecretSources::kMaxFileBytes)
        return all;
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        const QJsonObject object = it.value().toObject();
        SourceStatus status;
        status.resolved = QDateTime::fromString(object.value(QLatin1String("resolved")).toString(), Qt::ISODate);
        status.failed = QDateTime::fromString(object.value(QLatin1String("failed")).toString(), Qt::ISODate);
        status.error = object.value(QLatin1String("error")).toString().left(400);
        all.insert(it.key(), status);
    }
    return all;
}

void SourceStatus::record(const SecretId &id, bool ok, const QString &error, const QString &path)
{
    const std::lock_guard<std::mutex> lock(g_statusMutex);
    QFile file(path);
    QJsonObject root;
    if (file.open(QIODevice::ReadOnly) && file.size() <= SecretSources::kMaxFileBytes)
        root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject entry = root.value(id.keychainKey()).toObject();
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    if (ok) {
        entry.insert(QStringLiteral("resolved"), now);
    } else {
        entry.insert(QStringLiteral("failed"), now);
        entry.insert(QStringLiteral("error"), error);
    }
    root.insert(id.keychainKey(), entry);
    QString problem;
    if (paths::ensurePrivateDir(QFileInfo(path).absolutePath(), &problem))
        writeFileAtomically(path, QJsonDocument(root).toJson(QJsonDocument::Compact), &problem, 0600);
}

} // namespace paddock::secrets
