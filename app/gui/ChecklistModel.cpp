// SPDX-License-Identifier: GPL-3.0-or-later
#include "ChecklistModel.h"

#include <QJsonArray>

#include <algorithm>

namespace paddock::gui {

ChecklistModel::ChecklistModel(QObject *parent) : QAbstractListModel(parent) {}

int ChecklistModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_checks.size());
}

QVariant ChecklistModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_checks.size())
        return {};
    const Check &check = m_checks.at(index.row());
    switch (role) {
    case CheckIdRole:
        return check.id;
    case Qt::DisplayRole:
    case TitleRole:
        return check.title;
    case StatusRole:
        return check.status;
    case MessageRole:
        return check.message;
    case DetailsRole:
        return check.details;
    default:
        return {};
    }
}

QHash<int, QByteArray> ChecklistModel::roleNames() const
{
    return {{CheckIdRole, "checkId"},
            {TitleRole, "title"},
            {StatusRole, "status"},
            {MessageRole, "message"},
            {DetailsRole, "details"}};
}

int ChecklistModel::failedCount() const
{
    return int(std::count_if(m_checks.cbegin(), m_checks.cend(),
                             [](const Check &check) { return check.status == QLatin1String("failed"); }));
}

QString ChecklistModel::titleOf(const QString &id, const QString &sent)
{
    // The daemon's titles are English; the window says the ones it knows in the user's language.
    if (id == QLatin1String("credential"))
        return tr("The credential variable inside is the sentinel");
    if (id == QLatin1String("blocked"))
        return tr("A domain on no list is refused and logged");
    if (id == QLatin1String("workspace"))
        return tr("A file edited inside appears on the host");
    if (id == QLatin1String("log"))
        return tr("The policy log shows no refusal the policy did not choose");
    if (id == QLatin1String("key"))
        return tr("The key reaches its provider");
    return sent;
}

ChecklistModel::Check ChecklistModel::fromJson(const QJsonObject &check)
{
    QStringList details;
    for (const QJsonValue &detail : check.value(QLatin1String("details")).toArray())
        details << detail.toString();
    const QString id = check.value(QLatin1String("id")).toString();
    return {id, titleOf(id, check.value(QLatin1String("title")).toString()),
            check.value(QLatin1String("status")).toString(), check.value(QLatin1String("message")).toString(),
            details.join(QLatin1Char('\n'))};
}

void ChecklistModel::clear()
{
    if (m_checks.isEmpty())
        return;
    beginResetModel();
    m_checks.clear();
    endResetModel();
    Q_EMIT countChanged();
}

void ChecklistModel::applyCheck(const QJsonObject &check)
{
    const Check row = fromJson(check);
    if (row.id.isEmpty())
        return;
    for (qsizetype i = 0; i < m_checks.size(); ++i) {
        if (m_checks.at(i).id != row.id)
            continue;
        m_checks[i] = row;
        Q_EMIT dataChanged(index(int(i)), index(int(i)));
        Q_EMIT countChanged(); // failedCount may change
        return;
    }
    beginInsertRows({}, int(m_checks.size()), int(m_checks.size()));
    m_checks << row;
    endInsertRows();
    Q_EMIT countChanged();
}

void ChecklistModel::applyResult(const QJsonObject &result)
{
    beginResetModel();
    m_checks.clear();
    for (const QJsonValue &check : result.value(QLatin1String("checks")).toArray()) {
        const Check row = fromJson(check.toObject());
        if (!row.id.isEmpty())
            m_checks << row;
    }
    endResetModel();
    Q_EMIT countChanged();
}

} // namespace paddock::gui
