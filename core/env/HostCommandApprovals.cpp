// SPDX-License-Identifier: GPL-3.0-or-later
#include "env/HostCommandApprovals.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace paddock::env {
namespace {
constexpr qint64 kMaxApprovalsBytes = 1024 * 1024;
}

HostCommandApprovals::HostCommandApprovals(const QString &path) : m_path(path)
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxApprovalsBytes)
        return; // none approved yet, or not a file of ours: every command asks
    const QJsonArray keys = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("approved")).toArray();
    for (const QJsonValue &key : keys) {
        if (key.toString().size() == 64)
            m_keys.insert(key.toString());
    }
}

QString HostCommandApprovals::defaultPath()
{
    return paths::stateDir() + QStringLiteral("/env-approvals.json");
}

QString HostCommandApprovals::keyOf(const HostCommand &command)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &part : {QFileInfo(command.file).absoluteFilePath(), command.phase, command.command}) {
        const QByteArray bytes = part.toUtf8();
        hash.addData(QByteArray::number(bytes.size()) + ':');
        hash.addData(bytes);
    }
    return QString::fromLatin1(hash.result().toHex());
}

bool HostCommandApprovals::isApproved(const HostCommand &command) const
{
    return m_keys.contains(keyOf(command));
}

bool HostCommandApprovals::approve(const HostCommand &command, QString *error)
{
    m_keys.insert(keyOf(command));
    QStringList keys(m_keys.begin(), m_keys.end());
    keys.sort();
    const QJsonObject root{{QStringLiteral("approved"), QJsonArray::fromStringList(keys)}};
    if (!paths::ensurePrivateDir(QFileInfo(m_path).absolutePath(), error))
        return false;
    return writeFileAtomically(m_path, QJsonDocument(root).toJson(), error, 0600);
}

bool runApprovedCommand(const HostCommand &command, const HostCommandApprovals &approvals, const QString &sandbox,
                        bool forwardOutput, QString *error)
{
    if (!approvals.isApproved(command)) {
        *error = QStringLiteral("the %1 command is not approved").arg(command.phase);
        return false;
    }
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SBX_SANDBOX_NAME"), sandbox);
    environment.insert(QStringLiteral("PADDOCK_SANDBOX"), sandbox);
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QFileInfo(command.file).absolutePath());
    if (forwardOutput) {
        process.setProcessChannelMode(QProcess::ForwardedChannels);
        process.setInputChannelMode(QProcess::ForwardedInputChannel);
    } else {
        process.setStandardOutputFile(QProcess::nullDevice());
        process.setStandardErrorFile(QProcess::nullDevice());
    }
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command.command});
    if (!process.waitForFinished(-1) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("the %1 command failed (exit %2)").arg(command.phase).arg(process.exitCode());
        return false;
    }
    return true;
}

} // namespace paddock::env
