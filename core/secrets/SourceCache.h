// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/LockedSecret.h"
#include "secrets/SecretSources.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace paddock::secrets {

/**
 * @brief The values of secrets that come from a command or a 1Password reference, held in
 * the daemon's memory only (LockedSecret pages) until their refresh interval has passed.
 *
 * value() runs the source when there is no fresh value: a value is never used after its
 * interval, and a failed run gives an empty value (the request that needed it is refused),
 * never the previous one. An `on-demand` source runs for every call, that is for every
 * request that carries the key. Runs of one secret are one at a time; concurrent callers wait
 * and share the value.
 *
 * Thread safe: the proxy's threads call value().
 */
class SourceCache
{
public:
    using Runner = std::function<SourceRun(const SecretSource &)>;

    /** @p runner runs a source (runSource() when empty). */
    explicit SourceCache(Runner runner = {});
    ~SourceCache();

    /**
     * @p id's value from @p source (wipe it when done); empty when the source failed, with
     * @p error set to its sentence (never a value).
     */
    QByteArray value(const SecretId &id, const SecretSource &source, QString *error);
    /** Drops every held value (the sources file changed). */
    void clear();
    std::size_t size() const;

private:
    struct Entry
    {
        std::mutex running; ///< one run of this secret at a time
        std::unique_ptr<LockedSecret> value;
        SecretSource source; ///< what the value was made by
        std::chrono::steady_clock::time_point expires;
    };
    std::shared_ptr<Entry> entryFor(const SecretId &id);

    Runner m_runner;
    mutable std::mutex m_mutex;
    std::map<QString, std::shared_ptr<Entry>> m_entries; ///< by keychain key
};

} // namespace paddock::secrets
