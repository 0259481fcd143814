// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/KeyCache.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcKeyCache, "paddock.secrets.cache")

namespace paddock::secrets {
namespace {

const QString kSecretService = QStringLiteral("org.freedesktop.secrets");

/** The signals by which the Secret Service tells of a change (GNOME Keyring and KWallet's). */
struct Signal
{
    const char *interface;
    const char *name;
};
constexpr Signal kChanges[] = {
    {"org.freedesktop.Secret.Collection", "ItemCreated"},
    {"org.freedesktop.Secret.Collection", "ItemChanged"},
    {"org.freedesktop.Secret.Collection", "ItemDeleted"},
    {"org.freedesktop.Secret.Service", "CollectionCreated"},
    {"org.freedesktop.Secret.Service", "CollectionChanged"},
    {"org.freedesktop.Secret.Service", "CollectionDeleted"},
    // A collection's Locked (and its other properties).
    {"org.freedesktop.DBus.Properties", "PropertiesChanged"},
};

} // namespace

KeyCache::KeyCache(QObject *parent) : QObject(parent) {}

KeyCache::~KeyCache() = default;

bool KeyCache::watchKeychain()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        qCInfo(lcKeyCache) << "no session bus: keys are read from the keychain for every request";
        return false;
    }
    bool all = true;
    for (const Signal &change : kChanges) {
        all = bus.connect(kSecretService, QString(), QLatin1String(change.interface), QLatin1String(change.name), this,
                          SLOT(keychainChanged(QDBusMessage))) &&
              all;
    }
    if (!all) {
        qCWarning(lcKeyCache) << "the keychain's signals cannot be heard: keys are read for every request";
        return false;
    }
    const std::lock_guard lock(m_mutex);
    m_enabled = true;
    return true;
}

bool KeyCache::enabled() const
{
    const std::lock_guard lock(m_mutex);
    return m_enabled;
}

void KeyCache::keychainChanged(const QDBusMessage &message)
{
    qCDebug(lcKeyCache).noquote() << "the keychain reports" << message.interface() << message.member() << "on"
                                  << message.path() << ": held keys dropped";
    clear();
}

QByteArray KeyCache::find(const QString &sandbox, const QString &service) const
{
    const std::lock_guard lock(m_mutex);
    const auto it = m_keys.find({sandbox, service});
    return it == m_keys.end() ? QByteArray() : it->second->copy();
}

quint64 KeyCache::generation() const
{
    const std::lock_guard lock(m_mutex);
    return m_generation;
}

void KeyCache::insert(quint64 generation, const QString &sandbox, const QString &service, const QByteArray &value)
{
    std::unique_ptr<LockedSecret> held = LockedSecret::copyOf(value);
    const std::lock_guard lock(m_mutex);
    if (!held || !m_enabled || generation != m_generation)
        return;
    m_keys[{sandbox, service}] = std::move(held);
}

void KeyCache::clear()
{
    std::map<Key, std::unique_ptr<LockedSecret>> dropped;
    const std::lock_guard lock(m_mutex);
    ++m_generation;
    dropped.swap(m_keys); // wiped as `dropped` ends
}

void KeyCache::forget(const QString &sandbox)
{
    const std::lock_guard lock(m_mutex);
    ++m_generation;
    for (auto it = m_keys.begin(); it != m_keys.end();)
        it = it->first.first == sandbox ? m_keys.erase(it) : std::next(it);
}

std::size_t KeyCache::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_keys.size();
}

} // namespace paddock::secrets
