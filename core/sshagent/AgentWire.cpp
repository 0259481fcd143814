// SPDX-License-Identifier: GPL-3.0-or-later
// The agent protocol's wire encoding (OpenSSH's PROTOCOL.agent) and what a sign request's data
// is for: an SSHSIG namespaced signature (PROTOCOL.sshsig) or a public-key login (RFC 4252 §7).
#include "sshagent/AgentWire.h"

#include <QCryptographicHash>
#include <QtEndian>

namespace paddock::sshagent {

namespace {

constexpr quint8 kUserauthRequest = 50;
const QByteArray kSshsig = QByteArrayLiteral("SSHSIG");

} // namespace

std::optional<quint32> WireReader::uint32()
{
    if (!m_ok || m_data.size() - m_offset < 4) {
        m_ok = false;
        return std::nullopt;
    }
    const quint32 value = qFromBigEndian<quint32>(m_data.constData() + m_offset);
    m_offset += 4;
    return value;
}

std::optional<quint8> WireReader::byte()
{
    if (!m_ok || m_offset >= m_data.size()) {
        m_ok = false;
        return std::nullopt;
    }
    return quint8(m_data.at(m_offset++));
}

std::optional<bool> WireReader::boolean()
{
    const std::optional<quint8> value = byte();
    return value ? std::optional<bool>(*value != 0) : std::nullopt;
}

std::optional<QByteArray> WireReader::string()
{
    const std::optional<quint32> length = uint32();
    if (!length || *length > quint32(m_data.size() - m_offset)) {
        m_ok = false;
        return std::nullopt;
    }
    const QByteArray value = m_data.mid(m_offset, qsizetype(*length));
    m_offset += qsizetype(*length);
    return value;
}

bool WireReader::skipPrefix(const QByteArray &prefix)
{
    if (!m_ok || !QByteArrayView(m_data).sliced(m_offset).startsWith(prefix))
        return false;
    m_offset += prefix.size();
    return true;
}

QByteArray wireString(const QByteArray &data)
{
    QByteArray out(4, '\0');
    qToBigEndian<quint32>(quint32(data.size()), out.data());
    return out + data;
}

QByteArray framed(const QByteArray &payload)
{
    return wireString(payload);
}

Frame takeFrame(QByteArray &buffer)
{
    if (buffer.size() < 4)
        return {};
    const quint32 length = qFromBigEndian<quint32>(buffer.constData());
    if (length == 0 || length > kMaxMessage)
        return {std::nullopt, true};
    if (quint32(buffer.size() - 4) < length)
        return {};
    QByteArray payload = buffer.mid(4, qsizetype(length));
    buffer.remove(0, 4 + qsizetype(length));
    return {std::move(payload), false};
}

std::optional<SignRequest> parseSignRequest(const QByteArray &payload)
{
    WireReader reader(payload.mid(1));
    const auto key = reader.string();
    const auto data = reader.string();
    const auto flags = reader.uint32();
    if (!key || !data || !flags || !reader.atEnd())
        return std::nullopt;
    return SignRequest{*key, *data, *flags};
}

SignPurpose classify(const QByteArray &data)
{
    SignPurpose purpose;
    WireReader sshsig(data);
    if (sshsig.skipPrefix(kSshsig)) {
        // SSHSIG, namespace, reserved, hash algorithm, hash: the namespace is what counts.
        const auto space = sshsig.string();
        const auto reserved = sshsig.string();
        const auto hashAlgorithm = sshsig.string();
        const auto hash = sshsig.string();
        if (space && reserved && hashAlgorithm && hash && sshsig.atEnd() && !space->isEmpty()) {
            purpose.kind = SignPurpose::Kind::Namespaced;
            purpose.signatureNamespace = QString::fromLatin1(*space);
        }
        return purpose;
    }
    WireReader login(data);
    const auto session = login.string();
    const auto type = login.byte();
    const auto user = login.string();
    const auto service = login.string();
    const auto method = login.string();
    const auto hasSignature = login.boolean();
    const auto algorithm = login.string();
    const auto key = login.string();
    if (!key || *type != kUserauthRequest || !*hasSignature)
        return purpose;
    const bool hostbound = *method == "publickey-hostbound-v00@openssh.com";
    if (!hostbound && *method != "publickey")
        return purpose;
    std::optional<QByteArray> hostKey;
    if (hostbound && !(hostKey = login.string()))
        return purpose;
    if (!login.atEnd() || session->isEmpty())
        return purpose;
    purpose.kind = SignPurpose::Kind::Login;
    purpose.sessionId = *session;
    purpose.user = QString::fromUtf8(*user);
    purpose.hostbound = hostbound;
    purpose.hostKey = hostKey.value_or(QByteArray());
    Q_UNUSED(service);
    Q_UNUSED(algorithm);
    return purpose;
}

std::optional<Extension> parseExtension(const QByteArray &payload)
{
    WireReader reader(payload.mid(1));
    const auto name = reader.string();
    if (!name)
        return std::nullopt;
    Extension extension{*name, std::nullopt};
    if (*name != "session-bind@openssh.com")
        return extension;
    const auto hostKey = reader.string();
    const auto session = reader.string();
    const auto signature = reader.string();
    const auto forwarding = reader.boolean();
    if (!forwarding || !reader.atEnd())
        return std::nullopt;
    extension.bind = SessionBind{*hostKey, *session, *signature, *forwarding};
    return extension;
}

QString fingerprint(const QByteArray &keyBlob)
{
    QByteArray digest = QCryptographicHash::hash(keyBlob, QCryptographicHash::Sha256)
                            .toBase64(QByteArray::Base64Encoding | QByteArray::OmitTrailingEquals);
    return QStringLiteral("SHA256:") + QString::fromLatin1(digest);
}

} // namespace paddock::sshagent
