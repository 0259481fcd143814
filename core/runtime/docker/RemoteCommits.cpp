// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/RemoteCommits.h"

#include "common/GitCommand.h"
#include "runtime/docker/DockerClient.h"
#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/DockerTransport.h"
#include "runtime/docker/TarWriter.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QUrl>
#include <QUuid>

namespace paddock::runtime::docker {
namespace {

/** The `.git` under @p gitDir, added at @p target, owned by @p uid:@p gid; false past the bound. */
paddock::Result<void> addTree(TarWriter &tar, const QString &gitDir, const QString &target, qint64 uid, qint64 gid)
{
    if (!tar.add(target, AE_IFDIR, 0755, {}, uid, gid))
        return paddock::fail(QStringLiteral("the repository's history could not be packed"));
    qint64 total = 0;
    QDirIterator it(gitDir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo entry(it.next());
        const QString path = target + QLatin1Char('/') + QDir(gitDir).relativeFilePath(entry.filePath());
        bool ok = true;
        if (entry.isSymLink()) {
            continue; // a fresh bare clone has none
        } else if (entry.isDir()) {
            ok = tar.add(path, AE_IFDIR, 0755, {}, uid, gid);
        } else {
            QFile file(entry.filePath());
            total += entry.size();
            if (total > RemoteCommits::kMaxHistoryBytes)
                return paddock::fail(
                    QStringLiteral("its history at HEAD passes %1 MiB").arg(RemoteCommits::kMaxHistoryBytes >> 20));
            ok = file.open(QIODevice::ReadOnly) && tar.add(path, AE_IFREG, 0644, file.readAll(), uid, gid);
        }
        if (!ok)
            return paddock::fail(QStringLiteral("the repository's history could not be packed"));
    }
    return {};
}

/** The first line of a message from inside, printable and short. */
QString firstLine(const QByteArray &bytes)
{
    QString line = QString::fromUtf8(bytes.left(400)).trimmed().section(QLatin1Char('\n'), 0, 0);
    for (QChar &c : line) {
        if (!c.isPrint())
            c = QLatin1Char('?');
    }
    return line;
}

/** The one regular file of the tar @p tarPath, written to @p file within the bound. */
paddock::Result<void> extractOne(const QString &tarPath, const QString &file)
{
    archive *in = archive_read_new();
    archive_read_support_format_tar(in);
    paddock::Result<void> result = paddock::fail(QStringLiteral("the sandbox's bundle is not a file"));
    archive_entry *entry = nullptr;
    if (archive_read_open_filename(in, QFile::encodeName(tarPath).constData(), 65536) == ARCHIVE_OK &&
        archive_read_next_header(in, &entry) == ARCHIVE_OK && archive_entry_filetype(entry) == AE_IFREG &&
        archive_entry_size(entry) <= RemoteCommits::kMaxBundleBytes) {
        QFile out(file);
        bool ok = out.open(QIODevice::WriteOnly | QIODevice::Truncate);
        char buffer[65536];
        la_ssize_t n = 0;
        while (ok && (n = archive_read_data(in, buffer, sizeof buffer)) > 0)
            ok = out.write(buffer, n) == n;
        if (ok && n == 0)
            result = paddock::Result<void>();
        else
            result = paddock::fail(QStringLiteral("the sandbox's bundle could not be read back"));
    }
    archive_read_free(in);
    return result;
}

} // namespace

paddock::Result<QString> RemoteCommits::addRepository(TarWriter &tar, const QString &workspace, qint64 uid, qint64 gid)
{
    const paddock::Result<QString> top =
        git::run({QStringLiteral("-C"), workspace, QStringLiteral("rev-parse"), QStringLiteral("--show-toplevel")});
    if (!top || QFileInfo(top.value()).canonicalFilePath() != QFileInfo(workspace).canonicalFilePath())
        return QString(); // not the top of a repository: its commits cannot be told apart
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/paddock-history-XXXXXX"));
    if (!scratch.isValid())
        return paddock::fail(QStringLiteral("no temporary folder for the repository's history"));
    const QString gitDir = scratch.filePath(QStringLiteral("git"));
    // A shallow clone needs the file:// transport; no hook or template comes with it.
    const paddock::Result<QString> cloned =
        git::run({QStringLiteral("clone"), QStringLiteral("--quiet"), QStringLiteral("--bare"),
                  QStringLiteral("--depth"), QStringLiteral("1"), QStringLiteral("--no-tags"),
                  QStringLiteral("--single-branch"), QStringLiteral("--template="), QStringLiteral("--"),
                  QUrl::fromLocalFile(top.value()).toString(QUrl::FullyEncoded), gitDir});
    if (!cloned)
        return paddock::fail(QStringLiteral("its history at HEAD could not be cloned: %1").arg(cloned.error().message));
    const QStringList inGit{QStringLiteral("--git-dir"), gitDir};
    const paddock::Result<QString> head =
        git::run(inGit + QStringList{QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
    for (const QStringList &step :
         {QStringList{QStringLiteral("config"), QStringLiteral("core.bare"), QStringLiteral("false")},
          QStringList{QStringLiteral("config"), QStringLiteral("--remove-section"), QStringLiteral("remote.origin")},
          QStringList{QStringLiteral("read-tree"), QStringLiteral("HEAD")}}) {
        const paddock::Result<QString> done = head ? git::run(inGit + step, scratch.path()) : head;
        if (!done)
            return paddock::fail(
                QStringLiteral("its history at HEAD could not be prepared: %1").arg(done.error().message));
    }
    if (const paddock::Result<void> added = addTree(tar, gitDir, workspace.mid(1) + QStringLiteral("/.git"), uid, gid);
        !added)
        return added.error();
    return head.value();
}

paddock::Result<bool> RemoteCommits::bundleOut(const DockerClient &client, const ContainerInfo &container,
                                               const QString &file)
{
    const QString base = container.labels.value(baseLabel());
    const QString workspace = container.labels.value(layout::kLabelWorkspace);
    if (base.isEmpty() || workspace.isEmpty())
        return false;
    const QString inside =
        QStringLiteral("/tmp/.paddock-commits-%1.bundle").arg(QUuid::createUuid().toString(QUuid::Id128));
    ExecSpec exec;
    exec.user = container.labels.value(
        layout::kLabelAgentUser,
        container.raw.value(QLatin1String("Config")).toObject().value(QLatin1String("User")).toString());
    exec.workingDir = workspace;
    exec.cmd = QStringList{QStringLiteral("git"),        QStringLiteral("-C"),     workspace,
                           QStringLiteral("bundle"),     QStringLiteral("create"), inside,
                           QStringLiteral("--branches"), QStringLiteral("--not"),  base};
    const Result<ExecResult> made = client.exec(container.id, exec);
    if (!made)
        return paddock::fail(QStringLiteral("git could not be run in the sandbox: %1").arg(made.errorMessage()));
    if (made.value().exitCode != 0) {
        if (made.value().stderrData.contains("empty bundle"))
            return false; // no branch has a commit past the base
        return paddock::fail(
            QStringLiteral("git bundle failed in the sandbox (%1)").arg(firstLine(made.value().stderrData)),
            made.value().exitCode == 127 || made.value().exitCode == 126
                ? QStringLiteral("the sandbox's image needs git for its commits to come back")
                : QString());
    }
    const Result<QString> api = client.apiVersion();
    if (!api)
        return paddock::fail(api.errorMessage());
    QFile tarFile(file + QStringLiteral(".tar"));
    if (!tarFile.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return paddock::fail(QStringLiteral("cannot write %1").arg(tarFile.fileName()));
    HttpRequest request;
    request.path = QStringLiteral("/v%1/containers/%2/archive").arg(api.value(), container.id);
    request.query = {{QStringLiteral("path"), inside}};
    request.timeoutSeconds = 600;
    qint64 received = 0;
    bool tooLarge = false;
    // The tar's own headers and padding come on top of the bundle's bytes.
    request.onData = [&](const char *data, size_t size) {
        received += qint64(size);
        tooLarge = received > kMaxBundleBytes + 64 * 1024;
        return !tooLarge && tarFile.write(data, qint64(size)) == qint64(size);
    };
    const Result<HttpResponse> read = DockerTransport(client.endpoint()).perform(request);
    tarFile.close();
    ExecSpec remove = exec;
    remove.cmd = QStringList{QStringLiteral("rm"), QStringLiteral("-f"), inside};
    (void)client.exec(container.id, remove);
    paddock::Result<void> extracted =
        tooLarge ? paddock::Result<void>(
                       paddock::fail(QStringLiteral("the sandbox's commits pass %1 MiB").arg(kMaxBundleBytes >> 20)))
        : !read ? paddock::Result<void>(paddock::fail(
                      QStringLiteral("the sandbox's bundle could not be read back: %1").arg(read.errorMessage())))
                : extractOne(tarFile.fileName(), file);
    tarFile.remove();
    if (!extracted)
        return extracted.error();
    return true;
}

} // namespace paddock::runtime::docker
