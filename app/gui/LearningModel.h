// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NetworkPolicy.h"

#include <QAbstractListModel>
#include <QJsonArray>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief Learning mode for one sandbox: switch it on, let the agent work, then turn what it
 * reached into an allowlist.
 *
 * Rows are the patterns the daemon proposes (`policy.proposal`), each with a check box;
 * `entries` are the connections behind them (host, port, count, last seen, suggestion).
 * apply() adds the checked patterns (or all) as allow rules of the sandbox or of every
 * sandbox. Learning itself is switched with `sandbox.learning`. When the daemon does not
 * offer these methods, `available` is false and the page says so.
 */
class LearningModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::NetworkPolicy *policy READ policy WRITE setPolicy NOTIFY policyChanged)
    Q_PROPERTY(QStringList sandboxes READ sandboxes NOTIFY sandboxesChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(bool learning READ learning NOTIFY learningChanged)
    Q_PROPERTY(QVariantList entries READ entries NOTIFY proposalChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY proposalChanged)
    Q_PROPERTY(int checkedCount READ checkedCount NOTIFY checkedChanged)
    Q_PROPERTY(bool available READ available NOTIFY availableChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    enum Role {
        PatternRole = Qt::UserRole + 1,
        CheckedRole
    };
    Q_ENUM(Role)

    explicit LearningModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;
    QHash<int, QByteArray> roleNames() const override;

    NetworkPolicy *policy() const { return m_policy; }
    void setPolicy(NetworkPolicy *policy);
    QStringList sandboxes() const { return m_sandboxes; }
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    bool learning() const { return m_learning; }
    QVariantList entries() const { return m_entries; }
    int checkedCount() const;
    bool available() const { return m_available; }
    QString error() const { return m_error; }

    /** Lists the sandboxes again, then the proposal of the chosen one. */
    Q_INVOKABLE void refresh();
    Q_INVOKABLE void setLearning(bool enabled);
    Q_INVOKABLE void setChecked(int row, bool checked);
    Q_INVOKABLE void checkAll(bool checked);
    /** Allows the checked patterns (all when @p all) for the sandbox, or everywhere when @p where is global. */
    Q_INVOKABLE void apply(bool all, const QString &where);

    /** Replaces the proposal with a `policy.proposal` answer. */
    void setProposal(const QJsonObject &result);

Q_SIGNALS:
    void policyChanged();
    void sandboxesChanged();
    void sandboxChanged();
    void learningChanged();
    void proposalChanged();
    void checkedChanged();
    void availableChanged();
    void errorChanged();
    /** apply() finished: @p added rules added, @p message for the user. */
    void applied(int added, const QString &message);

private:
    struct Proposal
    {
        QString pattern;
        bool checked = true;
    };
    void loadProposal();
    void setError(const QString &error);
    void setAvailable(bool available);
    void setLearningState(bool learning);

    QPointer<NetworkPolicy> m_policy;
    QStringList m_sandboxes;
    QHash<QString, bool> m_learningOf; ///< sandbox → learning, from sandbox.list
    QString m_sandbox;
    bool m_learning = false;
    QVariantList m_entries;
    QList<Proposal> m_rows;
    bool m_available = true;
    QString m_error;
};

} // namespace paddock::gui
