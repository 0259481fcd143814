// SPDX-License-Identifier: GPL-3.0-or-later
// schemaVersion "1": refused, with the way to migrate and each legacy block's v2 replacement.
#include "kit/KitDecoder.h"

#include "kit/LegacyKeys.h"

#include <algorithm>
#include <tuple>

namespace paddock::kit::detail {

namespace {

Diagnostic diagnosticAt(const QString &file, Loc loc, const QString &message)
{
    Diagnostic d;
    d.file = file;
    d.line = loc.line;
    d.column = loc.column;
    d.message = message;
    return d;
}

/** @brief The legacy blocks of one v1 file, each with its v2 replacement. */
class V1Blocks
{
public:
    explicit V1Blocks(const QString &file) : m_file(file) {}

    void readTopLevel(const YAML::Node &key, const YAML::Node &value);
    QList<Diagnostic> inFileOrder();

private:
    void legacy(const YAML::Node &key, const QString &path);
    void readChildren(const QString &name, const YAML::Node &value);

    QString m_file;
    QList<Diagnostic> m_blocks;
};

void V1Blocks::legacy(const YAML::Node &key, const QString &path)
{
    const auto replacement = legacyKeyReplacement(path);
    if (!replacement)
        return;
    m_blocks.append(diagnosticAt(
        m_file, locOf(key.Mark()),
        replacement->startsWith(QLatin1String("nothing: "))
            ? QStringLiteral("v1 block `%1` has no schemaVersion \"2\" equivalent: %2").arg(path, replacement->mid(9))
            : QStringLiteral("v1 block `%1` → in schemaVersion \"2\" use %2").arg(path, *replacement)));
}

void V1Blocks::readTopLevel(const YAML::Node &key, const YAML::Node &value)
{
    const QString name = QString::fromStdString(key.Scalar());
    if (name == QLatin1String("kind") && value.IsScalar() && value.Scalar() == "agent")
        m_blocks.append(diagnosticAt(m_file, locOf(value.Mark()),
                                     QStringLiteral("v1 `kind: agent` → in schemaVersion \"2\" use `kind: sandbox`")));
    else if (name == QLatin1String("publishedPorts"))
        m_blocks.append(diagnosticAt(m_file, locOf(key.Mark()),
                                     QStringLiteral("v1 block `publishedPorts` → in schemaVersion \"2\" use `ports`")));
    legacy(key, name);
    if (!value.IsMap())
        return;
    if (name == QLatin1String("credentials")) {
        legacy(key, QStringLiteral("credentials.sources"));
        return;
    }
    readChildren(name, value);
}

void V1Blocks::readChildren(const QString &name, const YAML::Node &value)
{
    for (auto child = value.begin(); child != value.end(); ++child) {
        if (!child->first.IsScalar())
            continue;
        const QString childName = QString::fromStdString(child->first.Scalar());
        if (name == QLatin1String("environment") || name == QLatin1String("sandbox"))
            legacy(child->first, name + QLatin1Char('.') + childName);
        if (name == QLatin1String("sandbox") && childName == QLatin1String("entrypoint") && child->second.IsMap()) {
            for (auto e = child->second.begin(); e != child->second.end(); ++e) {
                if (e->first.IsScalar())
                    legacy(e->first, QStringLiteral("sandbox.entrypoint.") + QString::fromStdString(e->first.Scalar()));
            }
        }
    }
}

QList<Diagnostic> V1Blocks::inFileOrder()
{
    std::stable_sort(m_blocks.begin(), m_blocks.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    return m_blocks;
}

} // namespace

void refuseV1(const YAML::Node &root, const YAML::Node &versionValue, const QString &file, QList<Diagnostic> &out)
{
    out.append(diagnosticAt(
        file, locOf(versionValue.Mark()),
        QStringLiteral("schemaVersion \"1\" kits are not supported: Paddock reads schemaVersion \"2\" only. Migrate "
                       "the kit with the v1 to v2 mapping published with the kit specification "
                       "(docker/sbx-kits-contrib, skills/kit-author/topics/v1-migration.md), then set "
                       "schemaVersion: \"2\"; each v1 block and its replacement follows")));
    V1Blocks blocks(file);
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it->first.IsScalar())
            blocks.readTopLevel(it->first, it->second);
    }
    out.append(blocks.inFileOrder());
}

} // namespace paddock::kit::detail
