// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a test executable inside its own D-Bus session with its own GNOME Keyring, so the
// tests never see (or write into) the keyring of the person running them and need nothing
// set up around them. Used as:
//
//     PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestClass, QCoreApplication)
//
// or, for a main() of its own, paddock::secrets::test::enterPrivateKeyring(argc, argv) first.

#include <QByteArray>
#include <QStandardPaths>
#include <QString>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace paddock::secrets::test {

inline constexpr char kInsideVariable[] = "PADDOCK_TEST_PRIVATE_KEYRING";
inline constexpr char kUnavailableVariable[] = "PADDOCK_TEST_KEYRING_UNAVAILABLE";

/**
 * Re-runs this executable under `dbus-run-session` with a fresh, unlocked keyring whose files
 * live in a temporary directory (removed afterwards) and exits with its status. Returns at
 * once when already inside such a session. When the tools are missing it returns with
 * kUnavailableVariable set to the reason, for the tests' PADDOCK_NEED (Needs.h).
 */
inline void enterPrivateKeyring(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet(kInsideVariable))
        return;
    const QString dbus = QStandardPaths::findExecutable(QStringLiteral("dbus-run-session"));
    const QString keyring = QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon"));
    if (dbus.isEmpty() || keyring.isEmpty()) {
        qputenv(kUnavailableVariable, "dbus-run-session and gnome-keyring-daemon are needed (packages dbus and "
                                      "gnome-keyring)");
        return;
    }
    char dirTemplate[] = "/tmp/paddock-keyring-XXXXXX";
    if (!::mkdtemp(dirTemplate)) {
        qputenv(kUnavailableVariable, "cannot create a temporary directory for the keyring");
        return;
    }
    // The keyring keeps its files under XDG_DATA_HOME; a throwaway one gets a new login
    // keyring, created and unlocked with the password on stdin.
    const std::string shellScript =
        "printf 'paddock-test' | XDG_DATA_HOME=\"$PADDOCK_KEYRING_HOME\" gnome-keyring-daemon --unlock "
        "--components=secrets >/dev/null 2>&1; exec \"$@\"";
    ::setenv(kInsideVariable, "1", 1);
    ::setenv("PADDOCK_KEYRING_HOME", dirTemplate, 1);

    std::vector<char *> args;
    std::string dbusPath = dbus.toStdString();
    std::string sh = "sh", dashC = "-c", dashes = "--", zero = "keyring-session";
    args.push_back(dbusPath.data());
    args.push_back(dashes.data());
    args.push_back(sh.data());
    args.push_back(dashC.data());
    args.push_back(const_cast<char *>(shellScript.c_str()));
    args.push_back(zero.data());
    // The executable itself, wherever it was started from.
    char self[4096] = {};
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    args.push_back(length > 0 ? self : argv[0]);
    for (int i = 1; i < argc; ++i)
        args.push_back(argv[i]);
    args.push_back(nullptr);

    const pid_t child = ::fork();
    if (child == 0) {
        ::execv(args[0], args.data());
        std::perror("dbus-run-session");
        ::_exit(127);
    }
    int status = 0;
    while (child > 0 && ::waitpid(child, &status, 0) < 0) {
    }
    const std::string cleanup = std::string("rm -rf '") + dirTemplate + "'";
    if (std::system(cleanup.c_str()) != 0)
        std::fprintf(stderr, "could not remove %s\n", dirTemplate);
    std::exit(child > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

} // namespace paddock::secrets::test

/** main() of a Qt test that runs in a private keyring session (see enterPrivateKeyring()). */
#define PADDOCK_TEST_MAIN_IN_PRIVATE_KEYRING(TestClass, ApplicationClass)                                              \
    int main(int argc, char **argv)                                                                                    \
    {                                                                                                                  \
        paddock::secrets::test::enterPrivateKeyring(argc, argv);                                                       \
        ApplicationClass app(argc, argv);                                                                              \
        TestClass test;                                                                                                \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
