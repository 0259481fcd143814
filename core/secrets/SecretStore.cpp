// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/SecretStore.h"

#include "secrets/Masking.h"

#include <QEventLoop>
#include <QLoggingCategory>
#include <QPointer>
#include <QTimer>

#include <qt6keychain/keychain.h>

#include <memory>

Q_LOGGING_CATEGORY(lcSecretStore, "paddock.secrets.store")

namespace paddock::secrets {
namespace {

const QString kInternalPrefix = QStringLiteral("internal/");
const QString kProbeKey = QStringLiteral("internal/probe-never-written");

SecretError fromKeychain(QKeychain::Error error)
{
    switch (error) {
    case QKeychain::NoError:
        return SecretError::None;
    case QKeychain::EntryNotFound:
        return SecretError::NotFound;
    case QKeychain::CouldNotDeleteEntry:
        return SecretError::CouldNotDelete;
    case QKeychain::AccessDeniedByUser:
        return SecretError::AccessDeniedByUser;
    case QKeychain::AccessDenied:
        return SecretError::AccessDenied;
    case QKeychain::NoBackendAvailable:
        return SecretError::NoBackend;
    case QKeychain::NotImplemented:
        return SecretError::NotImplemented;
    case QKeychain::OtherError:
        break;
    }
    return SecretError::Other;
}

/**
 * QtKeychain reports an unreachable Secret Service (no session bus, or nothing owning
 * org.freedesktop.secrets) as OtherError with the D-Bus message; that is "no keychain" to a person.
 */
SecretError refine(SecretError error, const QString &detail)
{
    if (error != SecretError::Other)
        return error;
    static const char *const unreachable[] = {
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NoServer",
        "org.freedesktop.DBus.Error.FileNotFound",
        "org.freedesktop.DBus.Error.NotSupported",
        "Cannot autolaunch D-Bus",
        "Could not connect",
        "Failed to connect to socket",
        "The name is not activatable",
        "was not provided by any .service files",
    };
    for (const char *needle : unreachable)
        if (detail.contains(QLatin1String(needle), Qt::CaseInsensitive))
            return SecretError::NoBackend;
    return error;
}

QString withDetail(const QString &detail)
{
    return detail.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(detail);
}

} // namespace

SecretStore::SecretStore(QObject *parent) : SecretStore(SecretIndex::defaultPath(), parent) {}

SecretStore::SecretStore(const QString &indexPath, QObject *parent) : QObject(parent), m_index(indexPath) {}

SecretStore::~SecretStore()
{
    for (Operation &operation : m_queue)
        wipe(operation.data);
}

QString SecretStore::setCommand(const SecretId &id)
{
    return id.setCommand();
}

QString SecretStore::describe(SecretError error, const QString &name, const QString &detail)
{
    switch (error) {
    case SecretError::None:
        return QString();
    case SecretError::NotFound:
        return QStringLiteral("no secret named %1").arg(name);
    case SecretError::AccessDeniedByUser:
        return QStringLiteral("access to the keychain was refused at its prompt: run the command again and allow "
                              "Paddock to use the keychain");
    case SecretError::AccessDenied:
        return QStringLiteral("the keychain refused access%1: unlock it (Passwords and Keys / seahorse for GNOME "
                              "Keyring, KWalletManager for KWallet) and try again")
            .arg(withDetail(detail));
    case SecretError::NoBackend:
        return QStringLiteral("no keychain service is running: install and start GNOME Keyring (gnome-keyring) or "
                              "KWallet%1")
            .arg(withDetail(detail));
    case SecretError::NotImplemented:
        return QStringLiteral("the keychain on this system cannot do this%1: use GNOME Keyring or KWallet")
            .arg(withDetail(detail));
    case SecretError::CouldNotDelete:
        return QStringLiteral("the keychain could not delete %1%2: unlock the keychain and try again")
            .arg(name, withDetail(detail));
    case SecretError::Other:
        return QStringLiteral("the keychain reported an error%1: check that GNOME Keyring or KWallet is running and "
                              "unlocked")
            .arg(withDetail(detail));
    case SecretError::Timeout:
        return QStringLiteral("the keychain did not answer in time: it may be waiting for you to unlock it; unlock "
                              "it and try again");
    case SecretError::InvalidName:
    case SecretError::Index:
        return detail;
    }
    return detail;
}

SecretResult SecretStore::resultFor(SecretError error, const QString &detail, const SecretId &id) const
{
    SecretResult result;
    result.error = error;
    if (error == SecretError::NotFound)
        result.message = describe(error, id.displayName()) + QStringLiteral(": set it with `%1`").arg(setCommand(id));
    else
        result.message = describe(error, id.displayName(), detail);
    return result;
}

void SecretStore::enqueue(Operation operation)
{
    m_queue.enqueue(std::move(operation));
    scheduleNext();
}

void SecretStore::scheduleNext()
{
    // Jobs start from the event loop, never from the caller's stack or a job's completion.
    if (m_busy || m_scheduled || m_queue.isEmpty())
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &SecretStore::startNext, Qt::QueuedConnection);
}

void SecretStore::startNext()
{
    m_scheduled = false;
    if (m_busy || m_queue.isEmpty())
        return;
    m_busy = true;
    Operation operation = m_queue.dequeue();

    const QString service = QString::fromLatin1(kKeychainService);
    QKeychain::Job *job = nullptr;
    switch (operation.kind) {
    case JobKind::Read:
        job = new QKeychain::ReadPasswordJob(service);
        break;
    case JobKind::Write: {
        auto *write = new QKeychain::WritePasswordJob(service);
        write->setBinaryData(operation.data);
        wipe(operation.data);
        job = write;
        break;
    }
    case JobKind::Delete:
        job = new QKeychain::DeletePasswordJob(service);
        break;
    }
    // No parent: a job outliving this store finishes and deletes itself, while the
    // connection below ends with the store.
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(operation.key);
    const JobKind kind = operation.kind;
    const QString key = operation.key;
    auto finished = std::move(operation.finished);
    connect(job, &QKeychain::Job::finished, this, [this, kind, key, finished](QKeychain::Job *done) {
        const QString detail = done->errorString();
        SecretError error = refine(fromKeychain(done->error()), detail);
        QByteArray value;
        if (error == SecretError::None && kind == JobKind::Read)
            value = static_cast<QKeychain::ReadPasswordJob *>(done)->binaryData();
        if (error != SecretError::None && error != SecretError::NotFound)
            qCWarning(lcSecretStore) << "keychain operation on" << key << "failed:" << done->error() << detail;
        // The caller hears back from the event loop, outside this job's completion.
        QMetaObject::invokeMethod(
            this,
            [this, finished, error, detail, value]() mutable {
                m_busy = false;
                finished(error, detail, value);
                wipe(value);
                scheduleNext();
            },
            Qt::QueuedConnection);
    });
    job->start();
}

namespace {

/** Delivers a result that needs no keychain from the event loop, like every other one. */
void deliverLater(QObject *context, const SecretStore::Callback &done, SecretResult result)
{
    QMetaObject::invokeMethod(
        context, [done, result]() { done(result); }, Qt::QueuedConnection);
}

SecretResult failure(SecretError error, const QString &message)
{
    SecretResult result;
    result.error = error;
    result.message = message;
    return result;
}

} // namespace

void SecretStore::set(const SecretId &id, QByteArray value, Callback done)
{
    if (const QString problem = id.validate(); !problem.isEmpty()) {
        wipe(value);
        return deliverLater(this, done, failure(SecretError::InvalidName, problem));
    }
    if (value.isEmpty())
        return deliverLater(this, done, failure(SecretError::InvalidName, QStringLiteral("the secret is empty")));
    // Refuse before touching the keychain rather than store a value nobody can list.
    QString indexError;
    if (!m_index.read(&indexError)) {
        wipe(value);
        return deliverLater(this, done, failure(SecretError::Index, indexError));
    }
    enqueue({JobKind::Write, id.keychainKey(), value, [this, id, done](SecretError error, QString detail, QByteArray) {
                 if (error != SecretError::None)
                     return done(resultFor(error, detail, id));
                 QString problem;
                 if (!m_index.add(id, &problem))
                     return done(failure(SecretError::Index,
                                         QStringLiteral("%1 is stored in the keychain but its name could not be "
                                                        "recorded: %2")
                                             .arg(id.displayName(), problem)));
                 qCInfo(lcSecretStore) << "stored secret" << id.displayName();
                 emit secretsChanged();
                 done(SecretResult());
             }});
    wipe(value);
}

void SecretStore::get(const SecretId &id, Callback done)
{
    if (const QString problem = id.validate(); !problem.isEmpty())
        return deliverLater(this, done, failure(SecretError::InvalidName, problem));
    enqueue(
        {JobKind::Read, id.keychainKey(), {}, [this, id, done](SecretError error, QString detail, QByteArray value) {
             SecretResult result = resultFor(error, detail, id);
             result.value = value;
             wipe(value);
             done(std::move(result));
         }});
}

void SecretStore::remove(const SecretId &id, Callback done)
{
    if (const QString problem = id.validate(); !problem.isEmpty())
        return deliverLater(this, done, failure(SecretError::InvalidName, problem));
    const std::optional<QList<SecretId>> names = m_index.read();
    if (names && names->contains(id))
        return removeEntry(id, done);
    // The Secret Service reports success for deleting nothing; a name that is not listed is
    // looked up first so that removing a secret that was never set says so.
    enqueue(
        {JobKind::Read, id.keychainKey(), {}, [this, id, done](SecretError error, QString detail, QByteArray value) {
             wipe(value);
             if (error != SecretError::None)
                 return done(resultFor(error, detail, id));
             removeEntry(id, done);
         }});
}

void SecretStore::removeEntry(const SecretId &id, const Callback &done)
{
    enqueue({JobKind::Delete, id.keychainKey(), {}, [this, id, done](SecretError error, QString detail, QByteArray) {
                 // A name whose value is already gone (removed with another tool) is just dropped.
                 if (error == SecretError::NotFound)
                     error = SecretError::None;
                 if (error != SecretError::None)
                     return done(resultFor(error, detail, id));
                 QString problem;
                 if (!m_index.remove(id, &problem))
                     return done(failure(SecretError::Index,
                                         QStringLiteral("%1 is removed from the keychain but its name could not be "
                                                        "removed from the list: %2")
                                             .arg(id.displayName(), problem)));
                 qCInfo(lcSecretStore) << "removed secret" << id.displayName();
                 emit secretsChanged();
                 done(SecretResult());
             }});
}

void SecretStore::resolve(const QString &sandbox, const QString &service, Callback done)
{
    if (sandbox.isEmpty())
        return get(SecretId::global(service), done);
    get(SecretId::forSandbox(sandbox, service), [this, service, done](SecretResult own) {
        if (own.error != SecretError::NotFound)
            return done(std::move(own));
        get(SecretId::global(service), done);
    });
}

QList<SecretId> SecretStore::list(QString *error) const
{
    return m_index.read(error).value_or(QList<SecretId>());
}

void SecretStore::probe(ProbeCallback done)
{
    enqueue({JobKind::Read, kProbeKey, {}, [done](SecretError error, QString detail, QByteArray value) {
                 wipe(value);
                 ProbeResult result;
                 result.available = error == SecretError::None || error == SecretError::NotFound;
                 if (!result.available)
                     result.message = describe(error, QString(), detail);
                 done(result);
             }});
}

void SecretStore::setKeyMaterial(const QString &name, QByteArray value, Callback done)
{
    const QString key = kInternalPrefix + name;
    enqueue({JobKind::Write, key, value, [name, done](SecretError error, QString detail, QByteArray) {
                 SecretResult result;
                 result.error = error;
                 result.message = describe(error, name, detail);
                 done(result);
             }});
    wipe(value);
}

void SecretStore::getKeyMaterial(const QString &name, Callback done)
{
    enqueue(
        {JobKind::Read, kInternalPrefix + name, {}, [name, done](SecretError error, QString detail, QByteArray value) {
             SecretResult result;
             result.error = error;
             result.message = describe(error, name, detail);
             result.value = value;
             wipe(value);
             done(std::move(result));
         }});
}

void SecretStore::removeKeyMaterial(const QString &name, Callback done)
{
    enqueue({JobKind::Delete, kInternalPrefix + name, {}, [name, done](SecretError error, QString detail, QByteArray) {
                 SecretResult result;
                 result.error = error == SecretError::NotFound ? SecretError::None : error;
                 result.message = describe(result.error, name, detail);
                 done(result);
             }});
}

SecretResult SecretStore::wait(const std::function<void(Callback)> &start, int timeoutMs)
{
    struct State
    {
        bool done = false;
        SecretResult result;
    };
    auto state = std::make_shared<State>();
    QEventLoop loop;
    QPointer<QEventLoop> guard(&loop);
    start([state, guard](SecretResult result) {
        state->result = std::move(result);
        state->done = true;
        if (guard)
            guard->quit();
    });
    if (!state->done) {
        QTimer timer;
        timer.setSingleShot(true);
        QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
        timer.start(timeoutMs);
        loop.exec();
    }
    if (!state->done)
        return failure(SecretError::Timeout, describe(SecretError::Timeout, QString()));
    SecretResult result = std::move(state->result);
    wipe(state->result.value);
    return result;
}

SecretResult SecretStore::setAndWait(const SecretId &id, QByteArray value, int timeoutMs)
{
    SecretResult result = wait([&](Callback done) { set(id, value, done); }, timeoutMs);
    wipe(value);
    return result;
}

SecretResult SecretStore::getAndWait(const SecretId &id, int timeoutMs)
{
    return wait([&](Callback done) { get(id, done); }, timeoutMs);
}

SecretResult SecretStore::removeAndWait(const SecretId &id, int timeoutMs)
{
    return wait([&](Callback done) { remove(id, done); }, timeoutMs);
}

SecretResult SecretStore::resolveAndWait(const QString &sandbox, const QString &service, int timeoutMs)
{
    return wait([&](Callback done) { resolve(sandbox, service, done); }, timeoutMs);
}

ProbeResult SecretStore::probeAndWait(int timeoutMs)
{
    ProbeResult probed;
    const SecretResult result = wait(
        [&](Callback done) {
            probe([done](ProbeResult outcome) {
                SecretResult carried;
                if (!outcome.available) {
                    carried.error = SecretError::Other;
                    carried.message = outcome.message;
                }
                done(carried);
            });
        },
        timeoutMs);
    probed.available = result.ok();
    probed.message = result.message;
    return probed;
}

} // namespace paddock::secrets
