// SPDX-License-Identifier: GPL-3.0-or-later
// An HTTPS upstream on 127.0.0.1 for the tests of header injection and key checks: the TLS
// part, with what it answers left to a subclass. Header-only, so that the injection benchmark
// shares it without linking paddock_test_support.
#pragma once

#include <QFile>
#include <QHostAddress>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QString>
#include <QTcpServer>

namespace paddock::test {

/** @brief A TLS server on 127.0.0.1 presenting an EC certificate read from PEM files. */
class TlsServer : public QTcpServer
{
public:
    /** Reads the certificate and its key and listens on a port of its choosing. */
    bool start(const QString &certificateFile, const QString &keyFile)
    {
        QFile certificate(certificateFile);
        QFile key(keyFile);
        if (!certificate.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly))
            return false;
        m_certificate = QSslCertificate(certificate.readAll());
        m_key = QSslKey(key.readAll(), QSsl::Ec);
        return !m_certificate.isNull() && !m_key.isNull() && listen(QHostAddress::LocalHost, 0);
    }

protected:
    /** Connects to the signals of a new connection's socket, before its handshake starts. */
    virtual void serve(QSslSocket *socket) = 0;

    void incomingConnection(qintptr descriptor) override
    {
        auto *socket = new QSslSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            delete socket;
            return;
        }
        socket->setLocalCertificate(m_certificate);
        socket->setPrivateKey(m_key);
        socket->setPeerVerifyMode(QSslSocket::VerifyNone);
        connect(socket, &QSslSocket::disconnected, socket, &QObject::deleteLater);
        serve(socket);
        socket->startServerEncryption();
    }

private:
    QSslCertificate m_certificate;
    QSslKey m_key;
};

} // namespace paddock::test
