// SPDX-License-Identifier: GPL-3.0-or-later
// What the attack tests share beyond SandboxFixture: reading what a probe printed inside a
// sandbox, writing hostile kits, a host-side server that records every byte that reaches it,
// running the CLI while the test's own servers keep answering, and looking at the daemon from
// outside (its descriptors, its peak memory).
#pragma once

#include "SandboxFixture.h"
#include "TestFiles.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QHostAddress>
#include <QProcess>
#include <QString>
#include <QtTest>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace paddock::test {

/** The folder of the attack tests' scripts, which a sandbox reads as a read-only extra path. */
inline QString securityScripts()
{
    return QStringLiteral(PADDOCK_SOURCE_DIR "/tests/support/probes");
}
inline QString securityScript(const QString &name)
{
    return securityScripts() + QLatin1Char('/') + name;
}

/** "NAME RESULT" per line, as the probes print: NAME → RESULT (the rest of the line). */
inline QHash<QString, QString> probeResults(const QString &out)
{
    QHash<QString, QString> results;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString trimmed = line.trimmed();
        results.insert(trimmed.section(QLatin1Char(' '), 0, 0), trimmed.section(QLatin1Char(' '), 1));
    }
    return results;
}

/**
 * A kit named @p name running `sh -c` with @p extra appended (YAML at the top level, such as
 * `permissions:` or `ports:`), written to @p dir.
 */
inline bool writeShellKit(const QString &dir, const QString &name, const QString &extra = {})
{
    return writeFile(dir + QStringLiteral("/spec.yaml"), shellKitSpec(name, extra));
}

/** Runs @p program while this thread's event loop goes on, so in-process servers answer. */
inline Finished runServing(const QProcessEnvironment &env, const QString &cwd, const QString &program,
                           const QStringList &arguments, const QByteArray &input = {}, int timeoutMs = 180000)
{
    ProcessOptions options;
    options.environment = env;
    options.workingDirectory = cwd;
    options.input = input;
    options.timeoutMs = timeoutMs;
    options.serveEvents = true;
    return runText(program, arguments, options);
}

/** Open descriptors of process @p pid (its /proc/PID/fd entries). */
inline int openDescriptors(qint64 pid)
{
    return int(QDir(QStringLiteral("/proc/%1/fd").arg(pid)).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size());
}

/** A field of /proc/PID/status in kB (VmHWM: the peak resident memory), or -1. */
inline qint64 statusKb(qint64 pid, const char *field)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(QByteArray(field) + ':'))
            return line.mid(int(qstrlen(field)) + 1).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

/**
 * @brief A TCP server on the host that records every connection and every byte it receives,
 * and answers a complete HTTP request head with 200. It runs on a thread of its own, so the
 * test need not spin an event loop for it: what reached the host is what it recorded.
 */
class RecordingServer
{
public:
    ~RecordingServer() { stop(); }

    bool start(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0)
    {
        sockaddr_storage storage{};
        socklen_t length = 0;
        if (address.protocol() == QAbstractSocket::IPv6Protocol) {
            auto *in6 = reinterpret_cast<sockaddr_in6 *>(&storage);
            in6->sin6_family = AF_INET6;
            const Q_IPV6ADDR raw = address.toIPv6Address();
            std::memcpy(&in6->sin6_addr, &raw, sizeof raw);
            in6->sin6_port = htons(port);
            length = sizeof *in6;
        } else {
            auto *in = reinterpret_cast<sockaddr_in *>(&storage);
            in->sin_family = AF_INET;
            in->sin_addr.s_addr = htonl(address.toIPv4Address());
            in->sin_port = htons(port);
            length = sizeof *in;
        }
        m_listener = ::socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        ::setsockopt(m_listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (m_listener < 0 || ::bind(m_listener, reinterpret_cast<sockaddr *>(&storage), length) != 0 ||
            ::listen(m_listener, 128) != 0 || ::pipe2(m_stop, O_CLOEXEC) != 0)
            return false;
        ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&storage), &length);
        m_port = ntohs(storage.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6 *>(&storage)->sin6_port
                                                     : reinterpret_cast<sockaddr_in *>(&storage)->sin_port);
        m_thread = std::thread([this] { run(); });
        return true;
    }

    void stop()
    {
        if (m_thread.joinable()) {
            [[maybe_unused]] const ssize_t n = ::write(m_stop[1], "x", 1);
            m_thread.join();
        }
        for (int fd : {m_listener, m_stop[0], m_stop[1]}) {
            if (fd >= 0)
                ::close(fd);
        }
        m_listener = m_stop[0] = m_stop[1] = -1;
    }

    quint16 port() const { return m_port; }
    /** How many connections reached it. */
    int connections() const { return m_connections.load(); }
    /** Every byte received, all connections together. */
    QByteArray received() const
    {
        const std::lock_guard lock(m_mutex);
        return m_received;
    }
    void clear()
    {
        const std::lock_guard lock(m_mutex);
        m_received.clear();
        m_connections = 0;
    }

private:
    void run()
    {
        std::vector<pollfd> fds{{m_stop[0], POLLIN, 0}, {m_listener, POLLIN, 0}};
        std::vector<QByteArray> heads{{}, {}};
        while (::poll(fds.data(), nfds_t(fds.size()), -1) >= 0 && !fds[0].revents) {
            if (fds[1].revents) {
                const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
                if (client >= 0) {
                    ++m_connections;
                    fds.push_back({client, POLLIN, 0});
                    heads.emplace_back();
                }
            }
            for (size_t i = 2; i < fds.size(); ++i) {
                if (!fds[i].revents)
                    continue;
                char buffer[16384];
                const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
                if (n > 0) {
                    const std::lock_guard lock(m_mutex);
                    m_received.append(buffer, n);
                    heads[i].append(buffer, n);
                }
                if (n > 0 && heads[i].contains("\r\n\r\n")) {
                    static const char answer[] =
                        "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n";
                    [[maybe_unused]] const ssize_t w = ::send(fds[i].fd, answer, sizeof answer - 1, MSG_NOSIGNAL);
                    heads[i].clear();
                }
                if (n <= 0) {
                    ::close(fds[i].fd);
                    fds.erase(fds.begin() + qsizetype(i));
                    heads.erase(heads.begin() + qsizetype(i));
                    --i;
                }
            }
        }
        for (size_t i = 2; i < fds.size(); ++i)
            ::close(fds[i].fd);
    }

    int m_listener = -1;
    int m_stop[2] = {-1, -1};
    quint16 m_port = 0;
    std::thread m_thread;
    std::atomic<int> m_connections{0};
    mutable std::mutex m_mutex;
    QByteArray m_received;
};

} // namespace paddock::test
