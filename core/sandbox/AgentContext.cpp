// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/AgentContext.h"

#include "sandbox/ConfinedFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>

#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace paddock::sandbox {

namespace {

constexpr qint64 kMaxProfileBytes = 1024 * 1024;
const QString kBodiesFolder = QStringLiteral(".paddock-kits");

/** A path as one line of the index: no line breaks or control characters. */
QString oneLine(const QString &text)
{
    QString line;
    for (const QChar c : text)
        line += c.unicode() < 0x20 || c.unicode() == 0x7f ? QChar(u'?') : c;
    return neutralisedContext(line);
}

/** Where @p inside (a path in the sandbox) is on the host: {root, relative}, or nothing. */
std::optional<QPair<QString, QString>> onHost(const QString &inside, const runtime::SandboxSpec &spec,
                                              const QString &homeDir)
{
    const QString path = QDir::cleanPath(inside);
    for (const auto &[base, root] : {QPair<QString, QString>{spec.sandboxHome, homeDir},
                                     QPair<QString, QString>{spec.workspace, spec.workspace}}) {
        const QString cleanBase = QDir::cleanPath(base);
        if (!base.isEmpty() && path.startsWith(cleanBase + QLatin1Char('/')))
            return QPair<QString, QString>{root, path.mid(cleanBase.size() + 1)};
    }
    return std::nullopt;
}

enum class Read {
    Missing,
    Read,
    Refused
};

/** The file @p relative below @p root, read without following a link; at most kMaxProfileBytes. */
Read readBelow(const QString &root, const QString &relative, QByteArray *contents)
{
    const std::optional<QStringList> components = safeComponents(relative);
    if (!components || !existsBelow(root, *components))
        return components ? Read::Missing : Read::Refused;
    Result<UniqueFd> dir = openDirectoryChain(root, components->mid(0, components->size() - 1));
    if (!dir)
        return Read::Refused;
    const UniqueFd file(::openat(dir.value().get(), QFile::encodeName(components->last()).constData(),
                                 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (file.get() < 0)
        return Read::Refused;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(file.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || contents->size() + n > kMaxProfileBytes)
            return Read::Refused;
        if (n == 0)
            return Read::Read;
        contents->append(buffer, n);
    }
}

/** The profiles @p kit asks for, as paths inside the sandbox: every explicit one, else its legacy one. */
QStringList profilesOf(const kit::Kit &kit, const runtime::SandboxSpec &spec)
{
    QStringList explicitProfiles;
    QString legacy;
    for (const kit::AgentContext &context : kit.agentContexts) {
        if (context.filename.isEmpty())
            continue;
        if (!context.directory.isEmpty()) {
            const QString path = context.directory + QLatin1Char('/') + context.filename;
            if (!explicitProfiles.contains(path))
                explicitProfiles << path;
        } else if (legacy.isEmpty()) {
            legacy = spec.sandboxHome + QLatin1Char('/') + context.filename;
        }
    }
    if (!explicitProfiles.isEmpty() || legacy.isEmpty())
        return explicitProfiles;
    return {legacy};
}

} // namespace

QString neutralisedContext(const QString &text)
{
    static const QRegularExpression marker(QStringLiteral("(paddock)(\\s*):(\\s*)(begin|end)"),
                                           QRegularExpression::CaseInsensitiveOption);
    QString out = text;
    return out.replace(marker, QStringLiteral("\\1\\2-\\3\\4"));
}

QString contextSection(const kit::Kit &kit, const QList<ContextBody> &bodies)
{
    QStringList lines{QLatin1String(kContextBegin),
                      QStringLiteral("## This sandbox"),
                      QString(),
                      QStringLiteral("- You run in a Paddock sandbox. Every network connection goes through Paddock's "
                                     "proxy, which lets through only the hosts this sandbox's rules allow."),
                      QStringLiteral("- A refused host is not an outage: say which host you need and why. The person "
                                     "can allow it in Paddock's window (its Network page, or the sandbox's row), "
                                     "and then retry."),
                      QStringLiteral("- Keys for the services the kit names are added by the proxy: the variables "
                                     "that hold `proxy-managed` are placeholders, not keys to print or replace.")};
    if (!bodies.isEmpty()) {
        lines << QString() << QStringLiteral("## Kits") << QString()
              << QStringLiteral("Instructions each kit gives; read them when their tools matter:") << QString();
        for (const ContextBody &body : bodies) {
            const QString name = body.kitName.isEmpty() ? kit.name : body.kitName;
            const QString shown = body.kitName.isEmpty() ? kit.displayName : body.kitDisplayName;
            const QString label = shown.isEmpty() ? name : shown + QStringLiteral(" (") + name + QLatin1Char(')');
            lines << QStringLiteral("- %1: `%2`").arg(oneLine(label), oneLine(body.path));
        }
    }
    lines << QLatin1String(kContextEnd);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString mergeContextSection(const QString &existing, const QString &section)
{
    const QString begin = QLatin1String(kContextBegin);
    const QString end = QLatin1String(kContextEnd);
    const qsizetype from = existing.indexOf(begin);
    const qsizetype to = from < 0 ? -1 : existing.indexOf(end, from);
    if (from >= 0 && to >= 0) {
        qsizetype after = to + end.size();
        if (after < existing.size() && existing.at(after) == QLatin1Char('\n'))
            ++after;
        return existing.left(from) + section + existing.mid(after);
    }
    if (existing.isEmpty())
        return section;
    return section + QLatin1Char('\n') + existing;
}

Result<void> writeAgentContext(const kit::Kit &kit, const runtime::SandboxSpec &spec, const QString &homeDir,
                               QStringList *notes)
{
    const QStringList profiles = profilesOf(kit, spec);
    if (profiles.isEmpty()) {
        if (!kit.agentContexts.isEmpty())
            notes->append(QStringLiteral("kit %1: agent-context@1 names no profile file (filename), so its "
                                         "instructions are not written anywhere the agent reads")
                              .arg(kit.name));
        return {};
    }
    for (const QString &profile : profiles) {
        const std::optional<QPair<QString, QString>> target = onHost(profile, spec, homeDir);
        if (!target) {
            notes->append(QStringLiteral("the agent's profile %1 was not written: Paddock writes it only under the "
                                         "sandbox's home (%2) or its workspace")
                              .arg(profile, spec.sandboxHome));
            continue;
        }
        const QString folderInside = QFileInfo(profile).path();
        const QString folderOnHost = QFileInfo(target->second).path();
        QList<ContextBody> bodies;
        QMap<QString, int> inlineBodies; // by kit: each kit of a composition may bring bodies, one file each
        for (const kit::AgentContext &context : kit.agentContexts) {
            const QString owner = context.kitName.isEmpty() ? kit.name : context.kitName;
            if (!context.contentFile.isEmpty()) {
                // Staged in the image: pointed at, not copied.
                bodies << ContextBody{context.contentFile, context.kitName, context.kitDisplayName};
            } else if (!context.content.isEmpty()) {
                const int count = ++inlineBodies[owner];
                const QString suffix = count == 1 ? QString() : QStringLiteral("-%1").arg(count);
                const QString relative = kBodiesFolder + QLatin1Char('/') + owner + suffix + QStringLiteral(".md");
                const QString onHostPath =
                    folderOnHost == QLatin1String(".") ? relative : folderOnHost + QLatin1Char('/') + relative;
                if (const Result<void> written =
                        writeBelow(target->first, onHostPath, neutralisedContext(context.content).toUtf8(), 0644);
                    !written)
                    return written;
                bodies << ContextBody{folderInside + QLatin1Char('/') + relative, context.kitName,
                                      context.kitDisplayName};
            }
        }
        QByteArray existing;
        const Read read = readBelow(target->first, target->second, &existing);
        if (read == Read::Refused) {
            notes->append(QStringLiteral("the agent's profile %1 was left as it is: it is not a plain file of at "
                                         "most 1 MiB")
                              .arg(profile));
            continue;
        }
        const QString merged = mergeContextSection(QString::fromUtf8(existing), contextSection(kit, bodies));
        if (const Result<void> written = writeBelow(target->first, target->second, merged.toUtf8(), 0644); !written)
            return written;
    }
    return {};
}

} // namespace paddock::sandbox
