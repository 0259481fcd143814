// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/SourceCache.h"

#include "secrets/Masking.h"

namespace paddock::secrets {

SourceCache::SourceCache(Runner runner)
    : m_runner(runner ? std::move(runner) : Runner([](const SecretSource &source) { return runSource(source); }))
{}

SourceCache::~SourceCache() = default;

std::shared_ptr<SourceCache::Entry> SourceCache::entryFor(const SecretId &id)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    std::shared_ptr<Entry> &entry = m_entries[id.keychainKey()];
    if (!entry)
        entry = std::make_shared<Entry>();
    return entry;
}

QByteArray SourceCache::value(const SecretId &id, const SecretSource &source, QString *error)
{
    const std::shared_ptr<Entry> entry = entryFor(id);
    const std::lock_guard<std::mutex> running(entry->running);
    const auto now = std::chrono::steady_clock::now();
    if (entry->value && entry->source == source && source.refreshSeconds && now < entry->expires)
        return entry->value->copy();
    entry->value.reset();
    SourceRun run = m_runner(source);
    SourceStatus::record(id, run.error.isEmpty(), run.error);
    if (!run.error.isEmpty()) {
        wipe(run.value);
        *error = run.error;
        return QByteArray();
    }
    if (source.refreshSeconds) {
        entry->value = LockedSecret::copyOf(run.value);
        entry->source = source;
        entry->expires = now + std::chrono::seconds(*source.refreshSeconds);
    }
    return run.value;
}

void SourceCache::clear()
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    // An entry being run keeps its own pointer; its value is dropped with it.
    m_entries.clear();
}

std::size_t SourceCache::size() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_entries.size();
}

} // namespace paddock::secrets
