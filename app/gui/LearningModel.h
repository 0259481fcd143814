// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NetworkPolicy.h"
#include "RowModel.h"

#include <QJsonArray>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** A pattern learning mode proposes, and whether the user keeps it ticked. */
struct ProposedPattern
{
    QString pattern;
    bool checked = true;
};

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
class LearningModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(paddock::gui::NetworkPolicy *policy READ policy WRITE setPolicy NOTIFY policyChanged)
    Q_PROPERTY(QStringList sandboxes READ sandboxes NOTIFY sandboxesChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(bool learning READ learning NOTIFY learningChanged)
    Q_PROPERTY(QVariantList entries READ entries NOTIFY proposalChanged)
    Q_PROPERTY(int checkedCount READ checkedCount NOTIFY checkedChanged)
    Q_PROPERTY(bool available READ available NOTIFY availableChanged)

public:
    enum Role {
        PatternRole = Qt::UserRole + 1,
        CheckedRole
    };
    Q_ENUM(Role)

    explicit LearningModel(QObject *parent = nullptr);

    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

    NetworkPolicy *policy() const { return m_policy; }
    void setPolicy(NetworkPolicy *policy);
    QStringList sandboxes() const { return m_sandboxes; }
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    bool learning() const { return m_learning; }
    QVariantList entries() const { return m_entries; }
    int checkedCount() const;
    bool available() const { return m_available; }

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
    /** apply() finished: @p added rules added, @p message for the user. */
    void applied(int added, const QString &message);

protected:
    void daemonConnected() override { refresh(); }

private:
    void loadProposal();
    void setAvailable(bool available);
    void setLearningState(bool learning);

    Rows<ProposedPattern> m_rows{this};
    QPointer<NetworkPolicy> m_policy;
    QStringList m_sandboxes;
    QHash<QString, bool> m_learningOf; ///< sandbox → learning, from sandbox.list
    QString m_sandbox;
    bool m_learning = false;
    QVariantList m_entries;
    bool m_available = true;
};

} // namespace paddock::gui
