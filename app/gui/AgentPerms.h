// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QJsonObject>
#include <QString>
#include <QVariantList>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The agent's rules (pi-permission-system) of one kit or one sandbox, for the "Agent
 * permissions" pane: the rules of one scope as rows, their edits and the rule tester.
 *
 * Everything goes through the daemon (`agent.config`, `agent.set`, `agent.remove`,
 * `agent.move`, `agent.test`), which writes only the lines concerned, checks the schema, and
 * keeps the copies in running sandboxes' homes current. Set either @c kit (a folder) or
 * @c sandbox (a name); a sandbox has two scopes, `project` (its workspace's file) and
 * `global` (its kit's file), a kit only `global`.
 *
 * Each row of @c rules: {surface, pattern, state, reason, shorthand, line, index (within its
 * surface), count (patterns of its surface), problem (the schema's message for it, or "")}.
 */
class AgentPerms : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString kit READ kit WRITE setKit NOTIFY targetChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY targetChanged)
    Q_PROPERTY(QString scope READ scope WRITE setScope NOTIFY targetChanged)
    Q_PROPERTY(QVariantList rules READ rules NOTIFY loaded)
    Q_PROPERTY(QStringList problems READ problems NOTIFY loaded)
    Q_PROPERTY(QString path READ path NOTIFY loaded)
    Q_PROPERTY(bool exists READ exists NOTIFY loaded)
    Q_PROPERTY(QString schemaVersion READ schemaVersion NOTIFY loaded)
    Q_PROPERTY(QString message READ message NOTIFY messageChanged)
    Q_PROPERTY(QVariantMap testResult READ testResult NOTIFY testResultChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)

public:
    explicit AgentPerms(QObject *parent = nullptr);

    QString kit() const { return m_kit; }
    void setKit(const QString &kit);
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    QString scope() const { return m_scope; }
    void setScope(const QString &scope);
    QVariantList rules() const { return m_rules; }
    QStringList problems() const { return m_problems; }
    QString path() const { return m_path; }
    bool exists() const { return m_exists; }
    QString schemaVersion() const { return m_schemaVersion; }
    QString message() const { return m_message; }
    QVariantMap testResult() const { return m_testResult; }
    bool busy() const { return m_pending > 0; }

    Q_INVOKABLE void reload();
    /** Sets @p pattern of @p surface (added last when new); an empty pattern sets the whole surface. */
    Q_INVOKABLE void setRule(const QString &surface, const QString &pattern, const QString &state);
    /** Removes @p pattern (empty: the whole surface). */
    Q_INVOKABLE void removeRule(const QString &surface, const QString &pattern);
    /** Moves @p pattern to place @p index of its surface. */
    Q_INVOKABLE void moveRule(const QString &surface, const QString &pattern, int index);
    /** Asks the tester: "bash: rm -rf game". The answer lands in testResult. */
    Q_INVOKABLE void test(const QString &query);
    /** The command that does the same from a terminal. */
    Q_INVOKABLE QString command(const QString &verb, const QString &surface, const QString &pattern,
                                const QString &state) const;

Q_SIGNALS:
    void targetChanged();
    void loaded();
    void messageChanged();
    void testResultChanged();
    void busyChanged();

protected:
    void daemonConnected() override { reload(); }
    /** Another window, the CLI or an Allow changed the file shown: read it again. */
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    QJsonObject target() const;
    void call(const QString &method, QJsonObject params, bool reloadAfter);
    void apply(const QJsonObject &file);
    void setMessage(const QString &message);
    void pending(int delta);

    QString m_kit;
    QString m_sandbox;
    QString m_scope = QStringLiteral("global");
    QVariantList m_rules;
    QStringList m_problems;
    QString m_path;
    bool m_exists = false;
    QString m_schemaVersion;
    QString m_message;
    QVariantMap m_testResult;
    int m_pending = 0;
};

} // namespace paddock::gui
