// SPDX-License-Identifier: GPL-3.0-or-later
#include "LearningModel.h"

#include <QPointer>

#include "NetworkPolicy.h"
#include "api/DaemonClient.h"

#include <QJsonObject>

#include <QSharedPointer>
#include <algorithm>

namespace paddock::gui {
namespace {

bool isUnknownMethod(const api::Reply &reply)
{
    return reply.isError() && reply.errorCode() == QLatin1String(api::errors::kUnknownMethod);
}

} // namespace

LearningModel::LearningModel(QObject *parent) : QAbstractListModel(parent) {}

int LearningModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant LearningModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Proposal &row = m_rows.at(index.row());
    if (role == PatternRole || role == Qt::DisplayRole)
        return row.pattern;
    if (role == CheckedRole)
        return row.checked;
    return {};
}

bool LearningModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != CheckedRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    setChecked(index.row(), value.toBool());
    return true;
}

QHash<int, QByteArray> LearningModel::roleNames() const
{
    // Not "checked": the check box showing a row has a property of that name.
    return {{PatternRole, "pattern"}, {CheckedRole, "chosen"}};
}

void LearningModel::setPolicy(NetworkPolicy *policy)
{
    if (m_policy == policy)
        return;
    if (m_policy)
        m_policy->disconnect(this);
    m_policy = policy;
    if (m_policy) {
        connect(m_policy, &NetworkPolicy::connectedChanged, this, [this] {
            if (m_policy->connected())
                refresh();
        });
        // Learned connections arrive as events of their own: the proposal grows as they come.
        connect(m_policy->denials(), &DenialsModel::denied, this, [this] { loadProposal(); });
        if (m_policy->connected())
            refresh();
    }
    emit policyChanged();
}

void LearningModel::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    emit errorChanged();
}

void LearningModel::setAvailable(bool available)
{
    if (available == m_available)
        return;
    m_available = available;
    emit availableChanged();
}

void LearningModel::setLearningState(bool learning)
{
    if (learning == m_learning)
        return;
    m_learning = learning;
    emit learningChanged();
}

void LearningModel::setSandbox(const QString &sandbox)
{
    if (sandbox == m_sandbox)
        return;
    m_sandbox = sandbox;
    emit sandboxChanged();
    setLearningState(m_learningOf.value(sandbox));
    setProposal({});
    loadProposal();
}

void LearningModel::refresh()
{
    if (!m_policy || !m_policy->connected())
        return;
    m_policy->client()->call(
        QStringLiteral("sandbox.list"), {}, [this, self = QPointer<LearningModel>(this)](const api::Reply &reply) {
            if (!self)
                return;
            if (reply.isError()) {
                setError(reply.errorMessage());
                return;
            }
            QStringList names;
            m_learningOf.clear();
            for (const QJsonValue &value : reply.result().value(QLatin1String("sandboxes")).toArray()) {
                const QJsonObject info = value.toObject();
                const QString name = info.value(QLatin1String("name")).toString();
                names << name;
                m_learningOf.insert(name, info.value(QLatin1String("learning")).toBool());
            }
            if (names != m_sandboxes) {
                m_sandboxes = names;
                emit sandboxesChanged();
            }
            if (!m_sandboxes.contains(m_sandbox))
                setSandbox(m_sandboxes.value(0));
            else
                setLearningState(m_learningOf.value(m_sandbox));
            loadProposal();
        });
}

void LearningModel::setLearning(bool enabled)
{
    if (!m_policy || !m_policy->connected() || m_sandbox.isEmpty())
        return;
    const QString name = m_sandbox;
    m_policy->client()->call(
        QStringLiteral("sandbox.learning"), {{QStringLiteral("name"), name}, {QStringLiteral("enabled"), enabled}},
        [this, name](const api::Reply &reply) {
            if (isUnknownMethod(reply)) {
                setAvailable(false);
                return;
            }
            if (reply.isError()) {
                setError(reply.errorMessage());
                emit learningChanged(); // the switch goes back to what is true
                return;
            }
            setError({});
            const bool learning =
                reply.result().value(QLatin1String("sandbox")).toObject().value(QLatin1String("learning")).toBool();
            m_learningOf.insert(name, learning);
            if (name == m_sandbox)
                setLearningState(learning);
            loadProposal();
        });
}

void LearningModel::loadProposal()
{
    if (!m_policy || !m_policy->connected() || m_sandbox.isEmpty() || !m_available)
        return;
    const QString name = m_sandbox;
    m_policy->client()->call(QStringLiteral("policy.proposal"), {{QStringLiteral("sandbox"), name}},
                             [this, name](const api::Reply &reply) {
                                 if (isUnknownMethod(reply)) {
                                     setAvailable(false);
                                     return;
                                 }
                                 if (name != m_sandbox)
                                     return;
                                 if (reply.isError()) {
                                     setError(reply.errorMessage());
                                     return;
                                 }
                                 setProposal(reply.result());
                             });
}

void LearningModel::setProposal(const QJsonObject &result)
{
    // Choices the user made survive a refresh of the same patterns.
    QHash<QString, bool> previous;
    for (const Proposal &row : std::as_const(m_rows))
        previous.insert(row.pattern, row.checked);
    QList<Proposal> rows;
    for (const QJsonValue &value : result.value(QLatin1String("patterns")).toArray()) {
        const QString pattern =
            value.isObject() ? value.toObject().value(QLatin1String("pattern")).toString() : value.toString();
        if (!pattern.isEmpty())
            rows.append({pattern, previous.value(pattern, true)});
    }
    beginResetModel();
    m_rows = rows;
    m_entries = result.value(QLatin1String("entries")).toArray().toVariantList();
    endResetModel();
    emit proposalChanged();
    emit checkedChanged();
}

int LearningModel::checkedCount() const
{
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Proposal &row) { return row.checked; }));
}

void LearningModel::setChecked(int row, bool checked)
{
    if (row < 0 || row >= m_rows.size() || m_rows.at(row).checked == checked)
        return;
    m_rows[row].checked = checked;
    emit dataChanged(index(row), index(row), {CheckedRole});
    emit checkedChanged();
}

void LearningModel::checkAll(bool checked)
{
    for (int row = 0; row < m_rows.size(); ++row)
        setChecked(row, checked);
}

void LearningModel::apply(bool all, const QString &where)
{
    if (!m_policy || !m_policy->connected() || m_sandbox.isEmpty())
        return;
    QStringList patterns;
    for (const Proposal &row : std::as_const(m_rows)) {
        if (all || row.checked)
            patterns << row.pattern;
    }
    if (patterns.isEmpty())
        return;
    const QString scope =
        where == QLatin1String("global") ? QStringLiteral("global") : QStringLiteral("sandbox:") + m_sandbox;
    // One call per pattern; the summary goes out when the last one answers.
    struct Tally
    {
        int waiting = 0;
        int added = 0;
        QStringList problems;
    };
    auto tally = QSharedPointer<Tally>::create();
    tally->waiting = int(patterns.size());
    for (const QString &pattern : std::as_const(patterns)) {
        m_policy->client()->call(QStringLiteral("policy.add"),
                                 {{QStringLiteral("pattern"), pattern},
                                  {QStringLiteral("decision"), QStringLiteral("allow")},
                                  {QStringLiteral("scope"), scope}},
                                 [this, tally, pattern](const api::Reply &reply) {
                                     if (reply.isError())
                                         tally->problems << QStringLiteral("%1: %2").arg(pattern, reply.errorMessage());
                                     else
                                         ++tally->added;
                                     if (--tally->waiting > 0)
                                         return;
                                     setError(tally->problems.join(QLatin1Char('\n')));
                                     emit applied(tally->added,
                                                  tally->problems.isEmpty()
                                                      ? tr("Allowed %n pattern(s).", nullptr, tally->added)
                                                      : tally->problems.join(QLatin1Char('\n')));
                                 });
    }
}

} // namespace paddock::gui
