// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/SecretIndex.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace paddock::secrets {
namespace {

QString positioned(const QString &file, const YAML::Mark &mark, const QString &message)
{
    // yaml-cpp counts lines from 0 and uses -1 when it has no position.
    if (mark.line < 0)
        return QStringLiteral("%1: %2").arg(file, message);
    return QStringLiteral("%1:%2: %3").arg(file).arg(mark.line + 1).arg(message);
}

bool lessThan(const SecretId &a, const SecretId &b)
{
    if (a.isGlobal() != b.isGlobal())
        return a.isGlobal();
    if (a.sandbox != b.sandbox)
        return a.sandbox < b.sandbox;
    return a.service < b.service;
}

} // namespace

SecretIndex::SecretIndex(const QString &path) : m_path(path) {}

QString SecretIndex::defaultPath()
{
    return paths::configDir() + QStringLiteral("/secrets.yaml");
}

std::optional<QList<SecretId>> SecretIndex::read(QString *error) const
{
    QList<SecretId> ids;
    QFile file(m_path);
    if (!file.exists())
        return ids;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(m_path, file.errorString());
        return std::nullopt;
    }
    const QByteArray text = file.readAll();
    try {
        const YAML::Node root = YAML::Load(text.toStdString());
        if (root.IsNull())
            return ids;
        if (!root.IsMap())
            throw YAML::Exception(root.Mark(), "expected a mapping with 'global' and 'sandboxes'");
        auto names = [](const YAML::Node &list, const QString &sandbox, QList<SecretId> &out) {
            if (!list || list.IsNull())
                return;
            if (!list.IsSequence())
                throw YAML::Exception(list.Mark(), "expected a list of service names");
            for (const YAML::Node &item : list) {
                if (!item.IsScalar())
                    throw YAML::Exception(item.Mark(), "expected a service name");
                const SecretId id{QString::fromStdString(item.Scalar()), sandbox};
                if (const QString problem = id.validate(); !problem.isEmpty())
                    throw YAML::Exception(item.Mark(), problem.toStdString());
                if (!out.contains(id))
                    out.append(id);
            }
        };
        names(root["global"], QString(), ids);
        if (const YAML::Node sandboxes = root["sandboxes"]; sandboxes && !sandboxes.IsNull()) {
            if (!sandboxes.IsMap())
                throw YAML::Exception(sandboxes.Mark(), "expected a mapping from sandbox name to service names");
            for (const auto &entry : sandboxes) {
                const QString sandbox = QString::fromStdString(entry.first.as<std::string>());
                if (!isValidName(sandbox))
                    throw YAML::Exception(entry.first.Mark(), "not a usable sandbox name");
                names(entry.second, sandbox, ids);
            }
        }
    } catch (const YAML::Exception &e) {
        if (error)
            *error = positioned(m_path, e.mark, QString::fromStdString(e.msg));
        return std::nullopt;
    }
    std::sort(ids.begin(), ids.end(), lessThan);
    return ids;
}

bool SecretIndex::add(const SecretId &id, QString *error) const
{
    std::optional<QList<SecretId>> ids = read(error);
    if (!ids)
        return false;
    if (ids->contains(id))
        return true;
    ids->append(id);
    return write(*ids, error);
}

bool SecretIndex::remove(const SecretId &id, QString *error) const
{
    std::optional<QList<SecretId>> ids = read(error);
    if (!ids)
        return false;
    if (ids->removeAll(id) == 0)
        return true;
    return write(*ids, error);
}

bool SecretIndex::write(const QList<SecretId> &unsorted, QString *error) const
{
    QList<SecretId> ids = unsorted;
    std::sort(ids.begin(), ids.end(), lessThan);

    YAML::Emitter out;
    out << YAML::Comment("Names of the secrets Paddock keeps in the OS keychain. Values are never written here.");
    out << YAML::BeginMap;
    out << YAML::Key << "global" << YAML::Value << YAML::BeginSeq;
    for (const SecretId &id : ids)
        if (id.isGlobal())
            out << id.service.toStdString();
    out << YAML::EndSeq;
    out << YAML::Key << "sandboxes" << YAML::Value << YAML::BeginMap;
    QString current;
    bool open = false;
    for (const SecretId &id : ids) {
        if (id.isGlobal())
            continue;
        if (!open || id.sandbox != current) {
            if (open)
                out << YAML::EndSeq;
            out << YAML::Key << id.sandbox.toStdString() << YAML::Value << YAML::BeginSeq;
            current = id.sandbox;
            open = true;
        }
        out << id.service.toStdString();
    }
    if (open)
        out << YAML::EndSeq;
    out << YAML::EndMap;
    out << YAML::EndMap;

    if (!QDir().mkpath(QFileInfo(m_path).absolutePath())) {
        if (error)
            *error = QStringLiteral("cannot create the directory of %1").arg(m_path);
        return false;
    }
    QByteArray text(out.c_str(), qsizetype(out.size()));
    text.append('\n');
    return writeFileAtomically(m_path, text, error, 0600);
}

} // namespace paddock::secrets
