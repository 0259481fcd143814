// SPDX-License-Identifier: GPL-3.0-or-later
//
// A sandbox on another computer's engine against the same sandbox on the local engine, in the
// same run: a 256 MiB download and the rate of short requests from curl inside, each through
// Paddock's proxy on this computer to a busybox httpd on loopback. The local sandbox reaches the
// proxy through its bound socket; the remote one through the daemon's Engine exec stream
// (RemoteRelay, `paddock-init --proxy-mux`), over TLS to a second dockerd on loopback
// (LabEngine.h), so the difference is the relay's cost without a real network's.
//
//   remote-relay-bench [RUNS [REQUESTS]]      (default 3 downloads and 200 requests of each; as root)
#include "DockerSandboxFixture.h"
#include "LabEngine.h"
#include "policy/PolicyStore.h"

#include <QCoreApplication>
#include <QTcpSocket>

#include <algorithm>
#include <cstdio>

#include <unistd.h>

using paddock::test::DockerFinished;
using paddock::test::DockerSandboxFixture;

namespace {

constexpr qint64 kBigBytes = 256LL * 1024 * 1024;
const QString kHost = QStringLiteral("bench.remote.test");

int stop(const QString &why)
{
    std::fprintf(stderr, "remote-relay-bench: %s\n", qPrintable(why));
    return 1;
}

/** curl inside sandbox @p name: each request's seconds (curl's time_total), empty on failure. */
QList<double> curlInside(DockerSandboxFixture &fixture, const QString &name, const QStringList &urls)
{
    const DockerFinished done = fixture.paddock(
        {QStringLiteral("exec"), name, QStringLiteral("sh"), QStringLiteral("-c"),
         QStringLiteral("curl -sS -w '%{time_total}\\n' -o /dev/null ") + urls.join(QStringLiteral(" -o /dev/null "))});
    QList<double> seconds;
    for (const QString &line : done.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        seconds << line.toDouble();
    if (done.exitCode != 0 || seconds.size() != urls.size()) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(name), qPrintable(done.err.left(500)));
        return {};
    }
    return seconds;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values[values.size() / 2];
}

/** busybox httpd on 127.0.0.1 serving @p dir; its port, 0 when it does not answer. */
int startUpstream(QProcess &httpd, const QString &dir)
{
    QTcpServer probe;
    const int port = probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
    probe.close();
    httpd.start(QStringLiteral("/bin/busybox"), {QStringLiteral("httpd"), QStringLiteral("-f"), QStringLiteral("-p"),
                                                 QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("-h"), dir});
    for (int tries = 0; tries < 100 && port > 0; ++tries) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, quint16(port));
        if (socket.waitForConnected(100))
            return port;
        QThread::msleep(100);
    }
    return 0;
}

/** The sandboxes' shared setup: the image on both engines, the host's name, the kit, the engine, the workspace. */
QString prepare(DockerSandboxFixture &fixture, const paddock::test::LabEngine &lab, int port)
{
    const QString archive = lab.file(QStringLiteral("image.tar"));
    if (!fixture.client().saveImage(fixture.imageTag(), archive) ||
        !paddock::runtime::docker::DockerClient(lab.endpoint()).loadImage(archive))
        return QStringLiteral("the image could not be loaded into the lab engine");
    QFile::remove(archive);
    fixture.stopDaemon();
    paddock::policy::PolicyStore policy(fixture.environment().value(QStringLiteral("XDG_CONFIG_HOME")) +
                                        QStringLiteral("/paddock/policy.yaml"));
    policy.load();
    if (!policy.setResolveOverride(kHost, QHostAddress(QStringLiteral("127.0.0.1"))).ok() || !fixture.startDaemon())
        return QStringLiteral("the daemon did not start again");
    const QString kit = fixture.writeKit(
        QStringLiteral("kit"), QStringLiteral("relay-bench"), fixture.imageTag(), QStringLiteral("exec sleep 1000000"),
        QStringLiteral(
            "environment:\n  variables:\n    LD_LIBRARY_PATH: /lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu\n"
            "permissions:\n  network:\n    allow: [%1:%2]\n")
            .arg(kHost)
            .arg(port));
    if (fixture.paddock(lab.addArguments(QStringLiteral("lab"))).exitCode != 0)
        return QStringLiteral("the lab engine could not be added");
    QFile readme(fixture.workspace() + QStringLiteral("/README"));
    if (!readme.open(QIODevice::WriteOnly) || readme.write("bench\n") <= 0)
        return QStringLiteral("no workspace");
    readme.close();
    for (const QStringList &git :
         {QStringList{QStringLiteral("init"), QStringLiteral("-q")},
          QStringList{QStringLiteral("add"), QStringLiteral("README")},
          QStringList{QStringLiteral("-c"), QStringLiteral("user.name=b"), QStringLiteral("-c"),
                      QStringLiteral("user.email=b@example.com"), QStringLiteral("commit"), QStringLiteral("-qm"),
                      QStringLiteral("bench")}}) {
        if (fixture.run(QStringLiteral("git"), git).exitCode != 0)
            return QStringLiteral("git failed in the workspace");
    }
    for (const QStringList &where :
         {QStringList{QStringLiteral("local"), QStringLiteral("--backend"), QStringLiteral("docker")},
          QStringList{QStringLiteral("remote"), QStringLiteral("--engine"), QStringLiteral("lab")}}) {
        const DockerFinished ran =
            fixture.paddock(QStringList{QStringLiteral("run"), QStringLiteral("--detach")} + where.mid(1) +
                            QStringList{QStringLiteral("--kit"), kit, QStringLiteral("--name"),
                                        QStringLiteral("bench-") + where.first(), fixture.workspace()});
        if (ran.exitCode != 0)
            return QStringLiteral("the %1 sandbox did not start: %2").arg(where.first(), ran.err);
    }
    return {};
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 3;
    const int requests = argc > 2 ? std::max(1, QString::fromLocal8Bit(argv[2]).toInt()) : 200;
    if (::getuid() != 0)
        return stop(QStringLiteral("needs root, to start a second Docker engine"));
    paddock::test::LabEngine lab;
    if (const QString started = lab.start(); !started.isEmpty())
        return stop(started);
    QTemporaryDir www;
    QFile big(www.filePath(QStringLiteral("big")));
    QFile small(www.filePath(QStringLiteral("small")));
    if (!big.open(QIODevice::WriteOnly) || !big.resize(kBigBytes) || !small.open(QIODevice::WriteOnly) ||
        small.write("ok\n") != 3)
        return stop(QStringLiteral("cannot write the upstream's files"));
    big.close();
    small.close();
    QProcess httpd;
    const int port = startUpstream(httpd, www.path());
    if (port == 0)
        return stop(QStringLiteral("busybox httpd did not start"));
    int status = 0;
    {
        DockerSandboxFixture fixture;
        bool skip = false;
        QString problem = fixture.setUp(&skip, true);
        if (problem.isEmpty())
            problem = prepare(fixture, lab, port);
        if (!problem.isEmpty()) {
            status = stop(problem);
        } else {
            const QString url = QStringLiteral("http://%1:%2/").arg(kHost).arg(port);
            QMap<QString, QList<double>> downloads;
            QMap<QString, double> rates;
            for (int run = 0; run < runs; ++run) {
                for (const QString &arm : {QStringLiteral("local"), QStringLiteral("remote")}) {
                    const QList<double> seconds =
                        curlInside(fixture, QStringLiteral("bench-") + arm, {url + QStringLiteral("big")});
                    if (!seconds.isEmpty())
                        downloads[arm] << seconds.first();
                }
            }
            for (const QString &arm : {QStringLiteral("local"), QStringLiteral("remote")}) {
                const QList<double> seconds = curlInside(fixture, QStringLiteral("bench-") + arm,
                                                         QStringList(requests, url + QStringLiteral("small")));
                double total = 0;
                for (double s : seconds)
                    total += s;
                rates[arm] = total > 0 ? double(requests) / total : 0;
            }
            const double local = median(downloads.value(QStringLiteral("local")));
            const double remote = median(downloads.value(QStringLiteral("remote")));
            std::printf("256 MiB download through the proxy, median of %d\n", runs);
            std::printf("  local engine           %7.2f s  %7.1f MiB/s\n", local, local > 0 ? 256 / local : 0.0);
            std::printf("  remote engine (relay)  %7.2f s  %7.1f MiB/s\n", remote, remote > 0 ? 256 / remote : 0.0);
            std::printf("  remote/local time      %7.2f\n", local > 0 ? remote / local : 0.0);
            std::printf("short requests (%d by one curl, each through the proxy)\n", requests);
            std::printf("  local engine           %7.0f requests/s\n", rates.value(QStringLiteral("local")));
            std::printf("  remote engine (relay)  %7.0f requests/s\n", rates.value(QStringLiteral("remote")));
            std::printf("  remote/local rate      %7.2f\n",
                        rates.value(QStringLiteral("local")) > 0
                            ? rates.value(QStringLiteral("remote")) / rates.value(QStringLiteral("local"))
                            : 0.0);
            if (downloads.value(QStringLiteral("local")).isEmpty() ||
                downloads.value(QStringLiteral("remote")).isEmpty())
                status = 1;
        }
    }
    httpd.kill();
    httpd.waitForFinished();
    return status;
}
