// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/SecretId.h"
#include "secrets/SecretIndex.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QQueue>
#include <QString>

#include <functional>

namespace paddock::secrets {

/** @brief What went wrong with a keychain operation, independent of the keychain library. */
enum class SecretError {
    None,
    NotFound,           ///< no entry under that name
    AccessDeniedByUser, ///< the user refused at the keychain's prompt
    AccessDenied,       ///< locked keychain or refused for another reason
    NoBackend,          ///< no keychain service reachable
    NotImplemented,     ///< the keychain cannot do this here
    CouldNotDelete,
    Other,
    Timeout,     ///< the blocking wrapper gave up waiting
    InvalidName, ///< refused before reaching the keychain
    Index,       ///< secrets.yaml could not be read or written
};

/** @brief The outcome of one operation. `value` is set by reads only: wipe() it when done. */
struct SecretResult
{
    SecretError error = SecretError::None;
    QString message; ///< one sentence a person can act on; empty on success
    QByteArray value;

    bool ok() const { return error == SecretError::None; }
};

/** @brief Whether a keychain can be used, and if not, what to install or start. */
struct ProbeResult
{
    bool available = false;
    QString message; ///< empty when available
};

/**
 * @brief Provider keys in the OS keychain (Secret Service or KWallet on Linux, through
 * QtKeychain). The only class in Paddock that talks to the keychain.
 *
 * Operations are asynchronous and run one at a time in the order they were asked for; a
 * keychain job is never started from inside another job's completion, and callbacks are
 * delivered from the event loop, so a callback may start the next operation freely. The
 * *AndWait() variants are for the command line: they run a local event loop for at most
 * @p timeoutMs and need a QCoreApplication.
 *
 * There is no plaintext fallback: without a keychain every operation fails with a message
 * saying what to install. The names of stored secrets are kept in secrets.yaml (see
 * SecretIndex) because keychains cannot be enumerated; values never leave the keychain
 * except in the QByteArray handed to the caller.
 */
class SecretStore : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(SecretResult)>;
    using ProbeCallback = std::function<void(ProbeResult)>;

    static constexpr int kDefaultTimeoutMs = 20000;

    /** Keeps its index in `paths::configDir()/secrets.yaml`. */
    explicit SecretStore(QObject *parent = nullptr);
    SecretStore(const QString &indexPath, QObject *parent);
    ~SecretStore() override;

    /** Stores @p value (wiped here once handed to the keychain) and records the name. */
    void set(const SecretId &id, QByteArray value, Callback done);
    void get(const SecretId &id, Callback done);
    /** Removes the value and the name; a name whose value is already gone is dropped quietly. */
    void remove(const SecretId &id, Callback done);
    /** The key a sandbox's requests use: its own secret for @p service, else the global one. */
    void resolve(const QString &sandbox, const QString &service, Callback done);
    /** The names recorded in secrets.yaml; never the values. */
    QList<SecretId> list(QString *error = nullptr) const;
    /** Reads an entry that cannot exist: "not found" proves a working keychain. */
    void probe(ProbeCallback done);

    /**
     * Paddock's own key material (the local CA's private key), stored under
     * "internal/NAME": not a secret of the user, so not in the index and not listed.
     */
    void setKeyMaterial(const QString &name, QByteArray value, Callback done);
    void getKeyMaterial(const QString &name, Callback done);
    void removeKeyMaterial(const QString &name, Callback done);

    SecretResult setAndWait(const SecretId &id, QByteArray value, int timeoutMs = kDefaultTimeoutMs);
    SecretResult getAndWait(const SecretId &id, int timeoutMs = kDefaultTimeoutMs);
    SecretResult removeAndWait(const SecretId &id, int timeoutMs = kDefaultTimeoutMs);
    SecretResult resolveAndWait(const QString &sandbox, const QString &service, int timeoutMs = kDefaultTimeoutMs);
    ProbeResult probeAndWait(int timeoutMs = kDefaultTimeoutMs);

    /** Runs @p start (one of the asynchronous calls) and waits for its callback. */
    static SecretResult wait(const std::function<void(Callback)> &start, int timeoutMs = kDefaultTimeoutMs);

    QString indexPath() const { return m_index.path(); }

    /** The sentence shown for @p error on the entry called @p name (@p detail from the keychain). */
    static QString describe(SecretError error, const QString &name, const QString &detail = QString());
    /** The command that stores the secret @p id. */
    static QString setCommand(const SecretId &id);

signals:
    /** A secret was stored or removed through this store. */
    void secretsChanged();

private:
    enum class JobKind {
        Read,
        Write,
        Delete
    };
    struct Operation
    {
        JobKind kind;
        QString key;
        QByteArray data;
        std::function<void(SecretError, QString detail, QByteArray value)> finished;
    };

    void removeEntry(const SecretId &id, const Callback &done);
    void enqueue(Operation operation);
    void scheduleNext();
    void startNext();
    SecretResult resultFor(SecretError error, const QString &detail, const SecretId &id) const;

    SecretIndex m_index;
    QQueue<Operation> m_queue;
    bool m_busy = false;
    bool m_scheduled = false;
};

} // namespace paddock::secrets
