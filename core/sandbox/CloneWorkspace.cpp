// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/CloneWorkspace.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "runtime/bwrap/BwrapCommand.h"
#include "sandbox/KitApplication.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QProcess>
#include <QStandardPaths>

Q_LOGGING_CATEGORY(lcClone, "paddock.sandbox.clone", QtInfoMsg)

namespace paddock::sandbox {
namespace {

constexpr int kGitTimeoutMs = 10 * 60 * 1000;

/**
 * The caller's environment without anything that would point git elsewhere (GIT_DIR,
 * GIT_CONFIG_*, GIT_SSH_COMMAND, ...), and never a prompt: the daemon has no terminal.
 */
QProcessEnvironment gitEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &key : environment.keys()) {
        if (key.startsWith(QLatin1String("GIT_")))
            environment.remove(key);
    }
    environment.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    return environment;
}

/** What git printed on its standard output, trimmed; else git's own message, or why it did not run. */
Result<QString> git(const QStringList &arguments)
{
    const QString program = QStandardPaths::findExecutable(QStringLiteral("git"));
    if (program.isEmpty())
        return fail(QStringLiteral("git is not installed"));
    QProcess process;
    process.setProcessEnvironment(gitEnvironment());
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    if (!process.waitForFinished(kGitTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        return fail(QStringLiteral("git %1 did not finish").arg(arguments.value(2)));
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return fail(QString::fromUtf8(process.readAllStandardError()).trimmed());
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}

/**
 * The shell command git runs instead of `git-upload-pack` to read the clone (git appends the
 * quoted path): upload-pack confined to the clone, with no configuration but the clone's own
 * and nothing of it that runs a program.
 */
QString confinedUploadPack(const QString &clone)
{
    const QString bwrap = runtime::bwrap::bwrapProgram();
    const QString gitProgram = QStandardPaths::findExecutable(QStringLiteral("git"));
    if (bwrap.isEmpty() || gitProgram.isEmpty())
        return {};
    const QMap<QString, QString> environment{
        {QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin")},
        {QStringLiteral("HOME"), QStringLiteral("/nonexistent")},
        {QStringLiteral("LC_ALL"), QStringLiteral("C")},
        {QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1")},
        {QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("/dev/null")},
    };
    QStringList command{bwrap};
    command << runtime::bwrap::confinementArguments(clone, environment);
    command << QStringLiteral("--") << gitProgram << QStringLiteral("-c") << QStringLiteral("core.hooksPath=/dev/null")
            << QStringLiteral("-c") << QStringLiteral("core.fsmonitor=false") << QStringLiteral("-c")
            << QStringLiteral("protocol.allow=never") << QStringLiteral("upload-pack");
    QStringList quoted;
    for (const QString &word : std::as_const(command))
        quoted << shellQuote(word);
    return quoted.join(QLatin1Char(' '));
}

} // namespace

QString CloneWorkspace::pathFor(const QString &name)
{
    return paths::dataDir() + QStringLiteral("/sandboxes/") + name + QStringLiteral("/workspace");
}

QString CloneWorkspace::recordPath(const QString &name)
{
    return paths::dataDir() + QStringLiteral("/sandboxes/") + name + QStringLiteral("/clone.json");
}

QString CloneWorkspace::folderInClone() const
{
    const QString relative = QDir(m_repository).relativeFilePath(m_folder);
    return relative == QLatin1String(".") ? m_path : QDir::cleanPath(m_path + QLatin1Char('/') + relative);
}

QString CloneWorkspace::branchPrefix() const
{
    return QStringLiteral("paddock/%1/").arg(m_name);
}

QString CloneWorkspace::remoteName() const
{
    return QStringLiteral("paddock-") + m_name;
}

QJsonObject CloneWorkspace::toInfoJson() const
{
    return {{QStringLiteral("path"), m_path}, {QStringLiteral("branchPrefix"), branchPrefix()}};
}

Result<CloneWorkspace> CloneWorkspace::create(const QString &name, const QString &folder)
{
    const Result<QString> top =
        git({QStringLiteral("-C"), folder, QStringLiteral("rev-parse"), QStringLiteral("--show-toplevel")});
    if (!top || top->isEmpty())
        return fail(QStringLiteral("%1 is not in a git work tree: a clone workspace is a clone of the folder's "
                                   "repository (create one with 'git init' and a first commit, or run without --clone)")
                        .arg(folder));
    const Result<QString> head =
        git({QStringLiteral("-C"), *top, QStringLiteral("rev-parse"), QStringLiteral("--verify"),
             QStringLiteral("--quiet"), QStringLiteral("HEAD^{commit}")});
    if (!head)
        return fail(
            QStringLiteral("the repository at %1 has no commit yet: commit something first, or run without --clone")
                .arg(*top));

    CloneWorkspace clone;
    clone.m_name = name;
    clone.m_folder = QDir::cleanPath(folder);
    clone.m_repository = QDir::cleanPath(*top);
    clone.m_path = pathFor(name);
    const QString uploadPack = confinedUploadPack(clone.m_path);
    if (uploadPack.isEmpty())
        return fail(QStringLiteral("a clone workspace needs git and bubblewrap on the host"));
    if (QString error; !paths::ensurePrivateDir(QFileInfo(clone.m_path).absolutePath(), &error))
        return fail(error);
    if (QFileInfo::exists(clone.m_path))
        QDir(clone.m_path).removeRecursively(); // the leftover of a sandbox that was never recorded

    if (const Result<void> cloned = clone.cloneAt(*head); !cloned)
        return cloned.error();
    Result<void> made = clone.addRemote(uploadPack);
    if (made)
        made = clone.write();
    if (!made) {
        clone.discard();
        return made.error();
    }
    qCInfo(lcClone) << "cloned" << clone.m_repository << "for sandbox" << name << "at" << *head;
    return clone;
}

Result<void> CloneWorkspace::cloneAt(const QString &commit) const
{
    // Copies rather than hard links: the clone's objects must not be the repository's files.
    const Result<QString> cloned = git({QStringLiteral("clone"), QStringLiteral("--quiet"),
                                        QStringLiteral("--no-hardlinks"), QStringLiteral("--"), m_repository, m_path});
    if (!cloned) {
        QDir(m_path).removeRecursively();
        return fail(QStringLiteral("cannot clone %1: %2").arg(m_repository, cloned.error().text()));
    }
    // The clone is still the daemon's own here; from now on the sandbox owns it. Its origin
    // would name a path that does not exist inside, so it goes.
    const Result<QString> checkedOut =
        git({QStringLiteral("-C"), m_path, QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
    (void)git(
        {QStringLiteral("-C"), m_path, QStringLiteral("remote"), QStringLiteral("remove"), QStringLiteral("origin")});
    if (!checkedOut || *checkedOut != commit) {
        // A detached HEAD in the repository: the clone stands at the same commit.
        const Result<QString> detached = git({QStringLiteral("-C"), m_path, QStringLiteral("checkout"),
                                              QStringLiteral("--quiet"), QStringLiteral("--detach"), commit});
        if (!detached) {
            QDir(m_path).removeRecursively();
            return fail(QStringLiteral("cannot check out %1 in the clone: %2").arg(commit, detached.error().text()));
        }
    }
    return {};
}

Result<void> CloneWorkspace::addRemote(const QString &uploadPack) const
{
    const QString remote = remoteName();
    const QString config = QStringLiteral("remote.%1.").arg(remote);
    // A remote of that name left by an earlier sandbox of the name, if there is one.
    (void)git({QStringLiteral("-C"), m_repository, QStringLiteral("remote"), QStringLiteral("remove"), remote});
    for (const QStringList &arguments :
         {QStringList{QStringLiteral("remote"), QStringLiteral("add"), remote, m_path},
          QStringList{QStringLiteral("config"), QStringLiteral("--replace-all"), config + QStringLiteral("fetch"),
                      QStringLiteral("+refs/heads/*:refs/heads/") + branchPrefix() + QLatin1Char('*')},
          QStringList{QStringLiteral("config"), config + QStringLiteral("uploadpack"), uploadPack},
          QStringList{QStringLiteral("config"), config + QStringLiteral("tagOpt"), QStringLiteral("--no-tags")}}) {
        const Result<QString> done = git(QStringList{QStringLiteral("-C"), m_repository} + arguments);
        if (!done)
            return fail(
                QStringLiteral("cannot add the remote %1 to %2: %3").arg(remote, m_repository, done.error().text()));
    }
    return {};
}

std::optional<CloneWorkspace> CloneWorkspace::read(const QString &name)
{
    QFile file(recordPath(name));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
    CloneWorkspace clone;
    clone.m_name = name;
    clone.m_folder = object.value(QLatin1String("folder")).toString();
    clone.m_repository = object.value(QLatin1String("repository")).toString();
    clone.m_path = pathFor(name);
    if (clone.m_folder.isEmpty() || clone.m_repository.isEmpty())
        return std::nullopt;
    return clone;
}

Result<void> CloneWorkspace::write() const
{
    const QJsonObject object{{QStringLiteral("folder"), m_folder}, {QStringLiteral("repository"), m_repository}};
    if (QString error; !writeFileAtomically(recordPath(m_name), QJsonDocument(object).toJson(), &error, 0600))
        return fail(error);
    return {};
}

Result<QStringList> CloneWorkspace::fetchBack() const
{
    if (!QFileInfo(m_path).isDir())
        return fail(QStringLiteral("the clone %1 is gone").arg(m_path));
    const QString uploadPack = confinedUploadPack(m_path);
    if (uploadPack.isEmpty())
        return fail(QStringLiteral("fetching from a clone workspace needs git and bubblewrap on the host"));
    const QString prefix = QStringLiteral("refs/heads/") + branchPrefix();
    const Result<QString> fetched =
        git({QStringLiteral("-C"), m_repository, QStringLiteral("-c"), QStringLiteral("protocol.allow=never"),
             QStringLiteral("-c"), QStringLiteral("protocol.file.allow=always"), QStringLiteral("fetch"),
             QStringLiteral("--quiet"), QStringLiteral("--no-tags"), QStringLiteral("--no-recurse-submodules"),
             QStringLiteral("--no-write-fetch-head"), QStringLiteral("--no-auto-gc"),
             QStringLiteral("--upload-pack=") + uploadPack, QStringLiteral("--"), m_path,
             QStringLiteral("+refs/heads/*:") + prefix + QLatin1Char('*')});
    if (!fetched)
        return fail(QStringLiteral("cannot fetch the commits of sandbox %1 from its clone: %2")
                        .arg(m_name, fetched.error().text()));
    const QString listed = git({QStringLiteral("-C"), m_repository, QStringLiteral("for-each-ref"),
                                QStringLiteral("--format=%(refname:short)"), prefix})
                               .valueOr(QString());
    const QStringList branches = listed.isEmpty() ? QStringList() : listed.split(QLatin1Char('\n'));
    qCInfo(lcClone) << "fetched the clone of" << m_name << "into" << m_repository << ":" << branches;
    return branches;
}

void CloneWorkspace::discard() const
{
    // Gone already when the user removed it.
    (void)git({QStringLiteral("-C"), m_repository, QStringLiteral("remote"), QStringLiteral("remove"), remoteName()});
    // Links in the clone are removed, never followed.
    QDir(m_path).removeRecursively();
    QFile::remove(recordPath(m_name));
}

QStringList CloneWorkspace::fetchBackNotes(const QString &name)
{
    const std::optional<CloneWorkspace> clone = CloneWorkspace::read(name);
    if (!clone)
        return {};
    const Result<QStringList> fetched = clone->fetchBack();
    if (!fetched)
        return {fetched.error().text()};
    const QStringList &branches = *fetched;
    if (branches.isEmpty())
        return {};
    return {QStringLiteral("the clone's commits are in %1 of %2")
                .arg(branches.join(QStringLiteral(", ")), clone->repository())};
}

} // namespace paddock::sandbox
