// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/FileError.h"
#include "proxy/UpstreamProxy.h"

#include <QProcessEnvironment>
#include <QString>

#include <optional>
#include <variant>

namespace paddock::network {

/**
 * @brief Paddock's network settings on this computer, `configDir()/settings.yaml`:
 *
 *     upstreamProxy: http://alice@proxy.corp.example:3128
 *     noProxy: localhost, .corp.example, 10.0.0.0/8
 *
 * The proxy's password is never in the file: it is the keychain's (the key material
 * "upstream-proxy-password"). Written atomically; read strictly (an unknown key is an error
 * naming its line).
 */
struct SettingsFile
{
    QString upstreamProxy; ///< a URL without its password; empty: none set here
    QString noProxy;       ///< NO_PROXY's syntax; empty: none set here

    static QString path();
    /** The file as it is (both empty when it does not exist), or where it is wrong. */
    static std::variant<SettingsFile, FileError> load(const QString &path = SettingsFile::path());
    bool save(QString *error, const QString &path = SettingsFile::path()) const;
};

/** The keychain entry (SecretStore key material) that holds the upstream proxy's password. */
inline constexpr const char *kUpstreamPasswordKey = "upstream-proxy-password";

/** @brief The proxy the desktop is set to use: GNOME's `org.gnome.system.proxy`, read with gsettings. */
struct DesktopProxy
{
    QString url;     ///< empty: none (mode none, or gsettings absent)
    QString noProxy; ///< its ignore-hosts, comma-separated
    /** Set when the desktop names a proxy Paddock cannot use (an automatic configuration URL). */
    QString problem;

    /** Asks gsettings (at most a second); nothing when it is absent or says "none". */
    static DesktopProxy read();
};

/**
 * @brief The upstream proxy in force and where it comes from, in order: the settings file, the
 * environment the process started with (HTTPS_PROXY/https_proxy, then ALL_PROXY/all_proxy, then
 * http_proxy, which curl reads in lower case only; NO_PROXY/no_proxy), then the desktop's
 * settings. None of them: straight out.
 */
struct UpstreamChoice
{
    std::optional<proxy::UpstreamProxy> proxy; ///< without its addresses; with its password when one was given
    QString source;  ///< "the settings", "HTTPS_PROXY", "GNOME's proxy settings"; empty with no proxy
    QString problem; ///< a setting that could not be used, and why
};

/** Chooses from @p file, @p environment and @p desktop (asked only when the others say nothing). */
UpstreamChoice chooseUpstream(const SettingsFile &file, const QProcessEnvironment &environment,
                              const std::function<DesktopProxy()> &desktop);

/** Resolves @p proxy's own name (blocking): its addresses, or `unresolved` saying why. */
void resolveUpstream(proxy::UpstreamProxy &proxy);

} // namespace paddock::network
