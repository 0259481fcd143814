// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace paddock::secrets {

/**
 * @brief Names one provider key: a service (as kits name it, e.g. "anthropic"), either
 * global or scoped to one sandbox.
 *
 * In the OS keychain every Paddock entry lives under the keychain service "paddock" with
 * the key "global/SERVICE" or "sandbox/NAME/SERVICE". Keys with any other first segment
 * (e.g. "internal/...") hold Paddock's own key material and are never listed as secrets.
 * A sandbox-scoped secret takes precedence over the global one of the same service.
 */
struct SecretId
{
    QString service;
    QString sandbox; ///< empty for a global secret

    static SecretId global(const QString &service) { return SecretId{service, QString()}; }
    static SecretId forSandbox(const QString &sandbox, const QString &service) { return SecretId{service, sandbox}; }

    bool isGlobal() const { return sandbox.isEmpty(); }
    /** The key under the keychain service "paddock". */
    QString keychainKey() const;
    /** Inverse of keychainKey(); nullopt for keys that do not name a secret. */
    static std::optional<SecretId> fromKeychainKey(const QString &key);
    /** "SERVICE" or "NAME/SERVICE", the form the CLI prints and accepts. */
    QString displayName() const;
    /** The command that stores it: `paddock secret set [--sandbox NAME] SERVICE`. */
    QString setCommand() const;
    /** Empty when both names are usable, otherwise one sentence saying what is wrong. */
    QString validate() const;

    friend bool operator==(const SecretId &, const SecretId &) = default;
};

/** True for names of letters, digits, '.', '_' and '-' (1 to 64 characters, not "." or ".."). */
bool isValidName(const QString &name);

/** The keychain service every Paddock entry is stored under. */
inline constexpr char kKeychainService[] = "paddock";

} // namespace paddock::secrets
