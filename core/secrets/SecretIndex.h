// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/SecretId.h"

#include <QList>
#include <QString>

#include <optional>

namespace paddock::secrets {

/**
 * @brief `secrets.yaml`: the names of the secrets Paddock keeps in the keychain.
 *
 * QtKeychain cannot enumerate entries, so the names are kept here; values never are.
 * Every method reads the file afresh, so two processes (the CLI and the daemon) see each
 * other's changes; every write is atomic.
 *
 * @code
 * global:
 *   - anthropic
 * sandboxes:
 *   web:
 *     - github
 * @endcode
 */
class SecretIndex
{
public:
    explicit SecretIndex(const QString &path);
    /** `paths::configDir()/secrets.yaml`. */
    static QString defaultPath();
    QString path() const { return m_path; }

    /** The names in the file, sorted (global first); nullopt with @p error when unreadable. */
    std::optional<QList<SecretId>> read(QString *error = nullptr) const;
    bool add(const SecretId &id, QString *error = nullptr) const;
    bool remove(const SecretId &id, QString *error = nullptr) const;

private:
    bool write(const QList<SecretId> &ids, QString *error) const;

    QString m_path;
};

} // namespace paddock::secrets
