// SPDX-License-Identifier: GPL-3.0-or-later
#include "LearningModel.h"

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

LearningModel::LearningModel(QObject *parent) : RowListModel(parent)
{
    // Not "checked": the check box showing a row has a property of that name.
    m_rows.setRoles({{PatternRole, "pattern", [](const ProposedPattern &row) { return row.pattern; }},
                     {CheckedRole, "chosen", [](const ProposedPattern &row) { return row.checked; }}},
                    PatternRole);
}

bool LearningModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != CheckedRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    setChecked(index.row(), value.toBool());
    return true;
}

void LearningModel::setPolicy(NetworkPolicy *policy)
{
    if (m_policy == policy)
        return;
    if (m_policy) {
        m_policy->denials()->disconnect(this);
        disconnect(m_policy, &NetworkPolicy::policyChanged, this, nullptr);
    }
    m_policy = policy;
    // Learned connections arrive as events of their own: the proposal grows as they come. A
    // rule added anywhere (the CLI, an answer in ask mode, the Allow dialog) takes what it
    // allows out of the proposal: the daemon leaves out what the policy allows already.
    if (m_policy) {
        connect(m_policy->denials(), &DenialsModel::denied, this, [this] { loadProposal(); });
        connect(m_policy, &NetworkPolicy::policyChanged, this, [this] { loadProposal(); });
    }
    followDaemonOf(policy);
    emit policyChanged();
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
    request(QStringLiteral("sandbox.list"), {}, [this](const api::Reply &reply) {
        if (reply.isError())
            return setError(reply.errorMessage());
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
    if (m_sandbox.isEmpty())
        return;
    const QString name = m_sandbox;
    act(QStringLiteral("sandbox.learning"), {{QStringLiteral("name"), name}, {QStringLiteral("enabled"), enabled}},
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
    if (m_sandbox.isEmpty() || !m_available)
        return;
    const QString name = m_sandbox;
    request(QStringLiteral("policy.proposal"), {{QStringLiteral("sandbox"), name}},
            [this, name](const api::Reply &reply) {
                if (isUnknownMethod(reply))
                    return setAvailable(false);
                if (name != m_sandbox)
                    return;
                if (reply.isError())
                    return setError(reply.errorMessage());
                setProposal(reply.result());
            });
}

void LearningModel::setProposal(const QJsonObject &result)
{
    // Choices the user made survive a refresh of the same patterns.
    QHash<QString, bool> previous;
    for (const ProposedPattern &row : m_rows.all())
        previous.insert(row.pattern, row.checked);
    QList<ProposedPattern> next;
    for (const QJsonValue &value : result.value(QLatin1String("patterns")).toArray()) {
        const QString pattern =
            value.isObject() ? value.toObject().value(QLatin1String("pattern")).toString() : value.toString();
        if (!pattern.isEmpty())
            next.append({pattern, previous.value(pattern, true)});
    }
    m_entries = result.value(QLatin1String("entries")).toArray().toVariantList();
    m_rows.reset(next);
    emit proposalChanged();
    emit checkedChanged();
}

int LearningModel::checkedCount() const
{
    return int(std::count_if(m_rows.all().cbegin(), m_rows.all().cend(),
                             [](const ProposedPattern &row) { return row.checked; }));
}

void LearningModel::setChecked(int row, bool checked)
{
    if (row < 0 || row >= m_rows.size() || m_rows.at(row).checked == checked)
        return;
    m_rows.replaceAt(row, {m_rows.at(row).pattern, checked}, {CheckedRole});
    emit checkedChanged();
}

void LearningModel::checkAll(bool checked)
{
    for (int row = 0; row < m_rows.size(); ++row)
        setChecked(row, checked);
}

void LearningModel::apply(bool all, const QString &where)
{
    if (m_sandbox.isEmpty())
        return;
    QStringList patterns;
    for (const ProposedPattern &row : m_rows.all()) {
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
        act(QStringLiteral("policy.add"),
            {{QStringLiteral("pattern"), pattern},
             {QStringLiteral("decision"), QStringLiteral("allow")},
             {QStringLiteral("scope"), scope}},
            [this, tally, pattern](const api::Reply &reply) {
                // Without a daemon every pattern fails the same way: said once.
                const QString problem = reply.errorCode() == QLatin1String(api::errors::kDisconnected)
                                            ? reply.errorMessage()
                                            : QStringLiteral("%1: %2").arg(pattern, reply.errorMessage());
                if (!reply.isError())
                    ++tally->added;
                else if (!tally->problems.contains(problem))
                    tally->problems << problem;
                if (--tally->waiting > 0)
                    return;
                setError(tally->problems.join(QLatin1Char('\n')));
                emit applied(tally->added, tally->problems.isEmpty()
                                               ? tr("Allowed %n pattern(s).", nullptr, tally->added)
                                               : tally->problems.join(QLatin1Char('\n')));
            });
    }
}

} // namespace paddock::gui
