// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/Kit.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::kit {

/** @brief One `capabilities[]` request of a schemaVersion "3" descriptor (a group member or not). */
struct V3Capability
{
    QString type;          ///< "namespace/name@N"
    QString name;          ///< display label only
    bool optional = false; ///< the entry's own flag, or its group's
    QString description;
    QJsonObject config; ///< as written; strictly checked for the well-known types
    bool hasConfig = false;
    int group = -1; ///< index into V3Descriptor::groups, -1 for a top-level entry
    int line = 0;   ///< where the entry starts in the descriptor
    int column = 0;
};

/** @brief One `capabilities[].group`: requests selected together or not at all. */
struct V3Group
{
    QString name;
    QString description;
    bool optional = false;
};

/** @brief One `args:` declaration of a v3 descriptor. */
struct V3Arg
{
    ArgDeclaration declaration;
    QString env;      ///< exported to the container under this name
    QString buildArg; ///< resolved at build (already expanded in a published descriptor)
};

/** @brief One `kits:` entry of a set. */
struct V3KitReference
{
    QString ref;
    QString digest;
    QMap<QString, QString> args;
};

/**
 * @brief A decoded `schemaVersion: "3"` descriptor (Docker Sandboxes' OCI kits), checked against
 * the rules of the specification: strict fields, provides/requires grammar, argument rules,
 * capability type grammar and arity, and the configurations of the well-known types.
 */
struct V3Descriptor
{
    QString kind; ///< "workload", "mixin" or "set"
    QString displayName;
    QString author;
    QString description;
    QString sourceUrl;
    QString iconUrl;
    QString version;
    QStringList licenses;
    QStringList provides;
    QStringList requirements; ///< `requires`
    QStringList integrates;
    QStringList conflicts;
    QList<V3Arg> args;
    QList<V3Capability> capabilities; ///< group members flattened, in declaration order
    QList<V3Group> groups;
    QString build;
    QString dockerfile;
    QList<V3KitReference> kits;
};

struct V3DecodeResult
{
    std::optional<V3Descriptor> descriptor; ///< set when there is no error
    QList<Diagnostic> diagnostics;
};

/** A descriptor above this size is refused (the budget of the specification). */
constexpr qsizetype kV3DescriptorMaxBytes = 512 * 1024;
/** Above this size a descriptor is accepted with a warning. */
constexpr qsizetype kV3DescriptorWarnBytes = 64 * 1024;

/**
 * Decodes @p text (YAML as authored, or the compact JSON of the manifest annotation) strictly:
 * an unknown field anywhere is an error at its line and column, and every problem is reported.
 * @p fileName is used in messages.
 */
V3DecodeResult decodeV3Descriptor(const QByteArray &text, const QString &fileName);

/** Whether @p text declares `schemaVersion: "3"` (looked up without decoding the rest). */
bool declaresSchemaV3(const QByteArray &text);

/**
 * A network-policy@1 entry in Paddock's pattern language: the specification's bare host means
 * any port ("the host, any port unless one is stated"), where Paddock's means 443.
 */
QString v3NetworkPattern(const QString &entry);

/**
 * Why @p entry is no network-policy@1 pattern (a host, host:port, *.domain, or * and ** for
 * everything), in words that follow the entry's place; nullopt when it is one. The decoder
 * applies this to every allow and deny entry; an entry opening an argument reference
 * (`${{ kit.args.x }}`) is left to the kit's use, once substituted.
 */
std::optional<QString> v3NetworkEntryProblem(const QString &entry);

/** The capability types Paddock carries out, each with what it becomes here. */
QMap<QString, QString> implementedV3Capabilities();

} // namespace paddock::kit
