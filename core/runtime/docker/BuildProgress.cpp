// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/BuildProgress.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <utility>

namespace paddock::runtime::docker {

BuildProgressParser::BuildProgressParser(Callback callback) : m_callback(std::move(callback)) {}

void BuildProgressParser::feed(const char *data, size_t size)
{
    m_pending.append(data, qsizetype(size));
    qsizetype newline;
    while ((newline = m_pending.indexOf('\n')) >= 0) {
        const QByteArray line = m_pending.left(newline);
        m_pending.remove(0, newline + 1);
        parseLine(line);
    }
}

void BuildProgressParser::finish()
{
    if (!m_pending.trimmed().isEmpty())
        parseLine(std::exchange(m_pending, QByteArray()));
    if (failed())
        return;
    m_progress.percent = 100;
    m_progress.output.clear();
    if (m_callback)
        m_callback(m_progress);
}

void BuildProgressParser::parseLine(const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    const QJsonObject message = QJsonDocument::fromJson(line).object();
    if (message.isEmpty())
        return; // not JSON: nothing a progress report can use
    if (message.contains(QStringLiteral("error")) || message.contains(QStringLiteral("errorDetail"))) {
        QString error =
            message.value(QStringLiteral("errorDetail")).toObject().value(QStringLiteral("message")).toString();
        if (error.isEmpty())
            error = message.value(QStringLiteral("error")).toString();
        m_error = error.isEmpty() ? QStringLiteral("the build failed") : error.trimmed();
        return;
    }
    const QString id = message.value(QStringLiteral("aux")).toObject().value(QStringLiteral("ID")).toString();
    if (!id.isEmpty())
        m_imageId = id;
    const QString text = message.value(QStringLiteral("stream")).toString();
    if (!text.isEmpty())
        handleText(text);
}

void BuildProgressParser::handleText(const QString &text)
{
    static const QRegularExpression stepLine(QStringLiteral("^Step (\\d+)/(\\d+) : (.*)$"));
    m_log += text;
    m_textLine += text;
    // The engine sends "Step N/M : ..." without its newline: act on it as soon as it is seen.
    const qsizetype newline = m_textLine.lastIndexOf(QLatin1Char('\n'));
    const QString unfinished = m_textLine.mid(newline + 1);
    const QStringList lines = m_textLine.left(newline + 1).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    m_textLine = unfinished;

    bool stepChanged = false;
    for (const QString &line : lines + QStringList{unfinished}) {
        const QRegularExpressionMatch match = stepLine.match(line.trimmed());
        if (!match.hasMatch())
            continue;
        const int step = match.captured(1).toInt();
        const int total = match.captured(2).toInt();
        if (step == m_progress.step && total == m_progress.totalSteps)
            continue;
        m_progress.step = step;
        m_progress.totalSteps = total;
        m_progress.instruction = match.captured(3).trimmed();
        m_progress.percent = total > 0 ? std::min(99, (step - 1) * 100 / total) : 0;
        stepChanged = true;
    }
    m_progress.output = text;
    if (m_callback && (stepChanged || !text.trimmed().isEmpty()))
        m_callback(m_progress);
}

} // namespace paddock::runtime::docker
