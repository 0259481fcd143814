// SPDX-License-Identifier: GPL-3.0-or-later
#include "RowModel.h"

namespace paddock::gui {

RowListModel::RowListModel(QObject *parent) : QAbstractListModel(parent), DaemonLink(this) {}

int RowListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_store ? 0 : m_store->shownCount();
}

QVariant RowListModel::data(const QModelIndex &index, int role) const
{
    if (!m_store || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return m_store->value(index.row(), role);
}

QVariantMap RowListModel::get(int row) const
{
    QVariantMap map;
    if (row < 0 || row >= rowCount())
        return map;
    const QModelIndex at = index(row);
    for (auto it = m_roleNames.cbegin(); it != m_roleNames.cend(); ++it)
        map.insert(QString::fromLatin1(it.value()), data(at, it.key()));
    return map;
}

void RowListModel::setFilter(const QString &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    if (m_store)
        m_store->refilter();
    Q_EMIT filterChanged();
}

void RowListModel::setError(const QString &error)
{
    if (error == m_error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

void RowListModel::beginLoad()
{
    if (m_loading)
        return;
    m_loading = true;
    Q_EMIT loadingChanged();
}

void RowListModel::endLoad()
{
    // A load that succeeds answers the load that failed, not an action that did.
    if (m_loadFailed)
        setError(QString());
    m_loading = false;
    m_loaded = true;
    m_loadFailed = false;
    Q_EMIT loadingChanged();
}

void RowListModel::failLoad(const QString &message)
{
    m_loading = false;
    m_loadFailed = true;
    setError(message);
    Q_EMIT loadingChanged();
}

bool RowListModel::load(const QString &method, const QJsonObject &params,
                        std::function<void(const QJsonObject &)> apply)
{
    const quint64 generation = ++m_loadGeneration;
    const bool sent = request(method, params, [this, generation, apply = std::move(apply)](const api::Reply &reply) {
        if (generation != m_loadGeneration)
            return;
        if (reply.isError())
            return failLoad(reply.errorMessage());
        apply(reply.result());
        endLoad();
    });
    if (sent)
        beginLoad();
    return sent;
}

} // namespace paddock::gui
