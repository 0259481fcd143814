// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/HostGrantApprovals.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "common/YamlDecode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRegularExpression>

#include <algorithm>

Q_LOGGING_CATEGORY(lcApprovals, "paddock.policy.grants")

namespace paddock::policy {
namespace {

const char kHeader[] = "# Host grants you approved: patterns of a kit's permissions.network.allow that reach this\n"
                       "# computer or its networks (loopback, private ranges, cloud metadata, its own addresses).\n"
                       "# `paddock grant ls` lists them, `paddock grant revoke KIT` withdraws them.\n";

using yaml::DecodeError;

/** A kit's name, or a composition's: its kits' names joined by '+'. */
bool isKitName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"));
    const QStringList parts = name.split(QLatin1Char('+'));
    return std::all_of(parts.cbegin(), parts.cend(),
                       [](const QString &part) { return pattern.match(part).hasMatch(); });
}

/** The canonical text of @p text as an allow pattern, or why it is not one. */
Result<QString> canonical(const QString &text)
{
    const Result<HostPattern> parsed = HostPattern::parse(text.trimmed(), PatternContext::Allow);
    if (!parsed)
        return fail(QStringLiteral("\"%1\" is not a pattern: %2").arg(text, parsed.error().message));
    return parsed->toString();
}

QStringList decodePatterns(const YAML::Node &kitNode)
{
    if (!kitNode.IsMap())
        throw DecodeError{kitNode.Mark(), QStringLiteral("expected a mapping with 'allow'")};
    QStringList patterns;
    for (const auto &entry : kitNode) {
        if (!entry.first.IsScalar() || entry.first.Scalar() != "allow")
            throw DecodeError{entry.first.Mark(), QStringLiteral("unknown field; expected 'allow'")};
        const YAML::Node list = entry.second;
        if (list.IsNull())
            continue;
        if (!list.IsSequence())
            throw DecodeError{list.Mark(), QStringLiteral("'allow' must be a list of patterns")};
        for (const YAML::Node &item : list) {
            if (!item.IsScalar())
                throw DecodeError{item.Mark(), QStringLiteral("expected a pattern")};
            const Result<QString> pattern = canonical(QString::fromStdString(item.Scalar()));
            if (!pattern)
                throw DecodeError{item.Mark(), pattern.error().text()};
            if (!patterns.contains(*pattern))
                patterns.append(*pattern);
        }
    }
    return patterns;
}

ApprovedGrants decode(const YAML::Node &root)
{
    ApprovedGrants approved;
    if (!root || root.IsNull())
        return approved;
    if (!root.IsMap())
        throw DecodeError{root.Mark(), QStringLiteral("expected a mapping with 'grants'")};
    for (const auto &entry : root) {
        if (!entry.first.IsScalar() || entry.first.Scalar() != "grants")
            throw DecodeError{entry.first.Mark(), QStringLiteral("unknown field; expected 'grants'")};
    }
    const YAML::Node map = root["grants"];
    if (!map || map.IsNull())
        return approved;
    if (!map.IsMap())
        throw DecodeError{map.Mark(), QStringLiteral("'grants' must map kit names to their approved patterns")};
    for (const auto &entry : map) {
        const QString kit = entry.first.IsScalar() ? QString::fromStdString(entry.first.Scalar()) : QString();
        if (!isKitName(kit))
            throw DecodeError{entry.first.Mark(), QStringLiteral("\"%1\" is not a kit name").arg(kit)};
        const QStringList patterns = decodePatterns(entry.second);
        if (!patterns.isEmpty())
            approved.insert(kit, patterns);
    }
    return approved;
}

} // namespace

HostGrantApprovals::HostGrantApprovals() : HostGrantApprovals(defaultPath()) {}

HostGrantApprovals::HostGrantApprovals(const QString &path) : m_path(path) {}

QString HostGrantApprovals::defaultPath()
{
    return paths::configDir() + QStringLiteral("/host-grants.yaml");
}

std::variant<ApprovedGrants, PolicyError> HostGrantApprovals::parse(const QByteArray &text, const QString &file)
{
    return yaml::decodeText(text, file, decode);
}

QByteArray HostGrantApprovals::serialise(const ApprovedGrants &approved)
{
    // Canonical patterns hold no quote or backslash, so double quotes are enough.
    QByteArray text(kHeader);
    text += approved.isEmpty() ? "grants: {}\n" : "grants:\n";
    for (auto it = approved.cbegin(); it != approved.cend(); ++it) {
        text += "  " + it.key().toUtf8() + ":\n    allow:\n";
        for (const QString &pattern : it.value())
            text += "      - \"" + pattern.toUtf8() + "\"\n";
    }
    return text;
}

std::optional<PolicyError> HostGrantApprovals::load()
{
    return loadFile(m_path, &m_approved, &HostGrantApprovals::parse, lcApprovals());
}

bool HostGrantApprovals::isApproved(const QString &kit, const HostGrant &grant) const
{
    return m_approved.value(kit).contains(grant.pattern);
}

QList<HostGrant> HostGrantApprovals::pending(const QString &kit, const QList<HostGrant> &grants) const
{
    QList<HostGrant> result;
    for (const HostGrant &grant : grants) {
        if (!isApproved(kit, grant))
            result.append(grant);
    }
    return result;
}

Result<void> HostGrantApprovals::approve(const QString &kit, const QStringList &patterns)
{
    return change([&](ApprovedGrants &approved) -> Result<void> {
        QStringList &list = approved[kit];
        for (const QString &text : patterns) {
            const Result<QString> pattern = canonical(text);
            if (!pattern)
                return pattern.error();
            if (!list.contains(*pattern))
                list.append(*pattern);
        }
        if (list.isEmpty())
            approved.remove(kit);
        return {};
    });
}

Result<int> HostGrantApprovals::revoke(const QString &kit, const QStringList &patterns)
{
    int count = 0;
    const Result<void> changed = change([&](ApprovedGrants &approved) -> Result<void> {
        QStringList &list = approved[kit];
        if (patterns.isEmpty()) {
            count = int(list.size());
            list.clear();
        }
        for (const QString &text : patterns) {
            const Result<QString> pattern = canonical(text);
            if (!pattern)
                return pattern.error();
            count += int(list.removeAll(*pattern));
        }
        if (list.isEmpty())
            approved.remove(kit);
        return {};
    });
    if (!changed)
        return changed.error();
    return count;
}

Result<void> HostGrantApprovals::change(const std::function<Result<void>(ApprovedGrants &)> &edit)
{
    // Read what is on disk now, so a hand edit made since load() is kept.
    if (const std::optional<PolicyError> problem = load())
        return fail(QStringLiteral("%1 cannot be used (%2)").arg(QFileInfo(m_path).fileName(), problem->toString()),
                    QStringLiteral("fix it first"));
    ApprovedGrants next = m_approved;
    if (const Result<void> edited = edit(next); !edited)
        return edited;
    for (auto it = next.cbegin(); it != next.cend(); ++it) {
        if (!isKitName(it.key()))
            return fail(QStringLiteral("\"%1\" is not a kit name").arg(it.key()));
    }
    if (next == m_approved)
        return {};
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return fail(QStringLiteral("cannot create the directory of %1").arg(m_path));
    QString why;
    if (!writeFileAtomically(m_path, serialise(next), &why, 0600))
        return fail(why);
    m_approved = next;
    qCInfo(lcApprovals) << "host grants now approved for" << m_approved.keys();
    return {};
}

} // namespace paddock::policy
