// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/DockerEndpoint.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QUrl>

namespace paddock::runtime::docker {

namespace {

constexpr int kDefaultPort = 2375;
constexpr int kDefaultTlsPort = 2376;

Error badHost(const QString &dockerHost, const QString &why)
{
    return Error{Error::Kind::Unsupported, 0, QStringLiteral("DOCKER_HOST=%1 is not usable: %2").arg(dockerHost, why)};
}

// TLS is decided by the environment, like the docker CLI and its Go client.
void applyTls(Endpoint &endpoint, const QProcessEnvironment &environment)
{
    const QString verify = environment.value(QStringLiteral("DOCKER_TLS_VERIFY"));
    const QString certPath = environment.value(QStringLiteral("DOCKER_CERT_PATH"));
    endpoint.tlsVerify = !verify.isEmpty();
    endpoint.tls = endpoint.tlsVerify || !certPath.isEmpty();
    if (!endpoint.tls)
        return;
    QString dir = certPath;
    if (dir.isEmpty()) {
        const QString home = environment.value(QStringLiteral("HOME"), QDir::homePath());
        dir = home + QStringLiteral("/.docker");
    }
    const QString ca = dir + QStringLiteral("/ca.pem");
    const QString cert = dir + QStringLiteral("/cert.pem");
    const QString key = dir + QStringLiteral("/key.pem");
    if (QFileInfo::exists(ca))
        endpoint.caFile = ca;
    if (QFileInfo::exists(cert) && QFileInfo::exists(key)) {
        endpoint.certFile = cert;
        endpoint.keyFile = key;
    }
}

// What ssh is given as its arguments: nothing it could read as an option.
Result<Endpoint> parseSsh(const QString &dockerHost, const QString &rest)
{
    static const QRegularExpression user(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$"));
    static const QRegularExpression hostName(QStringLiteral("^[A-Za-z0-9_.:%-]{1,253}$"));
    const QUrl url(QStringLiteral("ssh://") + rest, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || url.hasQuery() || url.hasFragment() || !url.password().isEmpty() ||
        (!url.path().isEmpty() && url.path() != QLatin1String("/")))
        return badHost(dockerHost, QStringLiteral("expected ssh://[user@]host[:port]"));
    Endpoint endpoint;
    endpoint.kind = Endpoint::Kind::Ssh;
    endpoint.host = url.host();
    endpoint.sshUser = url.userName();
    endpoint.port = url.port(0);
    if (endpoint.host.startsWith(QLatin1Char('-')) || !hostName.match(endpoint.host).hasMatch() ||
        (!endpoint.sshUser.isEmpty() && !user.match(endpoint.sshUser).hasMatch()))
        return badHost(dockerHost, QStringLiteral("expected ssh://[user@]host[:port]"));
    if (endpoint.port < 0 || endpoint.port > 65535)
        return badHost(dockerHost, QStringLiteral("the port must be between 1 and 65535"));
    return endpoint;
}

} // namespace

QString Endpoint::display() const
{
    if (kind == Kind::Unix)
        return QStringLiteral("unix://") + socketPath;
    if (kind == Kind::Ssh)
        return QStringLiteral("ssh://%1%2%3")
            .arg(sshUser.isEmpty() ? QString() : sshUser + QLatin1Char('@'), host,
                 port > 0 ? QStringLiteral(":%1").arg(port) : QString());
    const QString h = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("tcp://%1:%2%3").arg(h).arg(port).arg(basePath);
}

QByteArray Endpoint::baseUrl() const
{
    if (kind != Kind::Tcp)
        return QByteArrayLiteral("http://localhost") + basePath.toUtf8();
    const QString h = host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    return QStringLiteral("%1://%2:%3%4")
        .arg(tls ? QStringLiteral("https") : QStringLiteral("http"), h)
        .arg(port)
        .arg(basePath)
        .toUtf8();
}

Endpoint Endpoint::unixSocket(const QString &path)
{
    Endpoint endpoint;
    endpoint.kind = Kind::Unix;
    endpoint.socketPath = path;
    return endpoint;
}

Result<Endpoint> Endpoint::parse(const QString &dockerHostIn, const QProcessEnvironment &environment)
{
    const QString dockerHost = dockerHostIn.trimmed();
    if (dockerHost.isEmpty())
        return Endpoint{};

    QString scheme = QStringLiteral("tcp");
    QString rest = dockerHost;
    const qsizetype sep = dockerHost.indexOf(QStringLiteral("://"));
    if (sep >= 0) {
        scheme = dockerHost.left(sep).toLower();
        rest = dockerHost.mid(sep + 3);
    }

    if (scheme == QLatin1String("unix")) {
        if (rest.isEmpty())
            return Endpoint{};
        if (!rest.startsWith(QLatin1Char('/')))
            return badHost(dockerHost, QStringLiteral("the socket path must be absolute (unix:///path)"));
        return unixSocket(rest);
    }
    if (scheme == QLatin1String("ssh"))
        return parseSsh(dockerHost, rest);
    if (scheme != QLatin1String("tcp"))
        return badHost(dockerHost, QStringLiteral("use unix:///path, tcp://host:port or ssh://user@host"));

    Endpoint endpoint;
    endpoint.kind = Kind::Tcp;
    applyTls(endpoint, environment);

    // QUrl copes with bracketed IPv6 hosts; an empty host or port takes the CLI's default.
    const QUrl url(QStringLiteral("tcp://") + rest, QUrl::StrictMode);
    if (!url.isValid())
        return badHost(dockerHost, QStringLiteral("expected tcp://host:port"));
    if (!url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment())
        return badHost(dockerHost, QStringLiteral("expected tcp://host:port"));
    endpoint.host = url.host().isEmpty() ? QStringLiteral("localhost") : url.host();
    endpoint.port = url.port(endpoint.tls ? kDefaultTlsPort : kDefaultPort);
    if (endpoint.port <= 0 || endpoint.port > 65535)
        return badHost(dockerHost, QStringLiteral("the port must be between 1 and 65535"));
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    endpoint.basePath = path;
    return endpoint;
}

Result<Endpoint> Endpoint::fromEnvironment(const QProcessEnvironment &environment)
{
    return parse(environment.value(QStringLiteral("DOCKER_HOST")), environment);
}

Endpoint Endpoint::environmentOrDefault()
{
    // This computer's engine: sandboxes bind its folders, which an engine behind ssh cannot.
    const Result<Endpoint> endpoint = fromEnvironment();
    return endpoint && endpoint.value().kind != Kind::Ssh ? endpoint.value() : Endpoint();
}

QJsonObject Endpoint::toJson() const
{
    static const char *const kinds[] = {"unix", "tcp", "ssh"};
    return {{QStringLiteral("kind"), QLatin1String(kinds[int(kind)])},
            {QStringLiteral("socketPath"), socketPath},
            {QStringLiteral("host"), host},
            {QStringLiteral("port"), port},
            {QStringLiteral("sshUser"), sshUser},
            {QStringLiteral("basePath"), basePath},
            {QStringLiteral("tls"), tls},
            {QStringLiteral("tlsVerify"), tlsVerify},
            {QStringLiteral("caFile"), caFile},
            {QStringLiteral("certFile"), certFile},
            {QStringLiteral("keyFile"), keyFile}};
}

Endpoint Endpoint::fromJson(const QJsonObject &json)
{
    Endpoint endpoint;
    const QString kind = json.value(QLatin1String("kind")).toString();
    endpoint.kind = kind == QLatin1String("tcp") ? Kind::Tcp : kind == QLatin1String("ssh") ? Kind::Ssh : Kind::Unix;
    endpoint.socketPath = json.value(QLatin1String("socketPath")).toString(endpoint.socketPath);
    endpoint.host = json.value(QLatin1String("host")).toString();
    endpoint.port = json.value(QLatin1String("port")).toInt();
    endpoint.sshUser = json.value(QLatin1String("sshUser")).toString();
    endpoint.basePath = json.value(QLatin1String("basePath")).toString();
    endpoint.tls = json.value(QLatin1String("tls")).toBool();
    endpoint.tlsVerify = json.value(QLatin1String("tlsVerify")).toBool();
    endpoint.caFile = json.value(QLatin1String("caFile")).toString();
    endpoint.certFile = json.value(QLatin1String("certFile")).toString();
    endpoint.keyFile = json.value(QLatin1String("keyFile")).toString();
    return endpoint;
}

} // namespace paddock::runtime::docker
