// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"

#include <QAbstractListModel>
#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVariant>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

namespace paddock::gui {

/** What a list reads of its rows without knowing their type: Rows<Row> is the one there is. */
class RowStore
{
public:
    virtual ~RowStore() = default;
    /** The rows the filter shows. */
    virtual int shownCount() const = 0;
    /** Every row, the filter's hidden ones too. */
    virtual int totalCount() const = 0;
    /** Role @p role of shown row @p row; Qt::DisplayRole reads the role declared for it. */
    virtual QVariant value(int row, int role) const = 0;
    /** Works out again which rows the filter shows. */
    virtual void refilter() = 0;
};

/**
 * @brief The base of every list of the window: what QML sees of it, whatever its rows.
 *
 * `count` (the rows shown) and `totalCount`, a text `filter`, the state of its load (`loading`,
 * `loaded`, `loadFailed`, with `error` saying why), get(row) with every role, and the daemon it
 * works through (DaemonLink: `daemon`, `connected`). Its rows are a Rows<Row>, which declares
 * the roles; rowCount(), data(), roleNames() and get() all read them there.
 *
 * A list names this base in full (`public paddock::gui::RowListModel`): Qt 6.4's QML type
 * registrar finds a base class only by its qualified name.
 */
class RowListModel : public QAbstractListModel, public DaemonLink
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(paddock::gui::DaemonStatus *daemon READ daemon WRITE setDaemon NOTIFY daemonChanged)
    Q_PROPERTY(bool connected READ connected NOTIFY connectedChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(int totalCount READ totalCount NOTIFY countChanged)
    Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY loadingChanged)
    Q_PROPERTY(bool loadFailed READ loadFailed NOTIFY loadingChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    int rowCount(const QModelIndex &parent = {}) const final;
    QVariant data(const QModelIndex &index, int role) const final;
    QHash<int, QByteArray> roleNames() const final { return m_roleNames; }
    /** Row @p row as QML reads it: every role by its name; empty when there is no such row. */
    Q_INVOKABLE QVariantMap get(int row) const;

    int count() const { return rowCount(); }
    int totalCount() const { return m_store ? m_store->totalCount() : 0; }
    QString filter() const { return m_filter; }
    /** Shows only the rows that match @p filter; an empty filter shows them all. */
    void setFilter(const QString &filter);
    /** A load is under way. */
    bool loading() const { return m_loading; }
    /** A load succeeded once. */
    bool loaded() const { return m_loaded; }
    /** The last load failed: `error` says why. */
    bool loadFailed() const { return m_loadFailed; }
    /** Why the last load or action failed, one sentence; empty when it did not. */
    QString error() const { return m_error; }

Q_SIGNALS:
    void daemonChanged();
    void connectedChanged();
    void countChanged();
    void filterChanged();
    void loadingChanged();
    void errorChanged();

protected:
    explicit RowListModel(QObject *parent);
    void beginLoad();
    void endLoad();
    void failLoad(const QString &message);
    /**
     * Reads with @p method and hands the result to @p apply, with `loading` and `loadFailed`
     * kept; a newer load drops the answer of an older one. False when there is no daemon.
     */
    bool load(const QString &method, const QJsonObject &params, std::function<void(const QJsonObject &)> apply);
    void setError(const QString &error);
    void bindingChanged() override { Q_EMIT daemonChanged(); }
    void connectionChanged() override { Q_EMIT connectedChanged(); }

private:
    template<typename Row>
    friend class Rows;

    RowStore *m_store = nullptr;
    QHash<int, QByteArray> m_roleNames;
    QString m_filter;
    bool m_loading = false;
    bool m_loaded = false;
    bool m_loadFailed = false;
    QString m_error;
    quint64 m_loadGeneration = 0;
};

/**
 * @brief The rows of a list, of type @p Row: the one template the window's lists are made of.
 *
 * A list holds one, made with the list itself, and declares each role once with setRoles(): its
 * id, the name QML reads it by and its value for a row, so roleNames(), data() and get() cannot
 * disagree. The daemon's JSON becomes rows in one place, `Row::fromJson(const QJsonObject &)`
 * (a std::optional: nothing leaves the object out); a row type that can be filtered has
 * `bool matches(const QString &filter) const`. Rows change through reset(), insertAt(),
 * replaceAt() and removeAt(), which tell the views. Positions there count every row, the
 * filter's hidden ones too; rows as QML counts them are the shown ones (shownRow()).
 */
template<typename Row>
class Rows final : public RowStore
{
public:
    /** One role: its id, the name QML reads it by, and its value for a row. */
    struct Role
    {
        int id;
        QByteArray name;
        std::function<QVariant(const Row &row)> value;
    };

    explicit Rows(RowListModel *model) : m_model(model) { m_model->m_store = this; }
    ~Rows() override { m_model->m_store = nullptr; }
    Rows(const Rows &) = delete;
    Rows &operator=(const Rows &) = delete;

    /** The roles, declared once; Qt::DisplayRole reads @p displayRole. */
    void setRoles(QList<Role> roles, int displayRole = -1);

    /** Every row, in order, the filter's hidden ones too. */
    const QList<Row> &all() const { return m_rows; }
    const Row &at(int position) const { return m_rows.at(position); }
    int size() const { return int(m_rows.size()); }
    /** The position of the first row @p test accepts, or -1. */
    template<typename Test>
    int find(Test test) const;
    /** The row QML sees at @p position, or -1 when the filter hides it. */
    int shownRow(int position) const;

    /** Row::fromJson() of each object of @p array. */
    static QList<Row> fromJson(const QJsonArray &array);

    void reset(QList<Row> rows);
    void insertAt(int position, Row row);
    /** Replaces the row at @p position; @p roles are those that changed (empty: any). */
    void replaceAt(int position, Row row, const QList<int> &roles = {});
    void removeAt(int position);
    /** @p roles of every shown row changed (a clock, a count kept beside the rows). */
    void rolesChanged(const QList<int> &roles);

    int shownCount() const override { return int(m_shown.size()); }
    int totalCount() const override { return int(m_rows.size()); }
    QVariant value(int row, int role) const override;
    void refilter() override;

private:
    bool shows(const Row &row) const;
    void showMatching();

    RowListModel *m_model;
    QList<Role> m_roles;
    QHash<int, qsizetype> m_roleAt; ///< role id → index in m_roles
    int m_displayRole = -1;
    QList<Row> m_rows;
    QList<int> m_shown; ///< positions of the rows shown, in order
};

template<typename Row>
void Rows<Row>::setRoles(QList<Role> roles, int displayRole)
{
    m_model->m_roleNames.clear();
    m_roleAt.clear();
    for (qsizetype i = 0; i < roles.size(); ++i) {
        m_model->m_roleNames.insert(roles.at(i).id, roles.at(i).name);
        m_roleAt.insert(roles.at(i).id, i);
    }
    m_roles = std::move(roles);
    m_displayRole = displayRole;
}

template<typename Row>
template<typename Test>
int Rows<Row>::find(Test test) const
{
    const auto found = std::find_if(m_rows.cbegin(), m_rows.cend(), test);
    return found == m_rows.cend() ? -1 : int(found - m_rows.cbegin());
}

template<typename Row>
QVariant Rows<Row>::value(int row, int role) const
{
    const auto found = m_roleAt.constFind(role == Qt::DisplayRole ? m_displayRole : role);
    return found == m_roleAt.cend() ? QVariant() : m_roles.at(found.value()).value(m_rows.at(m_shown.at(row)));
}

template<typename Row>
QList<Row> Rows<Row>::fromJson(const QJsonArray &array)
{
    QList<Row> rows;
    rows.reserve(array.size());
    for (const QJsonValue &value : array) {
        if (std::optional<Row> row = Row::fromJson(value.toObject()))
            rows.append(std::move(*row));
    }
    return rows;
}

template<typename Row>
bool Rows<Row>::shows(const Row &row) const
{
    if constexpr (requires(const Row &each, const QString &filter) { each.matches(filter); }) {
        const QString filter = m_model->filter().trimmed();
        return filter.isEmpty() || row.matches(filter);
    } else {
        return true;
    }
}

template<typename Row>
void Rows<Row>::showMatching()
{
    m_shown.clear();
    for (int position = 0; position < m_rows.size(); ++position) {
        if (shows(m_rows.at(position)))
            m_shown.append(position);
    }
}

template<typename Row>
void Rows<Row>::refilter()
{
    m_model->beginResetModel();
    showMatching();
    m_model->endResetModel();
    Q_EMIT m_model->countChanged();
}

template<typename Row>
void Rows<Row>::reset(QList<Row> rows)
{
    m_model->beginResetModel();
    m_rows = std::move(rows);
    showMatching();
    m_model->endResetModel();
    Q_EMIT m_model->countChanged();
}

template<typename Row>
int Rows<Row>::shownRow(int position) const
{
    const auto at = std::lower_bound(m_shown.cbegin(), m_shown.cend(), position);
    return at != m_shown.cend() && *at == position ? int(at - m_shown.cbegin()) : -1;
}

template<typename Row>
void Rows<Row>::insertAt(int position, Row row)
{
    const bool shown = shows(row);
    const int at = int(std::lower_bound(m_shown.cbegin(), m_shown.cend(), position) - m_shown.cbegin());
    if (shown)
        m_model->beginInsertRows({}, at, at);
    m_rows.insert(position, std::move(row));
    for (qsizetype i = at; i < m_shown.size(); ++i)
        ++m_shown[i];
    if (shown) {
        m_shown.insert(at, position);
        m_model->endInsertRows();
    }
    Q_EMIT m_model->countChanged();
}

template<typename Row>
void Rows<Row>::removeAt(int position)
{
    const int at = shownRow(position);
    if (at >= 0)
        m_model->beginRemoveRows({}, at, at);
    m_rows.removeAt(position);
    if (at >= 0)
        m_shown.removeAt(at);
    for (int &shown : m_shown) {
        if (shown > position)
            --shown;
    }
    if (at >= 0)
        m_model->endRemoveRows();
    Q_EMIT m_model->countChanged();
}

template<typename Row>
void Rows<Row>::replaceAt(int position, Row row, const QList<int> &roles)
{
    const int at = shownRow(position);
    if ((at >= 0) != shows(row)) {
        removeAt(position);
        return insertAt(position, std::move(row));
    }
    m_rows[position] = std::move(row);
    if (at >= 0)
        Q_EMIT m_model->dataChanged(m_model->index(at), m_model->index(at), roles);
}

template<typename Row>
void Rows<Row>::rolesChanged(const QList<int> &roles)
{
    if (!m_shown.isEmpty())
        Q_EMIT m_model->dataChanged(m_model->index(0), m_model->index(int(m_shown.size()) - 1), roles);
}

} // namespace paddock::gui
