// SPDX-License-Identifier: GPL-3.0-or-later
// A test's private XDG directories: the four folders Paddock reads its configuration, state,
// data and runtime files from, made under a folder of the test's own and named in the
// environment of what the test starts (and, when it asks, of the test process itself).
// Header-only, so that the benchmarks share it without linking paddock_test_support.
#pragma once

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QString>

namespace paddock::test {

/** The folder names under the home, one for each XDG variable. */
struct XdgFolders
{
    QString config;
    QString state;
    QString data;
    QString runtime;

    /** Named after the variables: XDG_CONFIG_HOME, XDG_STATE_HOME, ... */
    static XdgFolders variableNames()
    {
        return {QStringLiteral("XDG_CONFIG_HOME"), QStringLiteral("XDG_STATE_HOME"), QStringLiteral("XDG_DATA_HOME"),
                QStringLiteral("XDG_RUNTIME_DIR")};
    }
    /** config, state, data and run. */
    static XdgFolders shortNames()
    {
        return {QStringLiteral("config"), QStringLiteral("state"), QStringLiteral("data"), QStringLiteral("run")};
    }
};

/** The four XDG variables Paddock reads. */
inline constexpr const char *kXdgVariables[] = {"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME",
                                                "XDG_RUNTIME_DIR"};

/** How to make the folders. */
enum class FolderAccess {
    Default,   ///< as the umask makes them
    OwnerOnly, ///< 0700, as a real XDG_RUNTIME_DIR is
};

/**
 * Makes the XDG folders under @p home and points the variables of @p base at them. Everything
 * else in @p base (by default the test's own environment) stays.
 */
inline QProcessEnvironment isolatedEnvironment(const QString &home,
                                               const XdgFolders &folders = XdgFolders::variableNames(),
                                               FolderAccess access = FolderAccess::Default,
                                               QProcessEnvironment base = QProcessEnvironment::systemEnvironment())
{
    const QString names[] = {folders.config, folders.state, folders.data, folders.runtime};
    for (int i = 0; i < 4; ++i) {
        const QString dir = home + QLatin1Char('/') + names[i];
        QDir().mkpath(dir);
        if (access == FolderAccess::OwnerOnly)
            QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        base.insert(QLatin1String(kXdgVariables[i]), dir);
    }
    return base;
}

/** Points the test process's own XDG variables where @p environment points them. */
inline void useXdgOf(const QProcessEnvironment &environment)
{
    for (const char *name : kXdgVariables)
        qputenv(name, QFile::encodeName(environment.value(QLatin1String(name))));
}

/** Removes the proxy settings of whoever runs the tests, so that curl and the CLI go direct. */
inline void removeProxySettings(QProcessEnvironment &environment)
{
    for (const char *name :
         {"http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"})
        environment.remove(QLatin1String(name));
}

} // namespace paddock::test
