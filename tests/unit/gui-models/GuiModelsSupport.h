// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the model tests share: canned daemon messages, and rows read the way QML reads them.
//
// wire/NAME.json holds one message as paddockd sends it (a response {"id":N,"result":{...}} or
// an event {"event":TOPIC,"data":{...}}), spread over lines to be read. It is put back on one
// line and decoded by the protocol's own decoder, as DaemonClient decodes what arrives, before
// a model sees it.

#include "api/Protocol.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTest>

namespace paddock::test {

/** The message of wire/@p name.json as the client decodes it; a failure is recorded when there is none. */
inline api::Message wireMessage(const QString &name)
{
    QFile file(QStringLiteral(PADDOCK_WIRE_DIR "/%1.json").arg(name));
    if (!file.open(QIODevice::ReadOnly)) {
        QTest::qFail(qPrintable(QStringLiteral("cannot read %1").arg(file.fileName())), __FILE__, __LINE__);
        return {};
    }
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    api::DecodeError error;
    const std::optional<api::Message> message = api::decodeMessage(document.toJson(QJsonDocument::Compact), &error);
    if (!message) {
        QTest::qFail(qPrintable(QStringLiteral("%1 is no protocol message: %2").arg(name, error.message)), __FILE__,
                     __LINE__);
        return {};
    }
    return *message;
}

/** The result of the response in wire/@p name.json. */
inline QJsonObject wireResult(const QString &name)
{
    const api::Message message = wireMessage(name);
    if (message.kind != api::Message::Kind::Response || message.reply.isError())
        QTest::qFail(qPrintable(QStringLiteral("%1 is no successful response").arg(name)), __FILE__, __LINE__);
    return message.reply.result();
}

/** The data of the event of topic @p topic in wire/@p name.json. */
inline QJsonObject wireEvent(const QString &name, const QString &topic)
{
    const api::Message message = wireMessage(name);
    if (message.kind != api::Message::Kind::Event || message.event != topic)
        QTest::qFail(qPrintable(QStringLiteral("%1 is no %2 event").arg(name, topic)), __FILE__, __LINE__);
    return message.data;
}

/** @p data with its `time` set to @p time, as a refusal happening then would carry it. */
inline QJsonObject at(QJsonObject data, const QDateTime &time)
{
    data.insert(QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs));
    return data;
}

/** The value of the role QML calls @p name at @p row, as a delegate reads it. */
inline QVariant shown(const QAbstractItemModel &model, int row, const QByteArray &name)
{
    const int role = model.roleNames().key(name, -1);
    if (role < 0)
        return QStringLiteral("<no role %1>").arg(QString::fromLatin1(name));
    return model.data(model.index(row, 0), role);
}

/** Role @p name of every row, top to bottom, as text. */
inline QStringList column(const QAbstractItemModel &model, const QByteArray &name)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << shown(model, row, name).toString();
    return values;
}

} // namespace paddock::test
