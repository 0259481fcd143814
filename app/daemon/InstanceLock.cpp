// SPDX-License-Identifier: GPL-3.0-or-later
#include "InstanceLock.h"

#include <QByteArray>
#include <QFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace paddock::daemon {

InstanceLock::~InstanceLock()
{
    if (m_fd >= 0)
        ::close(m_fd); // releases the lock; the file stays, a waiting daemon may hold it open
}

InstanceLock::Result InstanceLock::tryAcquire(const QString &path, QString *error)
{
    if (m_fd < 0) {
        m_path = path;
        m_fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (m_fd < 0) {
            if (error)
                *error = QStringLiteral("cannot open the lock file %1: %2")
                             .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
            return Result::Failed;
        }
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            return Result::HeldByOther;
        if (error)
            *error = QStringLiteral("cannot lock %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return Result::Failed;
    }
    const QByteArray pid = QByteArray::number(qint64(::getpid())) + '\n';
    if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, pid.constData(), size_t(pid.size()), 0) != pid.size()) {
        // The pid is only for messages; the lock itself is what counts.
    }
    return Result::Acquired;
}

qint64 InstanceLock::holderPid() const
{
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const qint64 pid = file.readLine(32).trimmed().toLongLong(&ok);
    return ok ? pid : -1;
}

} // namespace paddock::daemon
