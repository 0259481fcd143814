// SPDX-License-Identifier: GPL-3.0-or-later
#include "api/Protocol.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace paddock::api {

Reply Reply::success(const QJsonObject &result)
{
    Reply reply;
    reply.m_result = result;
    return reply;
}

Reply Reply::failure(const QString &code, const QString &message)
{
    Reply reply;
    reply.m_isError = true;
    reply.m_errorCode = code;
    reply.m_errorMessage = message;
    return reply;
}

namespace {

// JSON numbers are doubles; an id must survive the round trip exactly.
constexpr double kLargestExactInteger = 9007199254740991.0; // 2^53 - 1

std::optional<qint64> integerId(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double number = value.toDouble();
    if (number < 0 || number > kLargestExactInteger || std::floor(number) != number)
        return std::nullopt;
    return static_cast<qint64>(number);
}

Reply decodeReply(const QJsonObject &object)
{
    if (object.contains(QLatin1String("error"))) {
        const QJsonObject error = object.value(QLatin1String("error")).toObject();
        return Reply::failure(error.value(QLatin1String("code")).toString(),
                              error.value(QLatin1String("message")).toString());
    }
    return Reply::success(object.value(QLatin1String("result")).toObject());
}

std::optional<Message> refuse(DecodeError *error, const char *code, const QString &message,
                              std::optional<qint64> id = std::nullopt)
{
    if (error)
        *error = DecodeError{QLatin1String(code), message, id};
    return std::nullopt;
}

std::optional<Message> decodeHello(const QJsonObject &object, DecodeError *error)
{
    const QJsonValue hello = object.value(QLatin1String("hello"));
    if (!hello.isObject())
        return refuse(error, errors::kInvalidRequest, QStringLiteral("\"hello\" must be an object"));
    Message message;
    message.kind = Message::Kind::Hello;
    message.hello = hello.toObject();
    return message;
}

std::optional<Message> decodeRequest(const QJsonObject &object, DecodeError *error)
{
    const std::optional<qint64> id = integerId(object.value(QLatin1String("id")));
    if (!id)
        return refuse(error, errors::kInvalidRequest,
                      QStringLiteral("a request needs an \"id\" that is a non-negative integer"));
    const QJsonValue method = object.value(QLatin1String("method"));
    if (!method.isString() || method.toString().isEmpty())
        return refuse(error, errors::kInvalidRequest, QStringLiteral("\"method\" must be a non-empty string"), id);
    const QJsonValue params = object.value(QLatin1String("params"));
    if (!params.isUndefined() && !params.isNull() && !params.isObject())
        return refuse(error, errors::kInvalidRequest, QStringLiteral("\"params\" must be an object"), id);
    Message message;
    message.kind = Message::Kind::Request;
    message.id = id;
    message.method = method.toString();
    message.params = params.toObject();
    return message;
}

std::optional<Message> decodeEvent(const QJsonObject &object, DecodeError *error)
{
    const QJsonValue event = object.value(QLatin1String("event"));
    if (!event.isString())
        return refuse(error, errors::kInvalidRequest, QStringLiteral("\"event\" must be a string"));
    Message message;
    message.kind = Message::Kind::Event;
    message.event = event.toString();
    message.data = object.value(QLatin1String("data")).toObject();
    return message;
}

// A message with "result" or "error": a response to a request, or an error about the connection.
std::optional<Message> decodeResponse(const QJsonObject &object, DecodeError *error)
{
    const bool hasError = object.contains(QLatin1String("error"));
    if (hasError && !object.value(QLatin1String("error")).isObject())
        return refuse(error, errors::kInvalidRequest, QStringLiteral("\"error\" must be an object"));
    Message message;
    if (object.contains(QLatin1String("id"))) {
        const QJsonValue idValue = object.value(QLatin1String("id"));
        message.kind = Message::Kind::Response;
        if (!idValue.isNull()) {
            message.id = integerId(idValue);
            if (!message.id)
                return refuse(error, errors::kInvalidRequest,
                              QStringLiteral("\"id\" must be a non-negative integer or null"));
        }
    } else if (hasError) {
        message.kind = Message::Kind::Error;
    } else {
        return refuse(error, errors::kInvalidRequest, QStringLiteral("a response needs an \"id\""));
    }
    message.reply = decodeReply(object);
    return message;
}

} // namespace

std::optional<Message> decodeMessage(const QByteArray &line, DecodeError *error)
{
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return refuse(
            error, errors::kMalformedJson,
            QStringLiteral("malformed JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    if (!document.isObject())
        return refuse(error, errors::kInvalidRequest, QStringLiteral("a message must be a JSON object"));
    const QJsonObject object = document.object();
    if (object.contains(QLatin1String("hello")))
        return decodeHello(object, error);
    if (object.contains(QLatin1String("method")))
        return decodeRequest(object, error);
    if (object.contains(QLatin1String("event")))
        return decodeEvent(object, error);
    if (object.contains(QLatin1String("result")) || object.contains(QLatin1String("error")))
        return decodeResponse(object, error);
    return refuse(error, errors::kInvalidRequest,
                  QStringLiteral("the message is neither a hello, a request, a response nor an event"));
}

QByteArray encodeLine(const QJsonObject &object)
{
    // Compact JSON escapes control characters inside strings, so the line has no raw newline.
    QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

QByteArray encodeHello(const QJsonObject &hello)
{
    return encodeLine(QJsonObject{{QStringLiteral("hello"), hello}});
}

QByteArray encodeRequest(qint64 id, const QString &method, const QJsonObject &params)
{
    return encodeLine(QJsonObject{
        {QStringLiteral("id"), id}, {QStringLiteral("method"), method}, {QStringLiteral("params"), params}});
}

QByteArray encodeResponse(std::optional<qint64> id, const Reply &reply)
{
    QJsonObject object;
    object.insert(QStringLiteral("id"), id ? QJsonValue(*id) : QJsonValue(QJsonValue::Null));
    if (reply.isError()) {
        object.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), reply.errorCode()},
                                                           {QStringLiteral("message"), reply.errorMessage()}});
    } else {
        object.insert(QStringLiteral("result"), reply.result());
    }
    return encodeLine(object);
}

QByteArray encodeEvent(const QString &topic, const QJsonObject &data)
{
    return encodeLine(QJsonObject{{QStringLiteral("event"), topic}, {QStringLiteral("data"), data}});
}

QByteArray encodeFatalError(const QString &code, const QString &message)
{
    return encodeLine(QJsonObject{
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}});
}

LineBuffer::LineBuffer(qsizetype maxLineBytes) : m_maxLineBytes(maxLineBytes) {}

QList<QByteArray> LineBuffer::append(const QByteArray &bytes)
{
    QList<QByteArray> lines;
    if (m_oversized)
        return lines;
    m_pending.append(bytes);
    qsizetype start = 0;
    while (true) {
        const qsizetype newline = m_pending.indexOf('\n', start);
        if (newline < 0)
            break;
        if (newline - start > m_maxLineBytes) {
            m_oversized = true;
            m_pending.clear();
            return lines;
        }
        lines << m_pending.mid(start, newline - start);
        start = newline + 1;
    }
    m_pending.remove(0, start);
    // An unfinished line already past the limit will never become acceptable.
    if (m_pending.size() > m_maxLineBytes) {
        m_oversized = true;
        m_pending.clear();
    }
    return lines;
}

} // namespace paddock::api
