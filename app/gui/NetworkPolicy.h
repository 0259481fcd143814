// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"
#include "DenialsModel.h"
#include "RulesModel.h"

#include <QJsonObject>
#include <QString>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

#include <functional>

namespace paddock::gui {

/**
 * @brief What the Network page shows and does: the preset, the rules, the refused
 * connections, and every change to them, each one a call to the daemon.
 *
 * Set `daemon` to the DaemonStatus singleton (QML) or call setClient() (C++); the refused
 * connections, and the lists that take `policy`, use the same connection. The rules are
 * read again whenever the daemon announces a change on its `policy` topic, so an edit made
 * with the CLI shows up at once. Calls never block: each action answers through
 * actionFinished(ok, message), and `error` holds the last failure.
 */
class NetworkPolicy : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString preset READ preset NOTIFY policyChanged)
    Q_PROPERTY(QString presetDescription READ presetDescription NOTIFY policyChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY policyChanged)
    Q_PROPERTY(paddock::gui::RulesModel *rules READ rules CONSTANT)
    Q_PROPERTY(paddock::gui::DenialsModel *denials READ denials CONSTANT)
    Q_PROPERTY(int pendingCalls READ pendingCalls NOTIFY pendingCallsChanged)

public:
    explicit NetworkPolicy(QObject *parent = nullptr);

    QString preset() const { return m_preset; }
    QString presetDescription() const { return m_presetDescription; }
    bool loaded() const { return m_loaded; }
    RulesModel *rules() { return &m_rules; }
    DenialsModel *denials() { return &m_denials; }
    int pendingCalls() const { return m_pending; }

    /** Reads the rules and the refusals again. */
    Q_INVOKABLE void refresh();
    Q_INVOKABLE void setPreset(const QString &preset);
    Q_INVOKABLE void addRule(const QString &pattern, const QString &decision, const QString &scope);
    Q_INVOKABLE void updateRule(const QString &id, const QString &pattern, const QString &decision,
                                const QString &scope);
    Q_INVOKABLE void removeRule(const QString &id);
    /**
     * Allows a refused destination: @p where is sandbox, kit or global, @p what is exact,
     * anyport, wildcard or deep (see `policy.allow`).
     */
    Q_INVOKABLE void allow(const QString &host, int port, const QString &sandbox, const QString &where,
                           const QString &what);
    /**
     * Lets @p sandbox send the value @p name of @p file that the secret guard refused on its
     * way to @p host (`sandbox.guard` allow); the row of @p host goes once it is allowed.
     */
    Q_INVOKABLE void allowValue(const QString &host, const QString &sandbox, const QString &file, const QString &name);
    /** Hides the row of @p host refused for @p sandbox until it is refused again. */
    Q_INVOKABLE void dismiss(const QString &host, const QString &sandbox);

    /**
     * The pattern each choice of the Allow popup would add, for its labels: {exact, anyport,
     * wildcard, deep}, each a different rule (policy::allowChoicePattern); wildcard and deep
     * are empty when the host has no parent domain that could be allowed (an address, or a
     * name directly under a public suffix).
     */
    static QVariantMap allowChoicesFor(const QString &host, int port);
    Q_INVOKABLE QVariantMap allowChoices(const QString &host, int port) const { return allowChoicesFor(host, port); }
    /**
     * The command line doing what allow() does, shown in the popup: for the narrowest choice
     * the same text the refusal inside the sandbox suggests (policy::allowChoiceCommand).
     */
    static QString allowCommandFor(const QString &host, int port, const QString &sandbox, const QString &where,
                                   const QString &what);
    Q_INVOKABLE QString allowCommand(const QString &host, int port, const QString &sandbox, const QString &where,
                                     const QString &what) const
    {
        return allowCommandFor(host, port, sandbox, where, what);
    }

Q_SIGNALS:
    void policyChanged();
    void pendingCallsChanged();
    /** An action answered: @p message is one sentence for the user. */
    void actionFinished(const QString &action, bool ok, const QString &message);

protected:
    void daemonConnected() override { loadPolicy(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    void call(const QString &action, const QString &method, const QJsonObject &params,
              std::function<QString(const QJsonObject &)> done);
    void loadPolicy();

    RulesModel m_rules;
    DenialsModel m_denials;
    QString m_preset;
    QString m_presetDescription;
    bool m_loaded = false;
    int m_pending = 0;
};

} // namespace paddock::gui
