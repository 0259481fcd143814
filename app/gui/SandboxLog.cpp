// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxLog.h"

#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSandboxLog, "paddock.gui.sandboxlog", QtWarningMsg)

namespace paddock::gui {

SandboxLog::SandboxLog(QObject *parent) : DaemonBound(parent), m_decoder(QStringDecoder::Utf8)
{
    m_timer.setInterval(kPollIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &SandboxLog::poll);
}

void SandboxLog::setName(const QString &name)
{
    if (m_name == name)
        return;
    m_name = name;
    reset();
    Q_EMIT nameChanged();
    poll();
}

void SandboxLog::setActive(bool active)
{
    if (m_active == active)
        return;
    m_active = active;
    if (m_active) {
        m_timer.start();
        poll();
    } else {
        m_timer.stop();
    }
    Q_EMIT activeChanged();
}

void SandboxLog::reset()
{
    ++m_generation;
    m_reading = false;
    m_offset = 0;
    m_decoder.resetState();
    m_plain.reset();
    if (!m_text.isEmpty()) {
        m_text.clear();
        Q_EMIT textChanged();
    }
    setError(QString());
}

void SandboxLog::poll()
{
    if (!m_active || m_reading || m_name.isEmpty())
        return;
    const quint64 generation = m_generation;
    m_reading = request(QStringLiteral("sandbox.logs"),
                        {{QStringLiteral("name"), m_name}, {QStringLiteral("offset"), m_offset}},
                        [this, generation](const api::Reply &reply) {
                            if (generation != m_generation)
                                return;
                            m_reading = false;
                            if (reply.isError())
                                return setError(reply.errorMessage());
                            setError(QString());
                            read(reply.result());
                        });
}

void SandboxLog::read(const QJsonObject &result)
{
    const qint64 size = result.value(QLatin1String("size")).toInteger();
    if (size < m_offset) {
        // The log started again (the sandbox was re-created): read it from the top.
        reset();
        return poll();
    }
    const QByteArray chunk = QByteArray::fromBase64(result.value(QLatin1String("data")).toString().toLatin1());
    m_offset = result.value(QLatin1String("next")).toInteger();
    if (!chunk.isEmpty()) {
        m_text += m_plain.feed(QString(m_decoder.decode(chunk)));
        if (m_text.size() > kMaxChars) {
            // Cut at a line start so the view never begins mid-line.
            qsizetype cut = m_text.size() - kMaxChars;
            const qsizetype newline = m_text.indexOf(QLatin1Char('\n'), cut);
            cut = newline >= 0 ? newline + 1 : cut;
            m_text.remove(0, cut);
        }
        qCDebug(lcSandboxLog) << "read" << chunk.size() << "bytes of" << m_name;
        Q_EMIT textChanged();
    }
    // More than one chunk waiting: go on at once.
    if (m_offset < size)
        QTimer::singleShot(0, this, &SandboxLog::poll);
}

int SandboxLog::find(const QString &query, int from, bool backwards) const
{
    if (query.isEmpty() || m_text.isEmpty())
        return -1;
    if (backwards) {
        qsizetype found = from > 0 ? m_text.lastIndexOf(query, from - 1, Qt::CaseInsensitive) : -1;
        if (found < 0)
            found = m_text.lastIndexOf(query, -1, Qt::CaseInsensitive);
        return int(found);
    }
    qsizetype found = m_text.indexOf(query, qMax(0, from), Qt::CaseInsensitive);
    if (found < 0)
        found = m_text.indexOf(query, 0, Qt::CaseInsensitive);
    return int(found);
}

int SandboxLog::countMatches(const QString &query) const
{
    return query.isEmpty() ? 0 : int(m_text.count(query, Qt::CaseInsensitive));
}

} // namespace paddock::gui
