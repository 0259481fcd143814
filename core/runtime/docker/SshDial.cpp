// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/SshDial.h"

#include <QMap>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace paddock::runtime::docker::ssh {
namespace {

constexpr off_t kMessageBytes = 2048;
constexpr int kAcceptTimeoutMs = 30000;
constexpr int kMessagesKept = 64;

std::mutex &mutex()
{
    static std::mutex instance;
    return instance;
}

/** What each ssh said, by its socket's name; the oldest go first. */
QMap<quint64, std::pair<QByteArray, QString>> &messages()
{
    static QMap<quint64, std::pair<QByteArray, QString>> instance;
    return instance;
}

void keepMessage(const QByteArray &name, const QString &text)
{
    static quint64 order = 0;
    const std::lock_guard lock(mutex());
    messages().insert(++order, {name, text});
    while (messages().size() > kMessagesKept)
        messages().erase(messages().begin());
}

QString readMessage(int fd)
{
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= 0)
        return {};
    const off_t from = size > kMessageBytes ? size - kMessageBytes : 0;
    QByteArray text(qsizetype(size - from), '\0');
    const ssize_t n = ::pread(fd, text.data(), size_t(text.size()), from);
    return n > 0 ? QString::fromUtf8(text.left(n)).simplified() : QString();
}

/** The first connection from this very process, or -1 when none came in time. */
int acceptOwn(int listener)
{
    for (;;) {
        pollfd ready{listener, POLLIN, 0};
        if (::poll(&ready, 1, kAcceptTimeoutMs) <= 0)
            return -1;
        const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            return -1;
        ucred peer{};
        socklen_t length = sizeof peer;
        if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) == 0 && peer.pid == ::getpid())
            return fd;
        ::close(fd); // another process found the name: not its connection
    }
}

/** Runs ssh on connection @p fd until it ends; what it said is kept under @p name. */
void serve(const Endpoint &endpoint, int fd, const QByteArray &name)
{
    const int stderrFd = ::open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    QList<QByteArray> argv{QByteArrayLiteral("ssh")};
    for (const QString &arg : arguments(endpoint))
        argv << arg.toLocal8Bit();
    std::vector<char *> pointers;
    for (QByteArray &arg : argv)
        pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fd, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO);
    if (stderrFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, stderrFd, STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = ::posix_spawnp(&pid, "ssh", &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fd);
    if (spawned != 0) {
        keepMessage(name, QStringLiteral("cannot run ssh: %1").arg(QString::fromLocal8Bit(std::strerror(spawned))));
    } else {
        ::waitpid(pid, nullptr, 0); // it ends when libcurl closes its end, or on its own failure
        keepMessage(name, stderrFd >= 0 ? readMessage(stderrFd) : QString());
    }
    if (stderrFd >= 0)
        ::close(stderrFd);
}

} // namespace

QStringList arguments(const Endpoint &endpoint)
{
    QStringList args{QStringLiteral("-o"), QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
                     QStringLiteral("ConnectTimeout=10"), QStringLiteral("-T")};
    if (!endpoint.sshUser.isEmpty())
        args << QStringLiteral("-l") << endpoint.sshUser;
    if (endpoint.port > 0)
        args << QStringLiteral("-p") << QString::number(endpoint.port);
    args << QStringLiteral("--") << endpoint.host << QStringLiteral("docker") << QStringLiteral("system")
         << QStringLiteral("dial-stdio");
    return args;
}

QByteArray listen(const Endpoint &endpoint, QString *error)
{
    const QByteArray name = QByteArrayLiteral("paddock-ssh-") + QByteArray::number(::getpid()) + '-' +
                            QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path + 1, name.constData(), size_t(name.size())); // abstract: a leading NUL
    const socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(name.size()));
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr *>(&address), length) != 0 ||
        ::listen(listener, 4) != 0) {
        *error = QStringLiteral("cannot listen for the ssh connection: %1")
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        if (listener >= 0)
            ::close(listener);
        return {};
    }
    std::thread([endpoint, listener, name] {
        const int fd = acceptOwn(listener);
        ::close(listener);
        if (fd >= 0)
            serve(endpoint, fd, name);
    }).detach();
    return name;
}

QString message(const QByteArray &name)
{
    const std::lock_guard lock(mutex());
    for (auto it = messages().cend(); it != messages().cbegin();) {
        --it;
        if (it->first == name)
            return it->second;
    }
    return {};
}

} // namespace paddock::runtime::docker::ssh
