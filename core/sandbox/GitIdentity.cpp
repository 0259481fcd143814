// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/GitIdentity.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>

namespace paddock::sandbox {
namespace {

constexpr qsizetype kMaxValueBytes = 256;

bool hasControlCharacter(const QString &value)
{
    return std::any_of(value.cbegin(), value.cend(), [](QChar c) { return c.category() == QChar::Other_Control; });
}

} // namespace

bool wantsGitIdentity(const kit::Kit &kit)
{
    return std::any_of(kit.capabilities.cbegin(), kit.capabilities.cend(), [](const kit::CapabilityOutcome &outcome) {
        return outcome.type == QLatin1String(kGitIdentityCapability) &&
               outcome.status == kit::CapabilityOutcome::Status::Applied;
    });
}

QMap<QString, QString> hostGitIdentity(QStringList *notes)
{
    QMap<QString, QString> identity;
    const QString git = QStandardPaths::findExecutable(QStringLiteral("git"));
    if (git.isEmpty()) {
        notes->append(QStringLiteral("git-identity@1: git is not installed on this computer, so git inside the "
                                     "sandbox has no name or email from it"));
        return identity;
    }
    // Outside any repository, and without what this process's environment would add to git's
    // view (a repository, `-c` settings): the system's and the person's configuration, where the
    // person's environment says they are.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    const QStringList kept{QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("GIT_CONFIG_SYSTEM"),
                           QStringLiteral("GIT_CONFIG_NOSYSTEM")};
    for (const QString &name : environment.keys()) {
        if (name.startsWith(QLatin1String("GIT_")) && !kept.contains(name))
            environment.remove(name);
    }
    for (const QString &key : {QStringLiteral("user.name"), QStringLiteral("user.email")}) {
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(QDir::rootPath());
        process.start(git, {QStringLiteral("config"), QStringLiteral("--get"), key});
        process.closeWriteChannel();
        if (!process.waitForFinished(10000)) {
            process.kill();
            process.waitForFinished();
            continue;
        }
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
            continue; // not set
        QByteArray value = process.readAllStandardOutput();
        if (value.endsWith('\n'))
            value.chop(1);
        const QString text = QString::fromUtf8(value);
        if (value.isEmpty() || value.size() > kMaxValueBytes || hasControlCharacter(text)) {
            notes->append(QStringLiteral("git-identity@1: your git %1 is left out (empty, longer than %2 bytes or "
                                         "holding a control character)")
                              .arg(key)
                              .arg(kMaxValueBytes));
            continue;
        }
        identity.insert(key, text);
    }
    return identity;
}

void addGitIdentity(const kit::Kit &kit, runtime::SandboxSpec &spec, QStringList *notes)
{
    if (!wantsGitIdentity(kit))
        return;
    if (spec.personVariables.contains(QLatin1String("GIT_CONFIG_COUNT"))) {
        notes->append(QStringLiteral("git-identity@1: your --env GIT_CONFIG_COUNT is kept, so git inside does not "
                                     "get your name and email from Paddock"));
        return;
    }
    const QMap<QString, QString> identity = hostGitIdentity(notes);
    if (identity.isEmpty()) {
        notes->append(QStringLiteral("git-identity@1: no user.name or user.email is set in your git configuration"));
        return;
    }
    int index = 0;
    for (auto it = identity.cbegin(); it != identity.cend(); ++it, ++index) {
        spec.environment.insert(QStringLiteral("GIT_CONFIG_KEY_%1").arg(index), it.key());
        spec.environment.insert(QStringLiteral("GIT_CONFIG_VALUE_%1").arg(index), it.value());
    }
    spec.environment.insert(QStringLiteral("GIT_CONFIG_COUNT"), QString::number(index));
}

} // namespace paddock::sandbox
