// SPDX-License-Identifier: GPL-3.0-or-later
// A plain HTTP server on 127.0.0.1 for the tests to reach through the proxy or a sandbox.
#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace paddock::test {

/** @brief python3's http.server on 127.0.0.1 and a port of its choosing. */
class LocalUpstream
{
public:
    /** What hello.txt holds when the upstream serves its own folder. */
    static constexpr const char *kBody = "hello from the upstream\n";

    LocalUpstream() = default;
    ~LocalUpstream();
    LocalUpstream(const LocalUpstream &) = delete;
    LocalUpstream &operator=(const LocalUpstream &) = delete;

    /**
     * Serves @p directory, or when it is empty a folder of its own holding hello.txt (kBody);
     * true once the server said which port it listens on.
     */
    bool start(const QString &directory = {});
    quint16 port() const { return m_port; }

private:
    QTemporaryDir m_root;
    QProcess m_process;
    quint16 m_port = 0;
};

} // namespace paddock::test
