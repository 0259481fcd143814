// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/AgentConfig.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <sys/types.h>

#include <optional>

namespace paddock::agentperms {

/**
 * @brief One decision of pi-permission-system that refused or questioned a tool call, read
 * from a line of its review log.
 *
 * Kept: `permission_request.blocked` (a deny rule, or a gate error: state deny),
 * `permission_request.waiting` (an ask: the person was asked), and the `denied` /
 * `approved` line closing an ask (@c resolution says which). Everything else in the log
 * (config.resolved, session approvals, auto-approvals) is not a refusal.
 */
struct AgentDecision
{
    QDateTime time;
    QString event; ///< blocked, waiting, denied, approved, gate_error
    State state = State::Deny;
    QString tool;       ///< toolName
    QString path;       ///< for file tools and path gates
    QString command;    ///< for bash
    QString target;     ///< for MCP
    QString resolution; ///< policy_denied, user_denied, confirmation_unavailable, approved…
    QString matched;    ///< the pattern the extension names in its message, when it does
    QString origin;     ///< the scope the extension names (global, project), when it does
    QString callId;     ///< toolCallId / requestId: an ask and its answer share it

    /** The value a rule would match: the command, else the path, else the target. */
    QString value() const;
    QJsonObject toJson() const;
    static AgentDecision fromJson(const QJsonObject &object);
};

/** The longest review-log line read; a longer one is skipped whole. */
constexpr qsizetype kMaxReviewLineBytes = 64 * 1024;

/** Reads one line of the review log; nothing when it is not a refusal, or not JSON. */
std::optional<AgentDecision> parseReviewLine(const QByteArray &line);

/**
 * @brief Follows the review log in a sandbox's home: the lines appended since the last poll.
 *
 * The file is written by the sandbox, so it is hostile: it is reached with readConfined()'s
 * rules (no link followed anywhere under the home, a regular file only), read at most
 * kMaxReadPerPoll bytes per poll, and a line longer than kMaxReviewLineBytes is dropped up to
 * its newline. A partial last line waits for its end. A file replaced (another inode) or cut
 * shorter than what was read is read again from its start (rotation); a file that is already
 * large when first seen is read from its last kMaxBacklog bytes.
 */
class ReviewLogFollower
{
public:
    static constexpr qint64 kMaxReadPerPoll = 256 * 1024;
    static constexpr qint64 kMaxBacklog = 1024 * 1024;

    explicit ReviewLogFollower(QString home);

    /** The complete lines added since the last call. @p problem says why the file could not be read. */
    QList<QByteArray> poll(QString *problem = nullptr);
    QString home() const { return m_home; }

private:
    QString m_home;
    bool m_opened = false;
    dev_t m_device = 0;
    ino_t m_inode = 0;
    qint64 m_offset = 0;
    QByteArray m_partial;
    bool m_skippingLongLine = false;
};

} // namespace paddock::agentperms
