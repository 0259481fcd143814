// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/FileError.h"
#include "common/Result.h"
#include "policy/PolicyData.h"
#include "policy/PolicyEngine.h"

#include <QByteArray>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <optional>
#include <variant>

namespace paddock::policy {

/** @brief Why policy.yaml (or host-grants.yaml) could not be used: where, and what was expected. */
using PolicyError = FileError;

/** @brief What a change to the stored policy did. */
struct StoreChange
{
    std::optional<Rule> rule; ///< the rule added (or found already present)
    int removed = 0;          ///< rules or overrides removed
};

/** @brief What a change did, or why it was not made (nothing is written then). */
using StoreResult = Result<StoreChange>;

/**
 * @brief The policy as the user keeps it: `policy.yaml` in the config directory.
 *
 * Holds the preset, the rules of every scope and the resolver overrides, and keeps a
 * PolicyEngine in step with them. Every write is atomic. A hand edit is picked up while
 * running; a broken file is reported with its line and column and the last good policy stays
 * in force. A change made here is read back from disk first, so a hand edit is never lost.
 */
class PolicyStore : public QObject
{
    Q_OBJECT
public:
    /** Uses `paths::configDir()/policy.yaml`. */
    explicit PolicyStore(QObject *parent = nullptr);
    explicit PolicyStore(const QString &path, QObject *parent = nullptr);
    ~PolicyStore() override;

    static QString defaultPath();
    QString path() const { return m_path; }

    /** Reads the file (a missing file is the default policy) and starts watching it. */
    bool load();
    /**
     * Reads the file again now, as its watch does a moment after it changed; policyChanged()
     * is emitted (and handled) before this returns when the policy in force changed.
     */
    void reloadNow();

    PolicyData policy() const { return m_data; }
    /** The engine that decides with the current policy. */
    PolicyEngine &engine() { return m_engine; }
    const PolicyEngine &engine() const { return m_engine; }
    /** The problem with the file as it is on disk now, if any. */
    std::optional<PolicyError> lastError() const { return m_lastError; }

    StoreResult addRule(const Scope &scope, Verdict verdict, QStringView pattern, Origin origin = Origin::User,
                        const RequestMatch &request = {}, const QString &program = {});
    StoreResult removeRule(const QString &id);
    /** Removes every rule of @p scope whose pattern is @p pattern (after normalisation). */
    StoreResult removeRule(QStringView pattern, const Scope &scope);
    StoreResult setPreset(Preset preset);
    StoreResult setResolveOverride(QStringView host, const QHostAddress &address);
    StoreResult removeResolveOverride(QStringView host);
    QMap<QString, QHostAddress> resolveOverrides() const { return m_data.resolveOverrides; }

    /** Decodes policy.yaml text strictly; @p file is used in errors. */
    static std::variant<PolicyData, PolicyError> parse(const QByteArray &text, const QString &file);
    /** The text written to policy.yaml for @p data. */
    static QByteArray serialise(const PolicyData &data);

signals:
    /** The policy in force changed (through this store or a hand edit). */
    void policyChanged();
    /** The file on disk cannot be used; the previous policy stays in force. */
    void loadFailed(const paddock::policy::PolicyError &error);

private:
    void reload();
    void watch();
    StoreResult change(const std::function<StoreResult(PolicyData &)> &edit);
    void adopt(const PolicyData &data);

    QString m_path;
    PolicyData m_data;
    PolicyEngine m_engine;
    QByteArray m_lastText; ///< the file contents last seen, used or not
    bool m_lastTextSeen = false;
    std::optional<PolicyError> m_lastError;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadTimer;
};

} // namespace paddock::policy
