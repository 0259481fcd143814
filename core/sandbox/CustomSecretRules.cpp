// SPDX-License-Identifier: GPL-3.0-or-later
// The custom secrets of `paddock secret set-custom` as the proxy's rules, and their values
// read from the keychain for a proxy thread (part of CredentialInjection).
#include "sandbox/CredentialInjection.h"

#include "secrets/KeyCache.h"
#include "secrets/Masking.h"
#include "secrets/SecretStore.h"
#include "secrets/SourceCache.h"

#include <QLoggingCategory>
#include <QThread>

#include <chrono>
#include <future>

Q_LOGGING_CATEGORY(lcCustomSecrets, "paddock.sandbox.custom-secrets", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/** How long a request waits for the keychain (an unlock prompt may be showing). */
constexpr std::chrono::seconds kKeychainWait{30};

/** What the cache of keys holds a custom secret under: no service can be named so. */
QString cacheName(const QString &name)
{
    return QStringLiteral("custom/") + name;
}

} // namespace

void CredentialInjection::reportCustomSourceFailure(const secrets::CustomSecret &custom, const QString &sandbox,
                                                    const QString &error)
{
    // The sentence may quote what the command wrote on stderr: it goes to the event log only.
    qCWarning(lcCustomSecrets).noquote() << "sandbox" << sandbox << "gets no value for the custom secret" << custom.name
                                         << "this time: its source failed (see the event log)";
    if (!m_sourceFailed)
        return;
    events::NetworkEvent event;
    event.time = events::currentEventTime();
    event.sandbox = sandbox;
    event.host = custom.hosts.value(0, custom.name);
    event.port = 443;
    event.protocol = QStringLiteral("http");
    event.outcome = events::NetworkEvent::Outcome::UpstreamFailed;
    event.rule = QStringLiteral("custom-secret %1").arg(custom.name);
    event.reason = QStringLiteral("the custom secret %1 was not sent: %2").arg(custom.name, error);
    m_sourceFailed(std::move(event));
}

std::vector<proxy::InjectRule> CredentialInjection::customRules(const QString &sandbox)
{
    std::shared_ptr<const SourceSnapshot> snapshot;
    {
        const std::lock_guard<std::mutex> lock(m_snapshotMutex);
        snapshot = m_snapshot;
    }
    std::vector<proxy::InjectRule> rules;
    if (!snapshot)
        return rules;
    for (const secrets::CustomSecret &custom : snapshot->custom) {
        if (!custom.appliesTo(sandbox))
            continue;
        for (const QString &host : custom.hosts) {
            proxy::InjectRule rule;
            rule.domain = host;
            rule.header = custom.header;
            rule.placeholder = custom.placeholder.toStdString();
            rule.anywhere = custom.anywhere;
            rule.body = custom.body;
            rule.credential = custom.name;
            rule.secret = [this, custom, sandbox] { return readCustom(custom, sandbox); };
            rules.push_back(std::move(rule));
        }
    }
    return rules;
}

bool CredentialInjection::customHasSource(const QString &name) const
{
    std::shared_ptr<const SourceSnapshot> snapshot;
    {
        const std::lock_guard<std::mutex> lock(m_snapshotMutex);
        snapshot = m_snapshot;
    }
    for (const secrets::CustomSecret &custom : snapshot ? snapshot->custom : QList<secrets::CustomSecret>()) {
        if (custom.name == name)
            return custom.source.has_value();
    }
    return false;
}

QByteArray CredentialInjection::readCustom(const secrets::CustomSecret &custom, const QString &sandbox)
{
    const QString &name = custom.name;
    if (custom.source) {
        // Run on the host as `secret set --command` is, held for its refresh interval; a failed run
        // gives nothing, so the request is refused rather than sent with an empty value.
        QString error;
        QByteArray value = m_sourceValues->value(custom.sourceId(), *custom.source, &error);
        if (value.isEmpty())
            reportCustomSourceFailure(custom, sandbox, error);
        return value;
    }
    QByteArray held = m_keys->find(QString(), cacheName(name));
    if (!held.isEmpty())
        return held;
    secrets::SecretStore *store = m_store.get();
    if (QThread::currentThread() == store->thread())
        return {}; // the keychain answers on this thread's loop: a proxy thread reads it
    const quint64 generation = m_keys->generation();
    const QString material = QStringLiteral("custom-") + name;
    auto promise = std::make_shared<std::promise<QByteArray>>();
    std::future<QByteArray> future = promise->get_future();
    QMetaObject::invokeMethod(
        store,
        [store, material, promise] {
            store->getKeyMaterial(material, [promise](secrets::SecretResult result) {
                promise->set_value(result.ok() ? std::move(result.value) : QByteArray());
                secrets::wipe(result.value);
            });
        },
        Qt::QueuedConnection);
    if (future.wait_for(kKeychainWait) != std::future_status::ready) {
        qCWarning(lcCustomSecrets).noquote() << "the keychain did not answer in time for the custom secret" << name;
        return {};
    }
    QByteArray value = future.get();
    m_keys->insert(generation, QString(), cacheName(name), value);
    return value;
}

} // namespace paddock::sandbox
