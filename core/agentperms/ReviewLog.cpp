// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentperms/ReviewLog.h"

#include "agentperms/ConfinedFile.h"

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::agentperms {
namespace {

constexpr qsizetype kMaxFieldChars = 4096;

QString field(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isString() ? value.toString().left(kMaxFieldChars) : QString();
}

/** Which text member of an AgentDecision a JSON key fills. */
struct FieldKey
{
    QString AgentDecision::*member;
    const char *key;
};

void readFields(AgentDecision &decision, const QJsonObject &object, std::initializer_list<FieldKey> keys)
{
    for (const FieldKey &each : keys)
        decision.*each.member = field(object, each.key);
}

} // namespace

QString AgentDecision::value() const
{
    if (!command.isEmpty())
        return command;
    if (!path.isEmpty())
        return path;
    return target;
}

QJsonObject AgentDecision::toJson() const
{
    return {{QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
            {QStringLiteral("event"), event},
            {QStringLiteral("state"), stateName(state)},
            {QStringLiteral("tool"), tool},
            {QStringLiteral("path"), path},
            {QStringLiteral("command"), command},
            {QStringLiteral("target"), target},
            {QStringLiteral("resolution"), resolution},
            {QStringLiteral("matched"), matched},
            {QStringLiteral("origin"), origin},
            {QStringLiteral("callId"), callId}};
}

AgentDecision AgentDecision::fromJson(const QJsonObject &o)
{
    AgentDecision d;
    d.time = QDateTime::fromString(o.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
    d.state = stateFromName(field(o, "state")).value_or(State::Deny);
    readFields(d, o,
               {{&AgentDecision::event, "event"},
                {&AgentDecision::tool, "tool"},
                {&AgentDecision::path, "path"},
                {&AgentDecision::command, "command"},
                {&AgentDecision::target, "target"},
                {&AgentDecision::resolution, "resolution"},
                {&AgentDecision::matched, "matched"},
                {&AgentDecision::origin, "origin"},
                {&AgentDecision::callId, "callId"}});
    return d;
}

std::optional<AgentDecision> parseReviewLine(const QByteArray &line)
{
    if (line.size() > kMaxReviewLineBytes)
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(line).object();
    const QString event = field(o, "event");
    static const QString prefix = QStringLiteral("permission_request.");
    if (!event.startsWith(prefix))
        return std::nullopt;
    AgentDecision d;
    d.event = event.mid(prefix.size());
    if (d.event == QLatin1String("blocked") || d.event == QLatin1String("gate_error"))
        d.state = State::Deny;
    else if (d.event == QLatin1String("waiting") || d.event == QLatin1String("denied") ||
             d.event == QLatin1String("approved"))
        d.state = State::Ask;
    else
        return std::nullopt;
    d.time = QDateTime::fromString(field(o, "timestamp"), Qt::ISODateWithMs);
    if (!d.time.isValid())
        d.time = QDateTime::currentDateTimeUtc();
    readFields(d, o,
               {{&AgentDecision::tool, "toolName"},
                {&AgentDecision::path, "path"},
                {&AgentDecision::command, "command"},
                {&AgentDecision::target, "target"},
                {&AgentDecision::resolution, "resolution"},
                {&AgentDecision::origin, "origin"},
                {&AgentDecision::callId, "toolCallId"}});
    if (d.callId.isEmpty())
        d.callId = field(o, "requestId");
    static const QRegularExpression matched(QStringLiteral("\\(matched '([^']*)'\\)"));
    const QRegularExpressionMatch match = matched.match(field(o, "message"));
    if (match.hasMatch())
        d.matched = match.captured(1);
    return d;
}

ReviewLogFollower::ReviewLogFollower(QString home) : m_home(std::move(home)) {}

QList<QByteArray> ReviewLogFollower::poll(QString *problem)
{
    QString error;
    const QString relative = reviewLogRelativePath();
    UniqueFd dir = openConfinedParent(m_home, relative, false, &error);
    if (!dir) {
        // No log yet (the agent has not started, or the review log is off): nothing to say.
        if (problem && error.contains(QLatin1String("link")))
            *problem = error;
        return {};
    }
    const QByteArray name = QFile::encodeName(relative.section(QLatin1Char('/'), -1));
    UniqueFd fd(::openat(dir.get(), name.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat st
    {};
    if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        if (problem && fd)
            *problem = QStringLiteral("the review log in %1 is not a regular file; it is not read").arg(m_home);
        else if (problem && errno == ELOOP)
            *problem = QStringLiteral("the review log in %1 is a link; it is not followed").arg(m_home);
        return {};
    }
    const bool replaced = m_opened && (st.st_dev != m_device || st.st_ino != m_inode);
    if (!m_opened || replaced || st.st_size < m_offset) {
        // First sight, rotation or truncation: from the start, or the end of a large file.
        m_offset = m_opened ? 0 : std::max<qint64>(0, st.st_size - kMaxBacklog);
        m_skippingLongLine = m_offset > 0;
        m_partial.clear();
        m_opened = true;
        m_device = st.st_dev;
        m_inode = st.st_ino;
    }
    const qint64 available = std::min<qint64>(st.st_size - m_offset, kMaxReadPerPoll);
    if (available <= 0)
        return {};
    QByteArray chunk(qsizetype(available), Qt::Uninitialized);
    const ssize_t got = ::pread(fd.get(), chunk.data(), size_t(available), off_t(m_offset));
    if (got <= 0)
        return {};
    chunk.truncate(qsizetype(got));
    m_offset += got;

    QList<QByteArray> lines;
    qsizetype start = 0;
    for (qsizetype newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
        if (!m_skippingLongLine) {
            m_partial += chunk.mid(start, newline - start);
            if (m_partial.size() <= kMaxReviewLineBytes && !m_partial.trimmed().isEmpty())
                lines.append(m_partial);
        }
        m_partial.clear();
        m_skippingLongLine = false;
        start = newline + 1;
    }
    if (!m_skippingLongLine) {
        m_partial += chunk.mid(start);
        if (m_partial.size() > kMaxReviewLineBytes) {
            m_partial.clear();
            m_skippingLongLine = true;
        }
    }
    return lines;
}

} // namespace paddock::agentperms
