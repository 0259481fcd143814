// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/*
 * The paddockd protocol, version 1.
 *
 * Transport: a unix stream socket, `$XDG_RUNTIME_DIR/paddock/paddockd.sock`, in a directory
 * of mode 0700, the socket itself 0600. Both ends check the other's uid (SO_PEERCRED):
 * the daemon closes any connection from another user without a word, and a client sends
 * nothing, not even its hello, to a socket served by another user.
 *
 * Framing: newline-delimited JSON. Every message is one JSON object encoded on one line
 * (UTF-8, compact, no raw newline inside) and terminated by "\n". A line longer than
 * kMaxLineBytes (without its newline) is refused: the receiver sends a `line-too-long`
 * error and closes the connection, since it cannot know where the next message starts.
 *
 * Handshake: the client speaks first.
 *   client -> {"hello":{"protocol":1,"client":"paddock 0.1.0"}}
 *   server -> {"hello":{"protocol":1,"server":"paddockd","version":"0.1.0","pid":1234}}
 * When the versions differ the server answers
 *   {"error":{"code":"protocol-mismatch","message":"..."}}
 * and closes; a client that receives a hello with another version also gives up with a
 * message saying which versions were involved. Anything sent before the hello gets a
 * `hello-required` error and the connection is closed.
 *
 * Requests and responses, after the handshake; `id` is a non-negative integer chosen by
 * the client and echoed in the response, so calls may be answered out of order:
 *   client -> {"id":7,"method":"ping","params":{}}          ("params" may be omitted)
 *   server -> {"id":7,"result":{"pong":true,"pid":1234,"uptimeMs":5230}}
 *   server -> {"id":7,"error":{"code":"unknown-method","message":"unknown method 'pnig'"}}
 * A line that is not JSON gets {"id":null,"error":{"code":"malformed-json",...}}; the
 * connection stays open because the framing is intact.
 *
 * Events, pushed by the server to clients that subscribed to their topic:
 *   client -> {"id":8,"method":"subscribe","params":{"topics":["denials"]}}
 *   server -> {"id":8,"result":{"topics":["denials"]}}
 *   server -> {"event":"denials","data":{...}}
 * Events interleave with responses in the order the server sends them. A subscriber that
 * stops reading is disconnected once 16 MiB of output is waiting for it.
 *
 * Methods every daemon answers: `ping` (pong, pid, uptimeMs), `version` (name, version,
 * protocol), `subscribe` / `unsubscribe` (params {"topics":[...]}, result: the topics the
 * connection is now subscribed to), `shutdown` (result {"stopping":true}, then the daemon
 * removes its socket and exits). Other areas register their own methods and topics.
 *
 * Compatibility: adding methods, topics, optional params or result fields does not change
 * the version; removing or changing the meaning of anything does.
 */

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace paddock::api {

/** The protocol version this build speaks. */
inline constexpr int kProtocolVersion = 1;
/** The longest line either side accepts, in bytes, without its newline. */
inline constexpr qsizetype kMaxLineBytes = 1024 * 1024;

/** Error codes carried in `error.code`. Handlers may add their own. */
namespace errors {
inline constexpr const char *kMalformedJson = "malformed-json";
inline constexpr const char *kInvalidRequest = "invalid-request";
inline constexpr const char *kUnknownMethod = "unknown-method";
inline constexpr const char *kInvalidParams = "invalid-params";
inline constexpr const char *kUnknownTopic = "unknown-topic";
inline constexpr const char *kLineTooLong = "line-too-long";
inline constexpr const char *kHelloRequired = "hello-required";
inline constexpr const char *kProtocolMismatch = "protocol-mismatch";
inline constexpr const char *kInternal = "internal";

// The daemon's own methods. Each answers with a code a client can act on and a sentence for
// the user; the codes below are the ones clients compare against or show.

/** Another operation on the same sandbox (create, start, stop, remove) is still under way. */
inline constexpr const char *kBusy = "busy";
/** No runtime that answers knows a sandbox of that name (or it has no record). */
inline constexpr const char *kNoSuchSandbox = "no-such-sandbox";
/** The sandbox is running: already, for a start or a foreground run; still, for a remove without force. */
inline constexpr const char *kRunning = "running";
/** The sandbox exists but is not running, and the method needs it running (`sandbox.verify`). */
inline constexpr const char *kNotRunning = "not-running";
/** A sandbox of that name exists already, on this runtime or another. */
inline constexpr const char *kExists = "exists";
/** `sandbox.start` of a sandbox an earlier version made for a foreground run: make it again. */
inline constexpr const char *kForeground = "foreground";
/** The runtime could not create the sandbox, or its `setup.install` failed; the message says how. */
inline constexpr const char *kCreateFailed = "create-failed";
/** The runtime could not start the sandbox, or its setup files could not be written. */
inline constexpr const char *kStartFailed = "start-failed";
inline constexpr const char *kStopFailed = "stop-failed";
inline constexpr const char *kRemoveFailed = "remove-failed";
/** `sandbox.recreate` refused before changing anything: the kit's volumes differ from the ones kept. */
inline constexpr const char *kRecreateRefused = "recreate-refused";
/** The kit does not load (its diagnostics follow) or cannot be applied to the request. */
inline constexpr const char *kInvalidKit = "invalid-kit";
/** The kit requires a capability Paddock cannot give here (the message says why and what would). */
inline constexpr const char *kCapabilityRefused = "capability-refused";
/** The backend asked for is unknown, or cannot run sandboxes here (the message says why). */
inline constexpr const char *kBackendUnavailable = "backend-unavailable";
/**
 * The kit needs a credential that has no secret or whose domains are not approved; the message
 * names the commands that fix it and `sandbox.credentials` describes it for a dialog.
 */
inline constexpr const char *kCredentialsRequired = "credentials-required";
/**
 * The kit's `permissions.network.allow` reaches this computer or its networks (host grants) and
 * the user has not approved that; the message names each grant and the command that approves it.
 */
inline constexpr const char *kHostGrantsRequired = "host-grants-required";
/** credentials.yaml cannot be read or written. */
inline constexpr const char *kBindingsError = "bindings-error";
/** The certificate bundle sandboxes trust (with the local authority) could not be made. */
inline constexpr const char *kTrustFailed = "trust-failed";
/** No keychain service answers (no Secret Service on the bus, or it timed out). */
inline constexpr const char *kKeychainUnavailable = "keychain-unavailable";
/** The keychain answered with another failure. */
inline constexpr const char *kKeychainError = "keychain-error";
/** What a secrets call names does not exist: the secret, the binding, the kit's credential or the sandbox's kit. */
inline constexpr const char *kNotFound = "not-found";
/** policy.yaml could not be changed; the policy in force stays. */
inline constexpr const char *kPolicyFailed = "policy-failed";
inline constexpr const char *kNoSuchRule = "no-such-rule";
/** A kit's spec.yaml could not be opened, edited or saved. */
inline constexpr const char *kKitFailed = "kit-failed";
/** A file named as a bundle is not one Paddock accepts (the sentence says why). */
inline constexpr const char *kBundleRefused = "bundle-refused";
/** An agent's permission file (pi-permission-system's rules) could not be read, edited or saved. */
inline constexpr const char *kAgentConfigFailed = "agent-config-failed";
/** The container engine does not answer. */
inline constexpr const char *kEngineUnavailable = "engine-unavailable";
/** The kit has no `sandbox.build` and no Dockerfile beside its spec.yaml. */
inline constexpr const char *kNothingToBuild = "nothing-to-build";
/** The file named (an image archive) is missing or cannot be read. */
inline constexpr const char *kNoSuchFile = "no-such-file";
inline constexpr const char *kNoSuchJob = "no-such-job";
inline constexpr const char *kNoSuchImage = "no-such-image";
/** `image.cancel` of a job that has already ended. */
inline constexpr const char *kFinished = "finished";

/** Client side only: the connection closed before the answer arrived. */
inline constexpr const char *kDisconnected = "disconnected";
/** Client side only: no answer within the time allowed. */
inline constexpr const char *kTimeout = "timeout";
} // namespace errors

/** @brief The outcome of a call: a result object or an error with a code and a message. */
class Reply
{
public:
    Reply() = default;
    static Reply success(const QJsonObject &result = {});
    static Reply failure(const QString &code, const QString &message);

    bool isError() const { return m_isError; }
    const QJsonObject &result() const { return m_result; }
    const QString &errorCode() const { return m_errorCode; }
    const QString &errorMessage() const { return m_errorMessage; }

private:
    bool m_isError = false;
    QJsonObject m_result;
    QString m_errorCode;
    QString m_errorMessage;
};

/** @brief One decoded line, whatever kind of message it is. */
struct Message
{
    enum class Kind {
        Hello,    ///< {"hello":{...}}
        Request,  ///< {"id":N,"method":"...","params":{...}}
        Response, ///< {"id":N,"result":{...}} or {"id":N|null,"error":{...}}
        Event,    ///< {"event":"...","data":{...}}
        Error,    ///< {"error":{...}} without an id: the peer gives up on the connection
    };
    Kind kind = Kind::Error;
    std::optional<qint64> id; ///< requests and responses; absent for id null
    QString method;           ///< requests
    QJsonObject params;       ///< requests
    QJsonObject hello;        ///< hellos
    QString event;            ///< events
    QJsonObject data;         ///< events
    Reply reply;              ///< responses and errors
};

/** @brief Why a line could not be decoded into a Message. */
struct DecodeError
{
    QString code; ///< errors::kMalformedJson or errors::kInvalidRequest
    QString message;
    std::optional<qint64> id; ///< when the line was an object with a usable id
};

/** Decodes one line (without its newline). Returns std::nullopt with @p error set on failure. */
std::optional<Message> decodeMessage(const QByteArray &line, DecodeError *error);

/** Encodes @p object as one line, newline included. */
QByteArray encodeLine(const QJsonObject &object);
QByteArray encodeHello(const QJsonObject &hello);
QByteArray encodeRequest(qint64 id, const QString &method, const QJsonObject &params);
/** A response; @p id absent encodes `"id":null` (an error about a line with no usable id). */
QByteArray encodeResponse(std::optional<qint64> id, const Reply &reply);
QByteArray encodeEvent(const QString &topic, const QJsonObject &data);
/** A connection-level error without an id, sent just before closing. */
QByteArray encodeFatalError(const QString &code, const QString &message);

/**
 * @brief Splits a byte stream into lines and refuses lines longer than a limit.
 *
 * Bytes go in as they arrive; complete lines come out without their newline. Once a line
 * grows past the limit the buffer is marked oversized and yields nothing more: the
 * connection must be closed.
 */
class LineBuffer
{
public:
    explicit LineBuffer(qsizetype maxLineBytes = kMaxLineBytes);

    /** Appends @p bytes and returns the lines they completed. */
    QList<QByteArray> append(const QByteArray &bytes);
    bool isOversized() const { return m_oversized; }
    qsizetype maxLineBytes() const { return m_maxLineBytes; }

private:
    QByteArray m_pending;
    qsizetype m_maxLineBytes;
    bool m_oversized = false;
};

} // namespace paddock::api
