// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the header-injection tests and benchmark share: certificates made with the openssl
// command line, a leaf issuer over them, and an HTTPS upstream on 127.0.0.1 that echoes the
// request heads it receives and streams server-sent events on /events.

#include "../../support/TlsServer.h"

#include "proxy/InterceptionConfig.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QPointer>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpServer>
#include <QTimer>

#include <openssl/pem.h>

#include <functional>
#include <memory>
#include <optional>

namespace paddock::proxy::testing {

/** @brief Authorities and certificates in one directory, made with the openssl command. */
class CertificateFactory
{
public:
    explicit CertificateFactory(QString dir) : m_dir(std::move(dir)) {}

    QString path(const QString &name) const { return m_dir + QLatin1Char('/') + name; }

    /** An EC P-256 CA named @p name: @p name.pem and @p name.key. */
    bool makeAuthority(const QString &name, const QString &commonName)
    {
        return openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                        QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                        QStringLiteral("-nodes"), QStringLiteral("-keyout"), path(name + QStringLiteral(".key")),
                        QStringLiteral("-out"), path(name + QStringLiteral(".pem")), QStringLiteral("-days"),
                        QStringLiteral("30"), QStringLiteral("-subj"), QStringLiteral("/CN=") + commonName,
                        QStringLiteral("-addext"), QStringLiteral("basicConstraints=critical,CA:TRUE"),
                        QStringLiteral("-addext"), QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")});
    }

    /** A server certificate for @p host signed by @p authority: @p name.pem and @p name.key. */
    bool makeLeaf(const QString &name, const QString &host, const QString &authority)
    {
        return makeLeaf(name, QStringList{host}, authority);
    }

    /** A server certificate for each of @p hosts (the first is its subject) signed by @p authority. */
    bool makeLeaf(const QString &name, const QStringList &hosts, const QString &authority)
    {
        QFile extensions(path(name + QStringLiteral(".ext")));
        if (!extensions.open(QIODevice::WriteOnly))
            return false;
        const QString host = hosts.value(0);
        extensions.write(QStringLiteral("subjectAltName=DNS:%1\nbasicConstraints=CA:FALSE\n"
                                        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
                             .arg(hosts.join(QStringLiteral(",DNS:")))
                             .toUtf8());
        extensions.close();
        return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                        QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                        QStringLiteral("-nodes"), QStringLiteral("-keyout"), path(name + QStringLiteral(".key")),
                        QStringLiteral("-out"), path(name + QStringLiteral(".csr")), QStringLiteral("-subj"),
                        QStringLiteral("/CN=") + host}) &&
               openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                        path(name + QStringLiteral(".csr")), QStringLiteral("-CA"),
                        path(authority + QStringLiteral(".pem")), QStringLiteral("-CAkey"),
                        path(authority + QStringLiteral(".key")), QStringLiteral("-CAcreateserial"),
                        QStringLiteral("-out"), path(name + QStringLiteral(".pem")), QStringLiteral("-days"),
                        QStringLiteral("30"), QStringLiteral("-extfile"), path(name + QStringLiteral(".ext"))});
    }

    /** Concatenates PEM files into @p name. */
    bool bundle(const QString &name, const QStringList &parts)
    {
        QByteArray all;
        for (const QString &part : parts) {
            QFile file(path(part));
            if (!file.open(QIODevice::ReadOnly))
                return false;
            all += file.readAll();
        }
        QFile out(path(name));
        return out.open(QIODevice::WriteOnly) && out.write(all) == all.size();
    }

    /**
     * A leaf issuer reading `leaf-HOST.pem` / `leaf-HOST.key` from this directory, standing in
     * for Paddock's local authority.
     */
    std::function<Result<TlsLeaf>(const QString &)> leafIssuer() const
    {
        const QString dir = m_dir;
        return [dir](const QString &host) -> Result<TlsLeaf> {
            const QByteArray certificate = readAll(dir + QStringLiteral("/leaf-") + host + QStringLiteral(".pem"));
            const QByteArray key = readAll(dir + QStringLiteral("/leaf-") + host + QStringLiteral(".key"));
            BIO *certificateBio = BIO_new_mem_buf(certificate.constData(), int(certificate.size()));
            BIO *keyBio = BIO_new_mem_buf(key.constData(), int(key.size()));
            TlsLeaf leaf;
            leaf.certificate.reset(PEM_read_bio_X509(certificateBio, nullptr, nullptr, nullptr), X509_free);
            leaf.key.reset(PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr), EVP_PKEY_free);
            BIO_free(certificateBio);
            BIO_free(keyBio);
            if (!leaf.certificate || !leaf.key)
                return fail(QStringLiteral("no test leaf for %1").arg(host));
            return leaf;
        };
    }

private:
    static QByteArray readAll(const QString &file)
    {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    bool openssl(const QStringList &arguments)
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral("openssl"), arguments);
        if (!process.waitForFinished(30000) || process.exitCode() != 0) {
            qWarning().noquote() << "openssl" << arguments.join(QLatin1Char(' ')) << process.readAll();
            return false;
        }
        return true;
    }

    QString m_dir;
};

/**
 * A kit's credentials entry (under `credentials:`): the model key LLM_API_KEY of service `llm`,
 * which the proxy keeps and adds as a bearer token to requests for api.inject.test.
 */
inline QString bearerModelKey()
{
    return QStringLiteral(R"(  - service: llm
    required: true
    apiKey:
      name: LLM_API_KEY
      proxyManaged: true
      inject:
        - domain: api.inject.test
          scheme: bearer
)");
}

/** Decodes a complete chunked body at the start of @p data; false while incomplete. */
inline bool decodeChunked(const QByteArray &data, qsizetype &consumed, QByteArray &body)
{
    qsizetype at = 0;
    body.clear();
    for (;;) {
        const qsizetype eol = data.indexOf("\r\n", at);
        if (eol < 0)
            return false;
        bool ok = false;
        const qsizetype size = data.mid(at, eol - at).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok)
            return false;
        at = eol + 2;
        if (size == 0) {
            const qsizetype end = data.indexOf("\r\n\r\n", at - 2);
            if (end < 0)
                return false;
            consumed = end + 4;
            return true;
        }
        if (data.size() < at + size + 2)
            return false;
        body += data.mid(at, size);
        at += size + 2;
    }
}

/**
 * @brief An HTTPS server on 127.0.0.1 that answers every request with the request head it
 * received (and the body, after "BODY "), remembering both. On /redirect it answers 302 to
 * @ref redirectTo; on /events it streams three server-sent events, each after the client
 * acknowledged the previous one (acknowledge()), or after a few seconds without one. On
 * /echo-chunked and /echo-length it echoes as a debugging endpoint or an error page might:
 * see echoEverything().
 */
class EchoServer : public test::TlsServer
{
public:
    struct Request
    {
        int connection = 0;
        QByteArray head;
        QByteArray body;
    };

    EchoServer()
    {
        m_fallback.setSingleShot(true);
        connect(&m_fallback, &QTimer::timeout, this, [this] { sendEvent(); });
    }

    QList<Request> requests;
    QByteArray received; ///< every byte read from any connection, complete requests or not
    QString redirectTo;
    QStringList *sequence = nullptr; ///< "sent N" entries for /events go here
    int handshakes = 0;

    /** The client saw the latest event: the next one follows shortly. */
    void acknowledge()
    {
        m_fallback.stop();
        QTimer::singleShot(300, this, [this] { sendEvent(); });
    }

protected:
    void serve(QSslSocket *socket) override
    {
        const int connection = ++m_connections;
        connect(socket, &QSslSocket::encrypted, this, [this] { ++handshakes; });
        connect(socket, &QSslSocket::readyRead, this, [this, socket, connection] { onData(socket, connection); });
        // A connection's unfinished request goes with it: a later socket may be given the same address.
        connect(socket, &QSslSocket::disconnected, this, [this, socket] { m_buffers.remove(socket); });
    }

private:
    void onData(QSslSocket *socket, int connection)
    {
        QByteArray &buffer = m_buffers[socket];
        const QByteArray bytes = socket->readAll();
        received += bytes;
        buffer += bytes;
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = buffer.left(end + 4);
            const QByteArray lowerHead = head.toLower();
            QByteArray body;
            qsizetype consumed = end + 4;
            if (lowerHead.contains("\r\ntransfer-encoding: chunked")) {
                qsizetype used = 0;
                if (!decodeChunked(buffer.mid(end + 4), used, body))
                    return;
                consumed += used;
            } else if (const qsizetype at = lowerHead.indexOf("\r\ncontent-length:"); at >= 0) {
                const qsizetype eol = lowerHead.indexOf("\r\n", at + 2);
                const qsizetype length = lowerHead.mid(at + 17, eol - at - 17).trimmed().toLongLong();
                if (buffer.size() < consumed + length)
                    return;
                body = buffer.mid(consumed, length);
                consumed += length;
            }
            buffer.remove(0, consumed);
            requests.push_back({connection, head, body});
            respond(socket, head, body);
        }
    }

    void respond(QSslSocket *socket, const QByteArray &head, const QByteArray &body)
    {
        const QByteArray target = head.split(' ').value(1);
        if (target == "/events") {
            socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n");
            m_events = socket;
            m_sent = 0;
            sendEvent();
            return;
        }
        if (target == "/echo-chunked" || target == "/echo-length")
            return echoEverything(socket, head, target == "/echo-chunked");
        if (target == "/redirect") {
            socket->write("HTTP/1.1 302 Found\r\nLocation: " + redirectTo.toUtf8() + "\r\nContent-Length: 0\r\n\r\n");
            return;
        }
        const QByteArray answer = head + "BODY " + body;
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
                      QByteArray::number(answer.size()) + "\r\n\r\n" + answer);
    }

    /**
     * Every request header back as an X-Echo- response header, and the head (with a Basic
     * credential decoded) as the body, chunked or with a Content-Length, all written a few bytes
     * at a time: each piece is a TLS record of its own, so a key in it straddles the proxy's reads
     * and, chunked, the chunks. Closes after the answer when the request asks to.
     */
    void echoEverything(QSslSocket *socket, const QByteArray &head, bool chunked)
    {
        QByteArray echoed;
        QByteArray body = head;
        const QList<QByteArray> lines = head.trimmed().split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            const QByteArray name = line.left(colon);
            const QByteArray value = line.mid(colon + 1).trimmed();
            echoed += "X-Echo-" + name + ": " + value + "\r\n";
            if (name.toLower() == "authorization" && value.startsWith("Basic "))
                body += "decoded: " + QByteArray::fromBase64(value.mid(6)) + "\n";
        }
        const QByteArray framing =
            chunked ? QByteArray("Transfer-Encoding: chunked") : "Content-Length: " + QByteArray::number(body.size());
        constexpr qsizetype Piece = 5;
        const auto trickle = [socket](const QByteArray &bytes, bool asChunks) {
            for (qsizetype at = 0; at < bytes.size(); at += Piece) {
                const QByteArray piece = bytes.mid(at, Piece);
                socket->write(asChunks ? QByteArray::number(piece.size(), 16) + "\r\n" + piece + "\r\n" : piece);
                socket->flush();
            }
        };
        trickle("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + echoed + framing + "\r\n\r\n", false);
        trickle(body, chunked);
        if (chunked)
            socket->write("0\r\n\r\n");
        if (head.toLower().contains("\r\nconnection: close\r\n"))
            socket->disconnectFromHost();
    }

    void sendEvent()
    {
        if (!m_events || m_sent >= 3)
            return;
        ++m_sent;
        const QByteArray event = "data: event " + QByteArray::number(m_sent) + "\n\n";
        m_events->write(QByteArray::number(event.size(), 16) + "\r\n" + event + "\r\n");
        if (m_sent == 3)
            m_events->write("0\r\n\r\n");
        m_events->flush();
        if (sequence)
            sequence->append(QStringLiteral("sent %1").arg(m_sent));
        // Without an acknowledgment the stream goes on anyway, so a proxy that holds the
        // response back shows up as a wrong order rather than as a hang.
        m_fallback.start(5000);
    }

    int m_connections = 0;
    QHash<QSslSocket *, QByteArray> m_buffers;
    QPointer<QSslSocket> m_events;
    int m_sent = 0;
    QTimer m_fallback;
};

} // namespace paddock::proxy::testing
