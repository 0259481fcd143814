// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/RemoteFetchBack.h"

#include "common/GitCommand.h"
#include "runtime/docker/DockerRuntime.h"
#include "runtime/docker/DockerSandboxLayout.h"
#include "runtime/docker/RemoteCommits.h"

#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTemporaryDir>

Q_LOGGING_CATEGORY(lcRemoteFetch, "paddock.sandbox.remotefetch", QtInfoMsg)

namespace paddock::sandbox {
namespace {

/** A bundle's head (its first lines, up to the empty one) is read within this. */
constexpr qint64 kMaxHeadBytes = 1024 * 1024;
constexpr qsizetype kMaxBranches = 1000;
constexpr qsizetype kMaxBranchLength = 200;

/** A name from the sandbox, as a message may show it: printable, short. */
QString shown(const QByteArray &bytes)
{
    QString text = QString::fromUtf8(bytes.left(kMaxBranchLength));
    for (QChar &c : text) {
        if (!c.isPrint())
            c = QLatin1Char('?');
    }
    return text;
}

/** A branch name made of plain parts: letters, digits and `._+-`, none starting with a dot or a dash. */
bool plainBranch(const QByteArray &name)
{
    static const QRegularExpression pattern(
        QStringLiteral("^[A-Za-z0-9_+][A-Za-z0-9._+-]*(/[A-Za-z0-9_+][A-Za-z0-9._+-]*)*$"));
    if (name.size() > kMaxBranchLength || !pattern.match(QString::fromLatin1(name)).hasMatch())
        return false;
    for (const QByteArray &part : name.split('/')) {
        if (part.contains("..") || part.endsWith('.') || part.endsWith(".lock"))
            return false;
    }
    return true;
}

bool objectId(const QByteArray &text)
{
    static const QRegularExpression hex(QStringLiteral("^([0-9a-f]{40}|[0-9a-f]{64})$"));
    return hex.match(QString::fromLatin1(text)).hasMatch();
}

} // namespace

Result<QStringList> RemoteFetchBack::bundleBranches(const QByteArray &bytes)
{
    const qsizetype end = bytes.indexOf("\n\n");
    const QList<QByteArray> lines = bytes.left(end < 0 ? bytes.size() : end).split('\n');
    if (!lines.first().startsWith("# v2 git bundle") && !lines.first().startsWith("# v3 git bundle"))
        return fail(QStringLiteral("what the sandbox gave is not a git bundle"));
    if (end < 0)
        return fail(
            QStringLiteral("the sandbox's bundle has no end to its head within %1 KiB").arg(kMaxHeadBytes >> 10));
    QStringList branches;
    for (const QByteArray &line : lines.mid(1)) {
        if (line.startsWith('-'))
            continue; // a commit it builds on: `git bundle verify` finds it or refuses
        if (line.startsWith('@')) {
            if (line == "@object-format=sha1" || line == "@object-format=sha256")
                continue;
            return fail(QStringLiteral("the sandbox's bundle asks for '%1', which is not taken").arg(shown(line)));
        }
        const qsizetype space = line.indexOf(' ');
        const QByteArray ref = space < 0 ? QByteArray() : line.mid(space + 1);
        if (!objectId(line.left(space)) || !ref.startsWith("refs/heads/"))
            return fail(QStringLiteral("the sandbox's bundle holds '%1', which is not a branch").arg(shown(line)));
        if (!plainBranch(ref.mid(11)))
            return fail(QStringLiteral("the sandbox's bundle names the branch '%1', which is not a plain branch name")
                            .arg(shown(ref.mid(11))));
        branches << QString::fromLatin1(ref.mid(11));
        if (branches.size() > kMaxBranches)
            return fail(QStringLiteral("the sandbox's bundle names more than %1 branches").arg(kMaxBranches));
    }
    return branches;
}

Result<QStringList> RemoteFetchBack::fetchBundle(const QString &file, const QString &repository, const QString &name)
{
    QFile bundle(file);
    if (!bundle.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the sandbox's bundle"));
    if (const Result<QStringList> branches = bundleBranches(bundle.read(kMaxHeadBytes)); !branches)
        return branches.error();
    const Result<QString> common =
        git::run({QStringLiteral("-C"), repository, QStringLiteral("rev-parse"),
                  QStringLiteral("--path-format=absolute"), QStringLiteral("--git-common-dir")});
    if (!common)
        return fail(QStringLiteral("%1 is no longer a git repository: %2").arg(repository, common.error().message));
    // A repository of its own first: the bundle is checked and its objects fsck'd there.
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/paddock-fetch-XXXXXX"));
    const QString quarantine = scratch.filePath(QStringLiteral("quarantine.git"));
    QFile alternates(quarantine + QStringLiteral("/objects/info/alternates"));
    const Result<QString> made = git::run({QStringLiteral("init"), QStringLiteral("--quiet"), QStringLiteral("--bare"),
                                           QStringLiteral("--template="), quarantine});
    if (!scratch.isValid() || !made || !QDir().mkpath(quarantine + QStringLiteral("/objects/info")) ||
        !alternates.open(QIODevice::WriteOnly) || alternates.write(common.value().toUtf8() + "/objects\n") <= 0)
        return fail(QStringLiteral("no temporary repository to check the sandbox's bundle in"));
    alternates.close();
    const QStringList inQuarantine{QStringLiteral("-C"), quarantine};
    if (const Result<QString> verified =
            git::run(inQuarantine +
                     QStringList{QStringLiteral("bundle"), QStringLiteral("verify"), QStringLiteral("--quiet"), file});
        !verified)
        return fail(QStringLiteral("the sandbox's bundle does not verify: %1").arg(verified.error().message));
    const Result<QString> checked =
        git::run(inQuarantine + QStringList{QStringLiteral("-c"), QStringLiteral("transfer.fsckObjects=true"),
                                            QStringLiteral("fetch"), QStringLiteral("--quiet"),
                                            QStringLiteral("--no-tags"), QStringLiteral("--no-write-fetch-head"),
                                            QStringLiteral("--"), file, QStringLiteral("+refs/heads/*:refs/heads/*")});
    if (!checked)
        return fail(QStringLiteral("the sandbox's commits do not check: %1").arg(checked.error().message));
    const QString prefix = QStringLiteral("refs/heads/paddock/%1/").arg(name);
    const Result<QString> fetched =
        git::run({QStringLiteral("-C"), repository, QStringLiteral("-c"), QStringLiteral("protocol.allow=never"),
                  QStringLiteral("-c"), QStringLiteral("protocol.file.allow=always"), QStringLiteral("fetch"),
                  QStringLiteral("--quiet"), QStringLiteral("--no-tags"), QStringLiteral("--no-recurse-submodules"),
                  QStringLiteral("--no-write-fetch-head"), QStringLiteral("--no-auto-gc"), QStringLiteral("--"),
                  quarantine, QStringLiteral("+refs/heads/*:") + prefix + QLatin1Char('*')});
    if (!fetched)
        return fail(
            QStringLiteral("cannot fetch the sandbox's commits into %1: %2").arg(repository, fetched.error().message));
    const Result<QString> listed = git::run({QStringLiteral("-C"), repository, QStringLiteral("for-each-ref"),
                                             QStringLiteral("--format=%(refname:short)"), prefix});
    return listed && !listed.value().isEmpty() ? listed.value().split(QLatin1Char('\n')) : QStringList();
}

QStringList RemoteFetchBack::notes(runtime::Runtime &runtime, const QString &name)
{
    auto *docker = dynamic_cast<runtime::DockerRuntime *>(&runtime);
    if (!docker)
        return {};
    const runtime::docker::Result<runtime::docker::ContainerInfo> container =
        docker->client().inspectContainer(runtime::DockerRuntime::containerName(name));
    // A stopped sandbox's commits came back when it stopped.
    if (!container || !container.value().running ||
        container.value().labels.value(runtime::docker::RemoteCommits::baseLabel()).isEmpty())
        return {};
    const QString repository = container.value().labels.value(runtime::docker::layout::kLabelWorkspace);
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/paddock-commits-XXXXXX"));
    const QString file = scratch.filePath(QStringLiteral("commits.bundle"));
    const Result<bool> out = scratch.isValid()
                                 ? runtime::docker::RemoteCommits::bundleOut(docker->client(), container.value(), file)
                                 : Result<bool>(fail(QStringLiteral("no temporary folder")));
    const Result<QStringList> branches = !out          ? Result<QStringList>(out.error())
                                         : out.value() ? fetchBundle(file, repository, name)
                                                       : Result<QStringList>(QStringList());
    if (!branches) {
        qCWarning(lcRemoteFetch).noquote()
            << "the commits of" << name << "did not come back:" << branches.error().text();
        return {QStringLiteral("the commits of sandbox %1 did not come back; your repository is as it was: %2")
                    .arg(name, branches.error().text())};
    }
    if (branches.value().isEmpty())
        return {};
    qCInfo(lcRemoteFetch) << "fetched the commits of" << name << "into" << repository << ":" << branches.value();
    return {QStringLiteral("the sandbox's commits are in %1 of %2")
                .arg(branches.value().join(QStringLiteral(", ")), repository)};
}

} // namespace paddock::sandbox
