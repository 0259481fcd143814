// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace paddock::sshagent {

/** The message types of OpenSSH's agent protocol that the relay knows by number. */
enum AgentMessage : quint8 {
    kFailure = 5,
    kSuccess = 6,
    kRequestIdentities = 11,
    kIdentitiesAnswer = 12,
    kSignRequest = 13,
    kSignResponse = 14,
    kExtension = 27,
};

/** The largest message either side may send; a longer one closes the connection. */
inline constexpr quint32 kMaxMessage = 256 * 1024;

/**
 * @brief Reads the SSH wire encoding (uint32, byte, bool, string) from one message, never
 * past its end: every read of a short or malformed message fails and the reader stays failed.
 */
class WireReader
{
public:
    explicit WireReader(QByteArray data) : m_data(std::move(data)) {}

    std::optional<quint32> uint32();
    std::optional<quint8> byte();
    std::optional<bool> boolean();
    std::optional<QByteArray> string();
    /** True when every byte was read and no read failed. */
    bool atEnd() const { return m_ok && m_offset == m_data.size(); }
    bool ok() const { return m_ok; }
    /** Consumes @p prefix when the unread bytes begin with it. */
    bool skipPrefix(const QByteArray &prefix);

private:
    QByteArray m_data;
    qsizetype m_offset = 0;
    bool m_ok = true;
};

/** @p data as an SSH string: its length in four bytes, then itself. */
QByteArray wireString(const QByteArray &data);
/** @p payload framed as one agent message: its length in four bytes, then itself. */
QByteArray framed(const QByteArray &payload);

/**
 * @brief A whole message taken off the front of a buffer: the payload (type byte first), or
 * nothing while more bytes are needed, or `malformed` when the framing is refused.
 */
struct Frame
{
    std::optional<QByteArray> payload;
    bool malformed = false;
};
Frame takeFrame(QByteArray &buffer);

/** What a sign request's data is for (the kit spec's three kinds). */
struct SignPurpose
{
    enum class Kind {
        Namespaced,
        Login,
        Other
    };
    Kind kind = Kind::Other;
    QString signatureNamespace; ///< Namespaced: the SSHSIG namespace
    QByteArray sessionId;       ///< Login: the session identifier the data starts with
    QString user;               ///< Login: the account it logs in as
    bool hostbound = false;     ///< Login: method publickey-hostbound-v00@openssh.com
    QByteArray hostKey;         ///< Login, hostbound: the server's key in the data
};

/** One SSH_AGENTC_SIGN_REQUEST's fields (after the type byte). */
struct SignRequest
{
    QByteArray keyBlob;
    QByteArray data;
    quint32 flags = 0;
};
std::optional<SignRequest> parseSignRequest(const QByteArray &payload);
SignPurpose classify(const QByteArray &data);

/** session-bind@openssh.com's fields. */
struct SessionBind
{
    QByteArray hostKey;
    QByteArray sessionId;
    QByteArray signature;
    bool forwarding = false;
};
/** The extension's name and, for session-bind@openssh.com, its fields (nothing when malformed). */
struct Extension
{
    QByteArray name;
    std::optional<SessionBind> bind;
};
std::optional<Extension> parseExtension(const QByteArray &payload);

/** "SHA256:…" of a public key blob, as `ssh-keygen -l` prints it. */
QString fingerprint(const QByteArray &keyBlob);

} // namespace paddock::sshagent
