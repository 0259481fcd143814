// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractListModel>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/**
 * @brief The checks of one run of the course's checklist, as `sandbox.verify` reports them:
 * one row per check, added as its event arrives, then settled by the method's result.
 *
 * Rows carry what the daemon sent: checkId (credential, blocked, workspace, log, key), title
 * (in the window's language for the checks it knows), status (ok, failed or skipped), message,
 * and details joined one per line.
 */
class ChecklistModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by ClassroomModel")
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(int failedCount READ failedCount NOTIFY countChanged)

public:
    enum Role {
        CheckIdRole = Qt::UserRole + 1,
        TitleRole,
        StatusRole,
        MessageRole,
        DetailsRole,
    };
    Q_ENUM(Role)

    explicit ChecklistModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    int count() const { return int(m_checks.size()); }
    int failedCount() const;

    void clear();
    /** One CHECK {id, title, status, message, details}: a new row, or the row of the same id replaced. */
    void applyCheck(const QJsonObject &check);
    /** The method's result {checks: [CHECK..]}: every check, in order. */
    void applyResult(const QJsonObject &result);

Q_SIGNALS:
    void countChanged();

private:
    struct Check
    {
        QString id;
        QString title;
        QString status;
        QString message;
        QString details;
    };
    static Check fromJson(const QJsonObject &check);
    static QString titleOf(const QString &id, const QString &sent);

    QList<Check> m_checks;
};

} // namespace paddock::gui
