// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/LockedSecret.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <mutex>
#include <utility>

class QDBusMessage;

namespace paddock::secrets {

/**
 * @brief The keys sandboxes use, held between requests so that a request with an injected key
 * does not ask the keychain (a D-Bus round trip to the Secret Service) each time.
 *
 * Each key is held in a LockedSecret (locked pages, out of core dumps, wiped when dropped),
 * found by sandbox and service. Nothing here is written anywhere nor logged.
 *
 * Keys are dropped, all at once:
 * - when the Secret Service reports any change (watchKeychain()): an item created, changed or
 *   deleted by Paddock or any other program, a collection locked or unlocked;
 * - when the owner calls clear(): bindings or the secret index changed.
 * forget() drops one sandbox's keys (its rules are being made again).
 *
 * Thread safe: proxy threads call find() and insert(), the owner's thread the rest. A key read
 * from the keychain before a drop is not kept after it (see generation()).
 */
class KeyCache : public QObject
{
    Q_OBJECT
public:
    explicit KeyCache(QObject *parent = nullptr);
    ~KeyCache() override;

    /**
     * Listens to the Secret Service's signals on the session bus, on this object's thread
     * (its event loop must run). False when there is no session bus: keys are then not held.
     */
    bool watchKeychain();
    /** Whether keys are held at all: a keychain whose changes cannot be heard holds none. */
    bool enabled() const;

    /** A copy of the key (wipe it when done), or an empty array when none is held. */
    QByteArray find(const QString &sandbox, const QString &service) const;
    /** Taken before reading the keychain, handed to insert(). */
    quint64 generation() const;
    /** Holds a copy of @p value unless keys were dropped since @p generation was taken. */
    void insert(quint64 generation, const QString &sandbox, const QString &service, const QByteArray &value);
    void clear();
    void forget(const QString &sandbox);
    std::size_t size() const;

private Q_SLOTS:
    void keychainChanged(const QDBusMessage &message);

private:
    using Key = std::pair<QString, QString>; ///< sandbox, service
    mutable std::mutex m_mutex;
    std::map<Key, std::unique_ptr<LockedSecret>> m_keys;
    quint64 m_generation = 0;
    bool m_enabled = false;
};

} // namespace paddock::secrets
