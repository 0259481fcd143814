// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SharedFolders.h"

#include "env/EnvPlan.h"

#include "sandbox/KitApplication.h"
#include "sandbox/WorkspaceGuard.h"
#include "sandbox/WorkspaceReview.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>

namespace paddock::sandbox {
namespace {

QString home()
{
    return resolvedPath(QDir::homePath());
}

/** Folders a program on this computer runs from or a service starts from. */
QStringList executedFolders()
{
    QStringList folders;
    for (const char *relative :
         {".local/bin", "bin", ".dotnet/tools", ".cargo/bin", "go/bin", ".npm-global", ".local/share/applications",
          ".config/autostart", ".config/systemd", ".local/share/systemd", ".config/environment.d"})
        folders << home() + QLatin1Char('/') + QLatin1String(relative);
    const QString path = QProcessEnvironment::systemEnvironment().value(QStringLiteral("PATH"));
    for (const QString &entry : path.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        if (QDir::isAbsolutePath(entry))
            folders << resolvedPath(entry);
    }
    return folders;
}

std::optional<QString> insidePathProblem(const SharedFolder &folder, const QString &workspace,
                                         const QString &sandboxHome)
{
    const QString inside = folder.insidePath;
    if (inside == QLatin1String("/"))
        return QStringLiteral("%1 cannot be shared at / inside: the sandbox needs its own system").arg(folder.hostPath);
    if (const QString place = kit::reservedInsidePlace(inside); !place.isEmpty())
        return QStringLiteral("%1 inside is the sandbox's own (%2): share the folder somewhere else")
            .arg(inside, place);
    if (inside == QDir::cleanPath(sandboxHome))
        return QStringLiteral("%1 is the sandbox's home: share a folder inside it instead, such as %1/.nuget")
            .arg(inside);
    if (!workspace.isEmpty() && isPathInside(inside, QDir::cleanPath(workspace)))
        return QStringLiteral("%1 is in the workspace: a mount there would leave an empty folder in your project; "
                              "share it outside the workspace")
            .arg(inside);
    return std::nullopt;
}

std::optional<QString> hostPathProblem(const QString &host)
{
    const QString advice = QStringLiteral("; share a folder made for it, such as ~/.nuget or ~/shared/NAME");
    if (host == QLatin1String("/"))
        return QStringLiteral("/ cannot be shared: the sandbox would see every file you can") + advice;
    if (isPathInside(home(), host))
        return QStringLiteral("%1 holds your home folder, which cannot be shared: the sandbox could read ~/.ssh "
                              "and rewrite Paddock's own settings")
                   .arg(shownPath(host)) +
               advice;
    for (const QString &entry : sensitiveFolders()) {
        const QString guarded = resolvedPath(entry);
        if (!isPathInside(host, guarded) && !isPathInside(guarded, host))
            continue;
        const QString where = host == guarded ? shownPath(host)
                              : isPathInside(host, guarded)
                                  ? QStringLiteral("%1 is inside %2, which").arg(shownPath(host), shownPath(guarded))
                                  : QStringLiteral("%1 holds %2, which").arg(shownPath(host), shownPath(guarded));
        return QStringLiteral("%1 holds credentials or the sandbox's own boundary and is never shared").arg(where) +
               advice;
    }
    if (const std::optional<QString> problem = workspaceProblem(host))
        return QString(*problem).replace(QStringLiteral("cannot be a workspace"), QStringLiteral("cannot be shared"));
    return std::nullopt;
}

} // namespace

QStringList sensitiveFolders()
{
    const QString h = QDir::homePath() + QLatin1Char('/');
    QStringList folders;
    for (const char *relative : {".ssh", ".gnupg", ".docker", ".aws", ".azure", ".kube", ".netrc", ".git-credentials",
                                 ".password-store", ".pki", ".mozilla", ".config/gh", ".config/gcloud",
                                 ".config/google-chrome", ".config/chromium", ".local/share/keyrings"})
        folders << h + QLatin1String(relative);
    folders << QStringLiteral("/var/run/docker.sock") << QStringLiteral("/run/docker.sock") << QStringLiteral("/proc")
            << QStringLiteral("/sys") << QStringLiteral("/dev");
    const QString runtime = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (!runtime.isEmpty() && runtime != QDir::tempPath())
        folders << runtime;
    return folders;
}

std::optional<QString> sharedMountsProblem(const runtime::SandboxSpec &spec)
{
    for (const runtime::SharedMount &mount : spec.sharedMounts) {
        SharedFolder folder{mount.hostPath, mount.sandboxPath, mount.writable};
        if (const std::optional<QString> problem =
                sharedFolderProblem(&folder, spec.workspace, spec.sandboxHome, nullptr))
            return QStringLiteral("the shared folder %1: %2").arg(mount.hostPath, *problem);
        if (folder.hostPath != mount.hostPath)
            return QStringLiteral("the shared folder %1 now leads to %2: a link was put in its place, which is not "
                                  "followed; put the folder back, or remove the sandbox and share another")
                .arg(mount.hostPath, folder.hostPath);
    }
    return std::nullopt;
}

bool runsPrograms(const QString &hostPath)
{
    const QString host = resolvedPath(hostPath);
    const QStringList folders = executedFolders();
    return std::any_of(folders.cbegin(), folders.cend(), [&host](const QString &executed) {
        return isPathInside(host, executed) || isPathInside(executed, host);
    });
}

QList<ReviewedChange> programFolderChanges(const QList<SharedFolder> &mounts, const QDateTime &startedAt)
{
    // The kernel stamps a file with a clock that runs up to a tick behind the one the start was
    // read from: a file the sandbox wrote in its first milliseconds may look older than the
    // start. A second's margin lists such a file, and at worst one the host changed just before.
    const QDateTime since = startedAt.addSecs(-1);
    QList<ReviewedChange> changes;
    for (const SharedFolder &mount : mounts) {
        if (!mount.writable || !runsPrograms(mount.hostPath))
            continue;
        QDirIterator it(mount.hostPath, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        int seen = 0;
        while (it.hasNext() && seen++ < 5000 && changes.size() < 200) {
            const QFileInfo file(it.next());
            if (file.isDir() && !file.isSymLink())
                continue;
            if (file.metadataChangeTime() < since)
                continue;
            ReviewedChange change;
            change.path = shownPath(file.filePath());
            change.kind = file.birthTime().isValid() && file.birthTime() >= since ? ReviewedChange::Kind::Added
                                                                                  : ReviewedChange::Kind::Modified;
            change.what = QStringLiteral("a folder this computer runs programs from, shared read-write");
            change.diff = file.isSymLink()
                              ? QStringLiteral("a link to %1").arg(file.symLinkTarget())
                              : QStringLiteral("changed at %1 while the sandbox ran (%2 bytes%3): read it before "
                                               "you run it")
                                    .arg(file.metadataChangeTime().toString(QStringLiteral("HH:mm:ss")))
                                    .arg(file.size())
                                    .arg(file.isExecutable() ? QStringLiteral(", executable") : QString());
            changes.append(change);
        }
    }
    return changes;
}

std::optional<QString> volumeInsideProblem(const QString &path, const QString &workspace, const QString &sandboxHome)
{
    if (const std::optional<QString> problem = kit::volumePathProblem(path))
        return problem;
    const QString inside = QDir::cleanPath(path);
    if (inside == QDir::cleanPath(sandboxHome))
        return QStringLiteral("the volume path %1 is the sandbox's home: mount the volume at a folder inside it")
            .arg(inside);
    if (!workspace.isEmpty() && isPathInside(inside, QDir::cleanPath(workspace)))
        return QStringLiteral("the volume path %1 is in the workspace: a volume there would hide your project's files; "
                              "choose a path outside the workspace")
            .arg(inside);
    return std::nullopt;
}

std::optional<QString> sharedFolderProblem(SharedFolder *folder, const QString &workspace, const QString &sandboxHome,
                                           QString *warning)
{
    if (!QDir::isAbsolutePath(folder->hostPath) || !QFileInfo::exists(folder->hostPath))
        return QStringLiteral("%1 does not exist: create it first (it is shared as it is)").arg(folder->hostPath);
    folder->hostPath = resolvedPath(folder->hostPath);
    folder->insidePath = QDir::cleanPath(folder->insidePath);
    if (const std::optional<QString> problem = hostPathProblem(folder->hostPath))
        return problem;
    if (const std::optional<QString> problem = insidePathProblem(*folder, workspace, sandboxHome))
        return problem;
    if (folder->writable && warning) {
        for (const QString &executed : executedFolders()) {
            if (isPathInside(folder->hostPath, executed) || isPathInside(executed, folder->hostPath)) {
                *warning = QStringLiteral("%1 is shared read-write and this computer runs programs from %2: what "
                                          "the sandbox writes there runs outside it the next time you start it "
                                          "('paddock review NAME' shows what a session changed there)")
                               .arg(shownPath(folder->hostPath), shownPath(executed));
                break;
            }
        }
    }
    return std::nullopt;
}

std::optional<QString> variableProblem(const QString &name, const QString &value,
                                       const QStringList &credentialVariables)
{
    QString error;
    if (!parseVariable(name, &error))
        return error;
    QStringList fixed{QStringLiteral("HOME"),       QStringLiteral("HTTP_PROXY"),  QStringLiteral("HTTPS_PROXY"),
                      QStringLiteral("ALL_PROXY"),  QStringLiteral("NO_PROXY"),    QStringLiteral("FTP_PROXY"),
                      QStringLiteral("http_proxy"), QStringLiteral("https_proxy"), QStringLiteral("all_proxy"),
                      QStringLiteral("no_proxy"),   QStringLiteral("ftp_proxy")};
    fixed << caBundleVariables();
    if (fixed.contains(name) || name.startsWith(QLatin1String("PADDOCK_")))
        return QStringLiteral("%1 is set by Paddock itself (the sandbox's home, its only way out and its trust)")
            .arg(name);
    const QString store = QStringLiteral("store the key with 'paddock secret set SERVICE' and bind it to the kit's "
                                         "credential: the proxy adds it to requests, and the sandbox never holds it");
    if (credentialVariables.contains(name))
        return QStringLiteral("%1 is where the kit's credential keeps its placeholder: %2").arg(name, store);
    static const QRegularExpression keyFormat(QStringLiteral(
        "\\b(sk-ant-[A-Za-z0-9_-]{16,}|sk-(proj-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]"
        "{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|hf_[A-"
        "Za-z0-9]{30,})"));
    if (keyFormat.match(value).hasMatch())
        return QStringLiteral("the value of %1 looks like an API key, which a sandbox never holds: %2")
            .arg(name, store);
    return std::nullopt;
}

QStringList credentialVariables(const kit::Kit &kit)
{
    QStringList variables;
    for (const kit::Credential &credential : kit.credentials) {
        if (credential.apiKey && !credential.apiKey->name.isEmpty())
            variables << credential.apiKey->name;
    }
    return variables;
}

QString storedKeyProblem(const QString &name, const QString &service)
{
    return QStringLiteral("the value of %1 is the key stored as secret '%2', which a sandbox never holds: bind that "
                          "secret to the kit's credential instead ('paddock binding approve'), and the proxy adds it "
                          "to requests")
        .arg(name, service);
}

env::ShareFindings checkEnvironmentShares(const env::Environment &environment)
{
    env::ShareFindings found;
    found.workspace = workspaceProblem(environment.workspace);
    const QString sandboxHome = runtime::SandboxSpec().sandboxHome;
    for (const kit::SharedFolder &mount : environment.mounts) {
        kit::SharedFolder checked = mount;
        QString warning;
        const std::optional<QString> problem =
            sharedFolderProblem(&checked, environment.workspace, sandboxHome, &warning);
        found.mounts.append({problem.value_or(QString()), warning});
    }
    for (auto it = environment.env.begin(); it != environment.env.end(); ++it) {
        if (const std::optional<QString> problem = variableProblem(it.key(), it.value(), {}))
            found.variables.insert(it.key(), *problem);
    }
    return found;
}

} // namespace paddock::sandbox
