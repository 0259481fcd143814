// SPDX-License-Identifier: GPL-3.0-or-later
#include "SandboxLog.h"

#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSandboxLog, "paddock.gui.sandboxlog", QtWarningMsg)

namespace paddock::gui {

SandboxLog::SandboxLog(QObject *parent) : QObject(parent), m_decoder(QStringDecoder::Utf8)
{
    m_timer.setInterval(kPollIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &SandboxLog::poll);
}

void SandboxLog::setDaemon(DaemonStatus *daemon)
{
    if (m_daemon == daemon)
        return;
    m_daemon = daemon;
    Q_EMIT daemonChanged();
    poll();
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

void SandboxLog::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    Q_EMIT errorChanged();
}

void SandboxLog::poll()
{
    if (!m_active || m_reading || m_name.isEmpty() || !m_daemon || !m_daemon->connected())
        return;
    m_reading = true;
    QPointer<SandboxLog> self(this);
    const quint64 generation = m_generation;
    m_daemon->client()->call(
        QStringLiteral("sandbox.logs"), {{QStringLiteral("name"), m_name}, {QStringLiteral("offset"), m_offset}},
        [self, generation](const api::Reply &reply) {
            if (!self || generation != self->m_generation)
                return;
            self->m_reading = false;
            if (reply.isError()) {
                self->setError(reply.errorMessage());
                return;
            }
            self->setError(QString());
            const QJsonObject result = reply.result();
            const qint64 size = result.value(QLatin1String("size")).toInteger();
            if (size < self->m_offset) {
                // The log started again (the sandbox was re-created): read it from the top.
                self->reset();
                return self->poll();
            }
            const QByteArray chunk = QByteArray::fromBase64(result.value(QLatin1String("data")).toString().toLatin1());
            self->m_offset = result.value(QLatin1String("next")).toInteger();
            if (!chunk.isEmpty()) {
                self->m_text += self->m_plain.feed(QString(self->m_decoder.decode(chunk)));
                if (self->m_text.size() > kMaxChars) {
                    // Cut at a line start so the view never begins mid-line.
                    qsizetype cut = self->m_text.size() - kMaxChars;
                    const qsizetype newline = self->m_text.indexOf(QLatin1Char('\n'), cut);
                    cut = newline >= 0 ? newline + 1 : cut;
                    self->m_text.remove(0, cut);
                }
                qCDebug(lcSandboxLog) << "read" << chunk.size() << "bytes of" << self->m_name;
                Q_EMIT self->textChanged();
            }
            // More than one chunk waiting: go on at once.
            if (self->m_offset < size)
                QTimer::singleShot(0, self, &SandboxLog::poll);
        });
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
