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

} // namespace paddock::env
