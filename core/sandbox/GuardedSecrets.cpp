// SPDX-License-Identifier: GPL-3.0-or-later
// What the secret guard of a sandbox looks for besides its workspace's files: every secret
// Paddock holds in the keychain, bound to this sandbox or not (part of CredentialInjection).
#include "sandbox/CredentialInjection.h"

#include "secrets/SecretStore.h"

#include <QSet>

#include <algorithm>

namespace paddock::sandbox {

std::vector<proxy::InjectRule> CredentialInjection::guardedSecrets(const QString &sandbox,
                                                                   const std::vector<proxy::InjectRule> &rules)
{
    std::shared_ptr<const SourceSnapshot> snapshot;
    {
        const std::lock_guard<std::mutex> lock(m_snapshotMutex);
        snapshot = m_snapshot;
    }
    const QList<secrets::SecretId> stored = snapshot ? snapshot->stored : m_store->list();
    // A value that comes from a command or a reference is left out: reading it for the guard
    // would run the command (each time, for one run on demand).
    const auto hasSource = [&snapshot](const secrets::SecretId &id) {
        return snapshot && std::any_of(snapshot->sources.cbegin(), snapshot->sources.cend(),
                                       [&id](const auto &source) { return source.first == id; });
    };
    std::vector<proxy::InjectRule> guarded;
    QSet<QString> covered; ///< secrets already among @p rules: the keychain's display names, custom names
    for (const proxy::InjectRule &rule : rules) {
        if (!rule.placeholder.empty()) {
            covered.insert(QStringLiteral("custom/") + rule.credential);
            if (!customHasSource(rule.credential))
                guarded.push_back(rule);
            continue;
        }
        const secrets::SecretId own = secrets::SecretId::forSandbox(sandbox, rule.credential);
        const secrets::SecretId used = stored.contains(own) ? own : secrets::SecretId::global(rule.credential);
        covered.insert(used.displayName());
        if (!sourceFor(sandbox, rule.credential))
            guarded.push_back(rule);
    }
    // Every other key of the keychain: the sandbox has no business sending one, whoever it is for.
    for (const secrets::SecretId &id : stored) {
        if (covered.contains(id.displayName()) || hasSource(id))
            continue;
        proxy::InjectRule rule;
        rule.credential = id.displayName();
        rule.secret = [this, id] { return readSecret(id.sandbox, id.service); };
        guarded.push_back(std::move(rule));
    }
    for (const secrets::CustomSecret &custom : snapshot ? snapshot->custom : QList<secrets::CustomSecret>()) {
        if (covered.contains(QStringLiteral("custom/") + custom.name) || custom.source)
            continue;
        proxy::InjectRule rule;
        rule.credential = custom.name;
        rule.secret = [this, custom, sandbox] { return readCustom(custom, sandbox); };
        guarded.push_back(std::move(rule));
    }
    return guarded;
}

} // namespace paddock::sandbox
