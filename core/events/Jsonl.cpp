// SPDX-License-Identifier: GPL-3.0-or-later
#include "events/Jsonl.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace paddock::events {

QByteArray toJsonLine(const NetworkEvent &event)
{
    QByteArray line = QJsonDocument(event.toJson()).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

qint64 writeJsonl(const EventStore &store, const EventFilter &filter, QIODevice &device, QString *error)
{
    qint64 written = 0;
    bool writeFailed = false;
    const bool read = store.forEachEvent(filter, [&](const NetworkEvent &event) {
        const QByteArray line = toJsonLine(event);
        if (device.write(line) != line.size()) {
            writeFailed = true;
            return false;
        }
        ++written;
        return true;
    });
    if (writeFailed) {
        if (error)
            *error = QStringLiteral("Cannot write the export: %1.").arg(device.errorString());
        return -1;
    }
    if (!read) {
        if (error)
            *error = store.errorString();
        return -1;
    }
    return written;
}

bool readJsonl(QIODevice &device, const std::function<bool(const NetworkEvent &)> &sink, QString *error)
{
    qint64 lineNumber = 0;
    while (!device.atEnd()) {
        const QByteArray line = device.readLine().trimmed();
        ++lineNumber;
        if (line.isEmpty())
            continue;
        QJsonParseError parseError{};
        const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
        QString problem;
        std::optional<NetworkEvent> event;
        if (parseError.error != QJsonParseError::NoError)
            problem = parseError.errorString();
        else if (!document.isObject())
            problem = QStringLiteral("expected a JSON object");
        else
            event = NetworkEvent::fromJson(document.object(), &problem);
        if (!event) {
            if (error)
                *error = QStringLiteral("Line %1 is not an event: %2.").arg(lineNumber).arg(problem);
            return false;
        }
        if (!sink(*event))
            return true;
    }
    return true;
}

} // namespace paddock::events
