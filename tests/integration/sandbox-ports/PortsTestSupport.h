// SPDX-License-Identifier: GPL-3.0-or-later
// What the published-port tests share: the kit's `ports` block, the page the server inside
// serves, and a client on the host (curl, as a user would use it).
#pragma once

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>

namespace paddock::test {

inline constexpr const char *kPage = "served from inside the sandbox\n";

/** 8080 has busybox httpd behind it, 9090 nothing, 5353 is UDP (which cannot be published). */
inline QString portsBlock()
{
    return QStringLiteral("ports:\n"
                          "  - container: 8080\n"
                          "    name: web\n"
                          "  - container: 9090\n"
                          "  - container: 5353\n"
                          "    protocol: udp\n");
}

/** The command that serves @p dir on 127.0.0.1:8080 inside. */
inline QString serverCommand(const QString &dir)
{
    return QStringLiteral("exec busybox httpd -f -p 127.0.0.1:8080 -h %1").arg(dir);
}

inline bool writePage(const QString &dir)
{
    QDir().mkpath(dir);
    QFile page(dir + QStringLiteral("/index.html"));
    return page.open(QIODevice::WriteOnly) && page.write(kPage) == qint64(qstrlen(kPage));
}

/** The host address `ls --json` gives sandbox port @p port of @p sandbox, or empty. */
inline QString hostAddressOf(const QJsonObject &sandbox, int port)
{
    for (const QJsonValue &entry : sandbox.value(QLatin1String("ports")).toArray()) {
        if (entry[QLatin1String("sandbox")].toInt() == port)
            return entry[QLatin1String("host")].toString();
    }
    return {};
}

/** @brief What curl got. */
struct Fetched
{
    int exitCode = -1; ///< curl's: 0 done, 7 refused, 52 empty reply, ...
    QByteArray body;
};

/** GET http://ADDRESS/PATH with curl, never through a proxy. */
inline Fetched fetch(const QString &address, const QString &path = QStringLiteral("/index.html"))
{
    QProcess curl;
    curl.start(QStringLiteral("curl"),
               {QStringLiteral("-s"), QStringLiteral("--noproxy"), QStringLiteral("*"), QStringLiteral("--max-time"),
                QStringLiteral("60"), QStringLiteral("http://") + address + path});
    curl.closeWriteChannel();
    if (!curl.waitForFinished(90000)) {
        curl.kill();
        curl.waitForFinished();
    }
    return {curl.exitStatus() == QProcess::NormalExit ? curl.exitCode() : -1, curl.readAllStandardOutput()};
}

/** Starts @p count fetches at once and returns what each got. */
inline QList<Fetched> fetchAtOnce(const QString &address, int count)
{
    QList<QProcess *> clients;
    for (int i = 0; i < count; ++i) {
        auto *curl = new QProcess;
        curl->start(QStringLiteral("curl"), {QStringLiteral("-s"), QStringLiteral("--noproxy"), QStringLiteral("*"),
                                             QStringLiteral("--max-time"), QStringLiteral("60"),
                                             QStringLiteral("http://%1/index.html").arg(address)});
        curl->closeWriteChannel();
        clients << curl;
    }
    QList<Fetched> results;
    for (QProcess *curl : std::as_const(clients)) {
        curl->waitForFinished(90000);
        results.append(
            {curl->exitStatus() == QProcess::NormalExit ? curl->exitCode() : -1, curl->readAllStandardOutput()});
        delete curl;
    }
    return results;
}

} // namespace paddock::test
