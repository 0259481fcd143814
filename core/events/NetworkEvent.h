// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

namespace paddock::events {

/**
 * @brief One connection the egress proxy decided on: refused, let through, or let through
 * but the upstream could not be reached.
 *
 * The proxy fills one of these per connection and hands it to EventHub::publish().
 *
 * JSON form (toJson(), one object per line in a JSONL export). Field names are stable:
 * scripts and course material depend on them, so they are only ever added to.
 *
 * | field       | type    | meaning                                                        |
 * |-------------|---------|----------------------------------------------------------------|
 * | `time`      | string  | ISO 8601 in UTC with milliseconds, `2026-01-31T09:15:02.345Z`   |
 * | `sandbox`   | string  | the sandbox the connection came from                           |
 * | `kit`       | string  | the kit that sandbox runs                                      |
 * | `host`      | string  | the host name or IP literal the client asked for               |
 * | `port`      | number  | destination port, 0-65535                                      |
 * | `protocol`  | string  | `connect`, `http` or `socks` through the proxy; `tcp` for a    |
 * |             |         | connection captured inside the sandbox, `udp` for a datagram   |
 * |             |         | it refused, `dns` for a name server or a name, `ssh-agent` for |
 * |             |         | a sign request to the sandbox's SSH agent (host `ssh-agent`)   |
 * | `outcome`   | string  | `allowed`, `denied`, `upstream-failed` or `learned`            |
 * | `rule`      | string  | the rule that decided, or the default (`default deny`); for    |
 * |             |         | `learned`, what would have refused it                          |
 * | `reason`    | string  | one sentence saying why                                        |
 * | `bytesUp`   | number  | bytes sent by the sandbox (0 for a refusal)                    |
 * | `bytesDown` | number  | bytes received by the sandbox (0 for a refusal)                |
 * | `repeats`   | number  | present when above 1: the same refusal this many times within  |
 * |             |         | a second, kept as one (EventStore::kRowsPerSecondPerDestination)|
 * | `written`   | string  | present when the program's file was written inside the sandbox: |
 * |             |         | where ("/tmp", "the workspace")                                 |
 * | `guardFile` | string  | present on a request the secret guard refused: the file of the  |
 * | `guardName` | string  | value it carried and its name (`.env`, `OPENAI_KEY`); the rule  |
 * |             |         | is then `secret-guard: FILE NAME` (secretGuardRule())           |
 */
/**
 * @brief One HTTP request inside a connection the proxy sees into (plain HTTP, TLS it
 * terminates). JSON adds `method`, `path` (query redacted), `status` (0: no response) and
 * `durationMs` to the event's fields; `rule` is the rule that decided the request.
 */
struct RequestDetail
{
    QString method;
    QString path;
    int status = 0;
    qint64 durationMs = 0;

    bool operator==(const RequestDetail &other) const = default;
};

struct NetworkEvent
{
    enum class Outcome {
        Allowed,        ///< a rule let it through
        Denied,         ///< refused by a rule or by the default
        UpstreamFailed, ///< allowed, but the destination could not be reached
        Learned,        ///< refused by the default, let through because the sandbox is learning
    };

    QDateTime time; ///< UTC, millisecond precision
    QString sandbox;
    QString kit;
    QString host;
    quint16 port = 0;
    QString protocol = QStringLiteral("connect"); ///< connect | http | socks | tcp | udp | dns | ssh-agent
    Outcome outcome = Outcome::Denied;
    QString rule;
    QString reason;
    qint64 bytesUp = 0;
    qint64 bytesDown = 0;
    /**
     * Which program inside the sandbox opened the connection, as its paddock-init said
     * (common/ClientProgram.h); pid 0 and empty strings when not known.
     */
    qint64 pid = 0;
    QString program; ///< the name a rule's program condition matches: "curl", "pip"
    QString exe;     ///< the executable's path inside the sandbox
    QString command; ///< its command line, cut to about 1 KiB
    /**
     * Where its executable or script was written inside the sandbox ("/tmp", "the workspace",
     * "its own root"): not a program of the sandbox's base, whatever its name says. Empty when
     * it comes from the base or nobody knows.
     */
    QString written;
    /** Set: a request record (its bytes are the exchange's), stored apart from connections. */
    std::optional<RequestDetail> request;
    /** How many refusals this one stands for: more than 1 when a destination was refused many times a second. */
    qint64 repeats = 1;

    QJsonObject toJson() const;
    /** Reads the form toJson() writes. Returns nothing and sets @p error for anything else. */
    static std::optional<NetworkEvent> fromJson(const QJsonObject &object, QString *error = nullptr);

    bool operator==(const NetworkEvent &other) const = default;
};

/** @brief The value a secret-guard refusal names: what `sandbox.guard` allows. */
struct GuardedValue
{
    QString file; ///< as `paddock guard show` lists it: ".env", "keychain"
    QString name; ///< a variable's or key's name, never with a space
};

/**
 * The rule of a request the secret guard refused because it carried @p value:
 * `secret-guard: FILE NAME`. The name is the last word, so a file may hold spaces.
 */
QString secretGuardRule(const GuardedValue &value);
/** The value of a rule secretGuardRule() wrote; nothing for any other rule (a redaction too). */
std::optional<GuardedValue> guardedValueOfRule(const QString &rule);

/** `allowed`, `denied`, `upstream-failed` or `learned`. */
QString outcomeToken(NetworkEvent::Outcome outcome);
std::optional<NetworkEvent::Outcome> outcomeFromToken(const QString &token);
/** True for the protocols an event may name: connect, http, socks, tcp, udp, dns. */
bool isKnownProtocol(const QString &protocol);

/** The current time in UTC, truncated to the millisecond precision events keep. */
QDateTime currentEventTime();
/** @p time in UTC as ISO 8601 with milliseconds and a `Z` suffix. */
QString formatEventTime(const QDateTime &time);

} // namespace paddock::events

Q_DECLARE_METATYPE(paddock::events::NetworkEvent)
