// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/SecretSources.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::secrets {

/**
 * @brief A secret of the user's that sandboxes hold only as a placeholder.
 *
 * `paddock secret set-custom` stores the value in the keychain (as key material, so no kit or
 * binding can name it) and this description in `custom-secrets.json`: the hosts the proxy
 * replaces the placeholder for, where (one header, any header, and the body too), the variable
 * sandboxes get, and the placeholder itself. A placeholder is worthless outside Paddock's proxy,
 * so it is not a secret; the value is in no file. With a @c source (`--command`, `--ref`) the
 * keychain holds nothing: the daemon runs the source when a request needs the value, as it does
 * for `secret set --command` (SourceCache).
 */
struct CustomSecret
{
    QString name;                       ///< as SecretId names a service: letters, digits, '.', '_', '-'
    QStringList hosts;                  ///< lower case; "api.x.com" or "*.x.com"
    QString header;                     ///< the header the placeholder is replaced in; empty with anywhere
    bool anywhere = false;              ///< in every header
    bool body = false;                  ///< also in text, JSON and form bodies
    QString variable;                   ///< the sandboxes' variable holding the placeholder
    QString placeholder;                ///< "paddock-ph-" and 32 random hex digits, made once per secret
    QString sandbox;                    ///< empty: every sandbox; else that sandbox only
    std::optional<SecretSource> source; ///< where the value comes from when not the keychain

    /** Empty when usable, else one sentence saying what is wrong. */
    QString validate() const;
    /** Whether sandbox @p sandbox holds the placeholder and gets it replaced. */
    bool appliesTo(const QString &sandboxName) const { return sandbox.isEmpty() || sandbox == sandboxName; }
    /** The name of the value under the keychain's key material. */
    QString keyMaterialName() const { return QStringLiteral("custom-") + name; }
    /** What the daemon's SourceCache holds a value from @c source under. */
    SecretId sourceId() const { return SecretId::global(keyMaterialName()); }

    /** The form of custom-secrets.json and of `secret.list`: no value, ever. */
    QJsonObject toJson() const;
    /** What toJson() gave; validate() says whether it is usable, @p problem why its source is not. */
    static CustomSecret fromJson(const QJsonObject &object, QString *problem);

    /** A new placeholder: "paddock-ph-" and 32 hex digits from the system's random source. */
    static QString newPlaceholder();
    /** True for a header name (an HTTP token), at most 64 characters. */
    static bool isHeaderName(const QString &name);
    /** True for an environment variable's name: [A-Za-z_][A-Za-z0-9_]*, at most 128 characters. */
    static bool isVariableName(const QString &name);
    /** True for "host.example" or "*.host.example", lower-case letters, digits, '-' and '.'. */
    static bool isHost(const QString &host);
};

/**
 * @brief `~/.config/paddock/custom-secrets.json`: the custom secrets, without values.
 *
 * Written only by the user's CLI (0600, atomically); a kit or a bundle cannot name one. A file
 * larger than 1 MiB or with an entry that does not validate is refused whole.
 */
class CustomSecrets
{
public:
    static QString defaultPath();
    explicit CustomSecrets(QString path = defaultPath()) : m_path(std::move(path)) {}

    /** Every custom secret; nullopt with @p error when the file cannot be used. No file: none. */
    std::optional<QList<CustomSecret>> read(QString *error = nullptr) const;
    std::optional<CustomSecret> find(const QString &name) const;
    /** Adds or replaces the secret of the same name. */
    bool set(const CustomSecret &secret, QString *error);
    /** Removes @p name; @p removed says whether there was one. */
    bool remove(const QString &name, bool *removed, QString *error);

private:
    bool write(const QList<CustomSecret> &secrets, QString *error) const;
    QString m_path;
};

} // namespace paddock::secrets
