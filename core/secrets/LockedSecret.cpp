// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/LockedSecret.h"

#include <QLoggingCategory>

#include <atomic>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcLockedSecret, "paddock.secrets.locked")

namespace paddock::secrets {

std::unique_ptr<LockedSecret> LockedSecret::copyOf(const QByteArray &value)
{
    if (value.isEmpty())
        return nullptr;
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    const std::size_t size = std::size_t(value.size());
    const std::size_t mapped = (size + page - 1) / page * page;
    void *pages = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED)
        return nullptr;
    // Left out of dumps and of forked children before anything is written to the pages.
    ::madvise(pages, mapped, MADV_DONTDUMP);
#ifdef MADV_WIPEONFORK
    ::madvise(pages, mapped, MADV_WIPEONFORK);
#endif
    const bool locked = ::mlock(pages, mapped) == 0;
    if (!locked) {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
            qCWarning(lcLockedSecret) << "keys cannot be locked in memory (RLIMIT_MEMLOCK): they are held unlocked,"
                                      << "still out of core dumps";
    }
    std::memcpy(pages, value.constData(), size);
    return std::unique_ptr<LockedSecret>(new LockedSecret(pages, mapped, size, locked));
}

LockedSecret::~LockedSecret()
{
    ::explicit_bzero(m_pages, m_mapped);
    if (m_locked)
        ::munlock(m_pages, m_mapped);
    ::munmap(m_pages, m_mapped);
}

QByteArray LockedSecret::copy() const
{
    return QByteArray(static_cast<const char *>(m_pages), qsizetype(m_size));
}

} // namespace paddock::secrets
