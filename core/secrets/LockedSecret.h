// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <cstddef>
#include <memory>

namespace paddock::secrets {

/**
 * @brief One secret held in pages of its own, as ssh-agent and gpg-agent hold keys: locked in
 * RAM (mlock, never written to swap), left out of core dumps (MADV_DONTDUMP), zeroed in a
 * forked child (MADV_WIPEONFORK), and wiped before the pages are returned.
 *
 * Locking can fail (RLIMIT_MEMLOCK spent): the secret is then held all the same, in pages that
 * are still left out of dumps and wiped, and locked() says so.
 */
class LockedSecret
{
public:
    /** A copy of @p value in locked pages; null when @p value is empty or no pages can be had. */
    static std::unique_ptr<LockedSecret> copyOf(const QByteArray &value);
    ~LockedSecret();
    LockedSecret(const LockedSecret &) = delete;
    LockedSecret &operator=(const LockedSecret &) = delete;

    /** A copy for one use: the caller wipes it (see wipe()) when done. */
    QByteArray copy() const;
    std::size_t size() const { return m_size; }
    /** Whether mlock succeeded. */
    bool locked() const { return m_locked; }
    /** Where the pages start, for the tests that look them up in /proc/self/smaps. */
    const void *address() const { return m_pages; }
    /** The bytes the pages span. */
    std::size_t mappedSize() const { return m_mapped; }

private:
    LockedSecret(void *pages, std::size_t mapped, std::size_t size, bool locked)
        : m_pages(pages), m_mapped(mapped), m_size(size), m_locked(locked)
    {}

    void *m_pages;
    std::size_t m_mapped;
    std::size_t m_size;
    bool m_locked;
};

} // namespace paddock::secrets
