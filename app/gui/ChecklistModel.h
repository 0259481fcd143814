// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RowModel.h"

#include <QJsonObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

namespace paddock::gui {

/** One check of the course's checklist, as `sandbox.verify` reports it. */
struct VerifyCheck
{
    QString id;
    QString title;
    QString status;
    QString message;
    QString details;

    /** One CHECK {id, title, status, message, details}; one without an id is left out. */
    static std::optional<VerifyCheck> fromJson(const QJsonObject &check);
};

/**
 * @brief The checks of one run of the course's checklist, as `sandbox.verify` reports them:
 * one row per check, added as its event arrives, then settled by the method's result.
 *
 * Rows carry what the daemon sent: checkId (credential, blocked, workspace, log, key), title
 * (in the window's language for the checks it knows), status (ok, failed or skipped), message,
 * and details joined one per line.
 */
class ChecklistModel : public paddock::gui::RowListModel
{
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by ClassroomModel")
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

    int failedCount() const;

    void clear();
    /** One CHECK {id, title, status, message, details}: a new row, or the row of the same id replaced. */
    void applyCheck(const QJsonObject &check);
    /** The method's result {checks: [CHECK..]}: every check, in order. */
    void applyResult(const QJsonObject &result);

    /** @p sent, the daemon's title of check @p id, in the window's language when it is known here. */
    static QString titleOf(const QString &id, const QString &sent);

private:
    Rows<VerifyCheck> m_rows{this};
};

} // namespace paddock::gui
