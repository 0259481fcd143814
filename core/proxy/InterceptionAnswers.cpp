// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/InterceptionAnswers.h"

#include "common/RequestTarget.h"
#include "proxy/HttpParser.h"

namespace paddock::proxy {
namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

std::string errorResponse(int status, const QString &reason)
{
    const std::string body = "Paddock proxy: " + reason.toStdString() + "\n";
    return "HTTP/1.1 " + std::to_string(status) + " " + std::string(http::statusText(status)) +
           "\r\nX-Paddock-Reason: " + http::headerSafe(reason.toStdString()) +
           "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n\r\n" + body;
}

std::string requestRefusal(const inject::RequestVerdict &verdict, const inject::RequestNote &note,
                           const ProxyEvent &connection)
{
    QString body = QStringLiteral("Paddock refused %1 %2 on %3:%4 from sandbox %5.\n")
                       .arg(qs(note.method), redactedTarget(note.target), connection.host)
                       .arg(connection.port)
                       .arg(connection.sandbox);
    body += QStringLiteral("Rule: %1\nReason: %2\n").arg(qs(verdict.rule), qs(verdict.reason));
    if (!verdict.fix.empty())
        body += QStringLiteral("To allow it: %1\n").arg(qs(verdict.fix));
    const QByteArray bytes = body.toUtf8();
    return "HTTP/1.1 403 " + std::string(http::statusText(403)) +
           "\r\nX-Paddock-Reason: " + http::headerSafe(verdict.reason) +
           "\r\nX-Paddock-Rule: " + http::headerSafe(verdict.rule) +
           "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(bytes.size()) +
           "\r\nConnection: close\r\n\r\n" + bytes.toStdString();
}

std::string guardRefusal(const guard::Finding &finding, const InterceptionConfig &config, const ProxyEvent &connection)
{
    QString body =
        QStringLiteral("Paddock refused this request: it contains the value of %1 from %2 (in %3).\n")
            .arg(finding.value.name, finding.value.file,
                 finding.inHead ? QStringLiteral("the request line or a header") : QStringLiteral("the request body"));
    body += QStringLiteral("Sandbox %1 does not send secrets of its workspace or its keys to %2; "
                           "send the request without that value (refer to it by name instead).\n")
                .arg(connection.sandbox, connection.host);
    if (finding.cut)
        body += QStringLiteral("The body was larger than the part Paddock holds: the part before the value had "
                               "been sent, and the connection was cut.\n");
    if (config.guard && config.guard->howToAllow)
        body += config.guard->howToAllow(finding.value) + QLatin1Char('\n');
    const QByteArray bytes = body.toUtf8();
    const std::string reason = "contains the value of " + finding.value.name.toStdString();
    return "HTTP/1.1 403 " + std::string(http::statusText(403)) + "\r\nX-Paddock-Reason: " + http::headerSafe(reason) +
           "\r\nX-Paddock-Rule: secret-guard\r\nContent-Type: text/plain; "
           "charset=utf-8\r\nContent-Length: " +
           std::to_string(bytes.size()) + "\r\nConnection: close\r\n\r\n" + bytes.toStdString();
}

} // namespace paddock::proxy
