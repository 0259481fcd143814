// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/KitApplication.h"
#include "sandbox/ConfinedFiles.h"

#include "common/UniqueFd.h"
#include "kit/KitRules.h"
#include "runtime/bwrap/HomeFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcKitApplication, "paddock.sandbox.kit")

namespace paddock::sandbox {
namespace {

const QString kSentinel = QStringLiteral("proxy-managed");

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

} // namespace

/**
 * @p relative split into components, or nothing when it could leave its root ("..", an
 * absolute path, an empty name).
 */
std::optional<QStringList> safeComponents(const QString &relative)
{
    const QStringList parts = relative.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (parts.isEmpty() || relative.startsWith(QLatin1Char('/')))
        return std::nullopt;
    for (const QString &part : parts) {
        if (part == QLatin1String("..") || part == QLatin1String("."))
            return std::nullopt;
    }
    return parts;
}

/**
 * Opens (creating as needed, mode 0700) the directory @p components below the directory
 * @p root, never following a symbolic link: the home and the workspace are writable from
 * inside the sandbox, so a link planted there must not lead a write by the host elsewhere.
 */
Result<UniqueFd> openDirectoryChain(const QString &root, const QStringList &components)
{
    UniqueFd dir(::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() < 0) {
        return fail(QStringLiteral("cannot open %1: %2").arg(root, systemError()));
    }
    QString where = root;
    for (const QString &component : components) {
        where += QLatin1Char('/') + component;
        const QByteArray name = QFile::encodeName(component);
        if (::mkdirat(dir.get(), name.constData(), 0700) != 0 && errno != EEXIST) {
            return fail(QStringLiteral("cannot create %1: %2").arg(where, systemError()));
        }
        const int next = ::openat(dir.get(), name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) {
            return fail(QStringLiteral("cannot open %1 (a link or not a directory): %2").arg(where, systemError()));
        }
        dir.reset(next);
    }
    return dir;
}

/** Whether an entry exists at @p relative below @p root (a dangling link counts). */
bool existsBelow(const QString &root, const QStringList &components)
{
    struct stat st
    {};
    const QString path = root + QLatin1Char('/') + components.join(QLatin1Char('/'));
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0;
}

/**
 * Writes @p contents to @p relative below @p root atomically, replacing what is there (a link
 * is replaced, never written through).
 */
Result<void> writeBelow(const QString &root, const QString &relative, const QByteArray &contents, mode_t mode)
{
    const std::optional<QStringList> components = safeComponents(relative);
    if (!components)
        return fail(QStringLiteral("'%1' is not a path inside %2").arg(relative, root));
    Result<UniqueFd> opened = openDirectoryChain(root, components->mid(0, components->size() - 1));
    if (!opened)
        return opened.error();
    const UniqueFd dir = std::move(opened).value();
    const QByteArray name = QFile::encodeName(components->last());
    const QByteArray temporary = ".paddock-" + QByteArray::number(::getpid()) + '-' + name;
    const QString where = root + QLatin1Char('/') + relative;
    UniqueFd file(
        ::openat(dir.get(), temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (file.get() < 0)
        return fail(QStringLiteral("cannot write %1: %2").arg(where, systemError()));
    qsizetype done = 0;
    while (done < contents.size()) {
        const ssize_t n = ::write(file.get(), contents.constData() + done, size_t(contents.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const Error failure = fail(QStringLiteral("cannot write %1: %2").arg(where, systemError()));
            ::unlinkat(dir.get(), temporary.constData(), 0);
            return failure;
        }
        done += n;
    }
    if (::fchmod(file.get(), mode) != 0 || ::fsync(file.get()) != 0 ||
        ::renameat(dir.get(), temporary.constData(), dir.get(), name.constData()) != 0) {
        const Error failure = fail(QStringLiteral("cannot write %1: %2").arg(where, systemError()));
        ::unlinkat(dir.get(), temporary.constData(), 0);
        return failure;
    }
    return {};
}

namespace {

/** Copies regular files of @p source into @p target where nothing exists yet. */
Result<void> copyMissing(const QString &source, const QString &target, const QString &relative, QStringList *notes)
{
    const QDir dir(relative.isEmpty() ? source : source + QLatin1Char('/') + relative);
    const QFileInfoList entries =
        dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &entry : entries) {
        const QString rel = relative.isEmpty() ? entry.fileName() : relative + QLatin1Char('/') + entry.fileName();
        if (entry.isSymLink()) {
            notes->append(QStringLiteral("files/workspace/%1 is a link and was not copied").arg(rel));
        } else if (entry.isDir()) {
            if (const Result<void> copied = copyMissing(source, target, rel, notes); !copied)
                return copied;
        } else if (entry.isFile()) {
            const QStringList components = rel.split(QLatin1Char('/'));
            if (existsBelow(target, components))
                continue;
            QFile file(entry.filePath());
            if (!file.open(QIODevice::ReadOnly))
                return fail(QStringLiteral("cannot read %1: %2").arg(entry.filePath(), file.errorString()));
            const mode_t mode = (entry.permissions() & QFile::ExeOwner) ? 0755 : 0644;
            if (const Result<void> written = writeBelow(target, rel, file.readAll(), mode); !written)
                return written;
        }
    }
    return {};
}

/** @p path inside the sandbox relative to @p base inside, or nothing when it is not below it. */
std::optional<QString> relativeTo(const QString &base, const QString &path)
{
    if (base.isEmpty())
        return std::nullopt;
    const QString cleanBase = QDir::cleanPath(base);
    const QString cleanPath = QDir::cleanPath(path);
    if (!cleanPath.startsWith(cleanBase + QLatin1Char('/')))
        return std::nullopt;
    return cleanPath.mid(cleanBase.size() + 1);
}

/** The program, as the kit names it, or as `docker run` makes it from the kit and its image. */
QStringList programOf(const kit::SandboxBlock &block, const SandboxChoices &choices)
{
    const QStringList command =
        choices.interactive ? block.commandInteractive.value_or(block.commandDefault) : block.commandDefault;
    if (!choices.image || !block.entrypoint.isEmpty())
        return block.entrypoint + (choices.commandArgs.isEmpty() ? command : choices.commandArgs);
    const QStringList tail = !choices.commandArgs.isEmpty() ? choices.commandArgs
                             : !command.isEmpty()           ? command
                                                            : choices.image->cmd;
    return choices.image->entrypoint + tail;
}

/** The image's variables, except those the sandbox decides; its PATH replaces the default one. */
void addImageEnvironment(const image::ImageConfig &image, const QStringList &fixed, QMap<QString, QString> *environment)
{
    for (const QString &entry : image.env) {
        const qsizetype equals = entry.indexOf(QLatin1Char('='));
        const QString name = entry.left(equals);
        if (equals > 0 && !fixed.contains(name))
            environment->insert(name, entry.mid(equals + 1));
    }
}

/** The variables that send the sandbox's programs to its proxy, its only way out. */
QStringList proxyVariables()
{
    return {QStringLiteral("HTTP_PROXY"), QStringLiteral("HTTPS_PROXY"), QStringLiteral("ALL_PROXY"),
            QStringLiteral("http_proxy"), QStringLiteral("https_proxy"), QStringLiteral("all_proxy"),
            QStringLiteral("NO_PROXY"),   QStringLiteral("no_proxy")};
}

/**
 * The words that run a v3 hook with only the variables it declares (lifecycle@1: deny by default),
 * the shell's baseline and the sandbox's way out, each taken from the sandbox's environment where
 * the hook runs: never the host's. The proxy and CA variables stay because an install run is not
 * captured: without them a hook reaches nothing, not even the hosts its kit allows while
 * installing. Empty for a v2 hook, which sees the sandbox's whole environment.
 */
QString hookEnvironmentPrefix(const std::optional<QStringList> &names)
{
    if (!names)
        return {};
    QStringList words{QStringLiteral("env"), QStringLiteral("-i")};
    QStringList kept = QStringList{QStringLiteral("PATH"), QStringLiteral("HOME"), QStringLiteral("HOSTNAME"),
                                   QStringLiteral("TERM")} +
                       proxyVariables() + caBundleVariables();
    for (const QString &name : *names) {
        // The decoder allows names only; anything else is left out rather than run.
        if (name.size() <= 128 && kit::rules::isValidEnvironmentName(name) && !kept.contains(name))
            kept << name;
    }
    for (const QString &name : kept) // set only when the sandbox has it
        words << QStringLiteral("${%1+\"%1=$%1\"}").arg(name);
    return words.join(QLatin1Char(' ')) + QLatin1Char(' ');
}

/**
 * The kit's `setup.startup` commands as @p spec's startup script or, where each command runs as
 * its own user, its startup steps; an error for a user not known here.
 */
Result<void> addStartup(const kit::Kit &kit, const SandboxChoices &choices, runtime::SandboxSpec *spec)
{
    if (kit.setup.startup.isEmpty())
        return {};
    QStringList lines;
    for (const kit::StartupCommand &command : kit.setup.startup) {
        QStringList words;
        for (const QString &word : command.command)
            words << shellQuote(word);
        const QString line = words.join(QLatin1Char(' '));
        const QString run = hookEnvironmentPrefix(command.environment) + line;
        std::optional<int> uid = kRegularUid;
        if (choices.startupUsersByNamespace) {
            uid = kitUserId(command.user, kRegularUid);
            if (!uid)
                return fail(QStringLiteral("kit %1: the startup user '%2' is not known here (use a number, "
                                           "root or agent)")
                                .arg(kit.name, command.user));
        }
        // A failed startup command is reported and the program still starts, as a
        // container engine would after a failed entrypoint hook that is not fatal.
        // The command shown as written: nothing in it expands inside the message's quotes.
        QString shown = line;
        for (const QChar c : {QLatin1Char('\\'), QLatin1Char('"'), QLatin1Char('$'), QLatin1Char('`')})
            shown.replace(c, QStringLiteral("\\") + c);
        const QString step = command.background
                                 ? QStringLiteral("%1 </dev/null &").arg(run)
                                 : QStringLiteral("%1 || echo \"paddock: startup command failed (status $?): "
                                                  "%2\" >&2")
                                       .arg(run, shown);
        lines << step;
        spec->startupSteps.append({*uid, step});
    }
    // Run by the sandbox's supervisor once per start, before the agent: a new agent
    // session in a running sandbox does not run them again. Where each command runs as its
    // own user, the steps say who; otherwise the script runs as the sandbox's user.
    if (choices.startupUsersByNamespace)
        lines.clear();
    else
        spec->startupSteps.clear();
    spec->startup = lines.join(QLatin1Char('\n'));
    return {};
}

/**
 * The environment of @p spec's sandbox: its own, the image's and the kit's variables, and the
 * sentinels of proxy-managed keys; the CA bundle the proxy's trust needs is bound into @p spec.
 */
QMap<QString, QString> sandboxEnvironment(const kit::Kit &kit, const SandboxChoices &choices,
                                          runtime::SandboxSpec *spec)
{
    QMap<QString, QString> environment = runtime::baseEnvironment(*spec);
    QStringList fixed = QStringList{QStringLiteral("HOME")} + proxyVariables();
    if (!choices.caBundle.isEmpty()) {
        spec->readOnlyBinds.append({choices.caBundle, kCaBundleInside});
        for (const QString &variable : caBundleVariables())
            environment.insert(variable, kCaBundleInside);
        fixed << caBundleVariables();
    }
    const QMap<QString, QString> base = environment;
    if (choices.image)
        addImageEnvironment(*choices.image, fixed, &environment);
    for (const auto &[name, value] : kit.environment)
        environment.insert(name, value);
    for (const kit::Credential &credential : kit.credentials) {
        if (credential.apiKey && credential.apiKey->proxyManaged && !credential.apiKey->name.isEmpty())
            environment.insert(credential.apiKey->name, kSentinel);
    }
    for (auto it = choices.variables.cbegin(); it != choices.variables.cend(); ++it)
        environment.insert(it.key(), it.value());
    // The way out, the home and the trust are the sandbox's, not the kit's to change: a kit
    // that pointed SSL_CERT_FILE elsewhere would break every key the proxy adds.
    for (const QString &key : std::as_const(fixed)) {
        if (environment.value(key) != base.value(key))
            qCInfo(lcKitApplication) << "kit" << kit.name << "may not set" << key << "; kept the sandbox's value";
        environment.insert(key, base.value(key));
    }
    return environment;
}

} // namespace

QString shellQuote(const QString &text)
{
    // \A and \z: `$` would also match before a final newline and leave it unquoted.
    static const QRegularExpression plain(QStringLiteral("\\A[A-Za-z0-9_@%+=:,./-]+\\z"));
    if (plain.match(text).hasMatch())
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QStringList caBundleVariables()
{
    return {QStringLiteral("SSL_CERT_FILE"),      QStringLiteral("NODE_EXTRA_CA_CERTS"),
            QStringLiteral("REQUESTS_CA_BUNDLE"), QStringLiteral("CURL_CA_BUNDLE"),
            QStringLiteral("GIT_SSL_CAINFO"),     QStringLiteral("PIP_CERT")};
}

Result<runtime::SandboxSpec> applyKit(const kit::Kit &kit, const SandboxChoices &choices)
{
    if (!kit.isSandbox() || !kit.sandbox)
        return fail(QStringLiteral("kit %1 is a mixin; a sandbox needs a kit of kind sandbox").arg(kit.name));
    const kit::SandboxBlock &block = *kit.sandbox;

    runtime::SandboxSpec spec;
    spec.name = choices.name.isEmpty() ? defaultSandboxName(kit.name, choices.workspace) : choices.name;
    spec.kitName = kit.name;
    spec.workspace = choices.workspace;
    spec.proxySocket = choices.proxySocket;
    spec.initPath = choices.initPath;
    spec.interactive = choices.interactive;
    spec.lifetime = choices.lifetime;
    for (const QString &path : choices.extraPaths)
        spec.readOnlyBinds.append({path, {}});
    spec.sharedMounts = choices.sharedMounts;
    spec.personVariables = choices.variables.keys();
    if (block.resources) {
        spec.limits.memoryBytes = block.resources->memoryBytes.value_or(0);
        spec.limits.cpus = block.resources->cpu.value_or(0);
    }

    QStringList program = programOf(block, choices);
    if (kit.schemaVersion == QLatin1String("3") && choices.interactive && choices.commandArgs.isEmpty() &&
        block.commandInteractive) {
        // lifecycle@1: a terminal's launch is the launch argv (the image's Entrypoint + Cmd) and
        // the interactive tail after it; the tail does not replace the Cmd.
        SandboxChoices headless = choices;
        headless.interactive = false;
        program = programOf(block, headless) + *block.commandInteractive;
    }
    if (program.isEmpty() && choices.image)
        return fail(QStringLiteral("neither kit %1 nor its image names a program").arg(kit.name),
                    QStringLiteral("give it after '--'"));
    if (program.isEmpty())
        return fail(QStringLiteral("kit %1 names no entrypoint or command, and a bubblewrap sandbox has "
                                   "no image to supply one")
                        .arg(kit.name),
                    QStringLiteral("give the program after '--'"));
    if (choices.image && choices.workspace.isEmpty())
        spec.workingDir = choices.image->workingDir;
    if (const Result<void> startup = addStartup(kit, choices, &spec); !startup)
        return startup.error();
    spec.argv = program;

    spec.environment = sandboxEnvironment(kit, choices, &spec);
    return spec;
}

kit::AgentVerbs agentVerbsOf(const kit::Kit &kit, const std::optional<image::ImageConfig> &image)
{
    kit::AgentVerbs verbs;
    verbs.kitName = kit.name;
    if (!kit.sandbox)
        return verbs;
    SandboxChoices headless;
    headless.image = image;
    verbs.launch = programOf(*kit.sandbox, headless);
    verbs.interactiveTail = kit.sandbox->commandInteractive;
    verbs.headless = kit.agentSessions;
    verbs.interactive = kit.agentInteractiveSessions;
    return verbs;
}

std::optional<int> kitUserId(const QString &user, int fallback)
{
    const QString name = user.trimmed();
    if (name.isEmpty())
        return fallback;
    if (name == QLatin1String("root"))
        return 0;
    if (name == QLatin1String("agent"))
        return kRegularUid;
    bool ok = false;
    const int uid = name.toInt(&ok);
    if (ok && uid >= 0)
        return uid;
    return std::nullopt;
}

Result<QList<InstallRun>> installRuns(const kit::Kit &kit)
{
    QList<InstallRun> runs;
    QList<QStringList> lines;
    for (const kit::InstallCommand &command : kit.setup.install) {
        const std::optional<int> uid = kitUserId(command.user, 0);
        if (!uid)
            return fail(QStringLiteral("kit %1: the install user '%2' is not known here (use a number, root or agent)")
                            .arg(kit.name, command.user));
        if (runs.isEmpty() || runs.last().uid != *uid) {
            runs.append(InstallRun{*uid, {}});
            lines.append(QStringList{QStringLiteral("set -e")});
        }
        lines.last() << hookEnvironmentPrefix(command.environment) +
                            QStringLiteral("sh -c %1").arg(shellQuote(command.command));
    }
    for (qsizetype i = 0; i < runs.size(); ++i)
        runs[i].argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), lines.at(i).join(QLatin1Char('\n'))};
    return runs;
}

QStringList installArgv(const kit::Kit &kit)
{
    QStringList lines{QStringLiteral("set -e")};
    for (const kit::InstallCommand &command : kit.setup.install)
        lines << hookEnvironmentPrefix(command.environment) +
                     QStringLiteral("sh -c %1").arg(shellQuote(command.command));
    return {QStringLiteral("sh"), QStringLiteral("-c"), lines.join(QLatin1Char('\n'))};
}

Result<void> prepareHome(const kit::Kit &kit, const runtime::SandboxSpec &spec, const QString &homeDir,
                         QStringList *notes)
{
    if (!kit.directory.isEmpty()) {
        const QString homeTree = kit.directory + QStringLiteral("/files/home");
        if (QFileInfo(homeTree).isDir()) {
            const runtime::HomeCopyResult copied = runtime::copyHomeTree(homeTree, homeDir);
            if (!copied.ok)
                return fail(copied.error);
            for (const QString &skipped : copied.skipped)
                notes->append(QStringLiteral("files/home/%1 was not copied (a link leading outside, or not a file)")
                                  .arg(skipped));
        }
        const QString workspaceTree = kit.directory + QStringLiteral("/files/workspace");
        if (QFileInfo(workspaceTree).isDir() && !spec.workspace.isEmpty()) {
            if (const Result<void> copied = copyMissing(workspaceTree, spec.workspace, {}, notes); !copied)
                return copied;
        }
    }
    if (kit.agentInstructions && !kit.agentInstructions->filename.isEmpty())
        return writeBelow(homeDir, kit.agentInstructions->filename, kit.agentInstructions->content.toUtf8(), 0644);
    return {};
}

Result<void> writeSetupFiles(const QList<kit::SetupFile> &files, const runtime::SandboxSpec &spec,
                             const QString &homeDir, QStringList *notes)
{
    for (const kit::SetupFile &file : files) {
        QString root;
        std::optional<QString> relative = relativeTo(spec.sandboxHome, file.path);
        if (relative) {
            root = homeDir;
        } else if ((relative = relativeTo(spec.workspace, file.path))) {
            root = spec.workspace;
        } else {
            notes->append(
                QStringLiteral("setup file %1 was not written: a bubblewrap sandbox shares the host's read-only "
                               "system, so only files under the home (%2) or the workspace can be written")
                    .arg(file.path, spec.sandboxHome));
            continue;
        }
        const std::optional<QStringList> components = safeComponents(*relative);
        if (!components) {
            notes->append(QStringLiteral("setup file %1 was not written: not a plain path").arg(file.path));
            continue;
        }
        if (file.onlyIfMissing && existsBelow(root, *components))
            continue;
        bool ok = false;
        const mode_t mode = file.mode.isEmpty() ? 0644 : mode_t(file.mode.toUInt(&ok, 8));
        if (!file.mode.isEmpty() && !ok) {
            notes->append(QStringLiteral("setup file %1 has an invalid mode %2").arg(file.path, file.mode));
            continue;
        }
        if (const Result<void> written = writeBelow(root, *relative, file.content.toUtf8(), mode & 07777); !written)
            return written;
    }
    return {};
}

} // namespace paddock::sandbox
