// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/Kit.h"

#include <QByteArray>
#include <QMap>
#include <QString>

#include <optional>

namespace paddock::kit {

/** @brief How a kit is to be read: argument values and how strict to be about them. */
struct KitLoadOptions
{
    /// Values for `${{ kit.args.NAME }}` supplied by the user (`--arg NAME=VALUE`).
    QMap<QString, QString> args;

    /**
     * Whether every required argument must have a value in `args`.
     *
     * false (the default, for `kit validate` and for an editor re-checking a file it is
     * about to save): a required argument without a value stays unresolved; the fields
     * that reference it are checked for their shape only, so a kit that is valid for
     * some value of its arguments validates.
     *
     * true (for `kit show` and for starting a sandbox, which need the real values): a
     * required argument without a value is an error that names it and says to pass
     * `--arg NAME=VALUE`.
     *
     * Values given in `args` are checked against their `enum`/`pattern` either way.
     */
    bool requireArgValues = false;
};

struct KitLoadResult
{
    std::optional<Kit> kit;        ///< set when there is no error
    QList<Diagnostic> diagnostics; ///< every error and warning, in file order
    /**
     * The required capability types Paddock does not implement (v3), each also an error: the
     * kit was understood and is refused, which `kit load` tells apart from a malformed kit.
     */
    QStringList refusedCapabilities;
    bool ok() const { return kit.has_value() && !hasErrors(diagnostics); }
};

/**
 * @brief Reads a kit strictly, as `sbx` understands `schemaVersion: "2"`.
 *
 * Every field of the v2 grammar is decoded from yaml-cpp nodes; an unknown field
 * anywhere is an error, and a key of v1 or of an earlier v2 draft (`caps`, `commands`,
 * `agentContext`, `entrypoint.run`, ...) is an error that names its v2 replacement.
 * All problems are reported at once, each with file, line and column.
 *
 * `schemaVersion: "1"` (quoted or not) is refused rather than folded onto v2: its
 * legacy blocks carry semantics (host-environment credential discovery, service
 * routing tables) that Paddock's binding-based credentials do not reproduce, and the
 * v1 path is being removed from `sbx` itself. Such a kit gets a first error saying
 * v1 kits are not supported and how to migrate (the v1 → v2 mapping published with
 * the specification, then `schemaVersion: "2"`), followed by one error per legacy
 * block naming its v2 replacement.
 */
class KitLoader
{
public:
    /** A kit folder holds spec.yaml (schemaVersion "2"), or kit.json and origin.json (a loaded OCI kit). */
    static bool isKitDirectory(const QString &dir);
    /**
     * Loads DIR/spec.yaml and checks the DIR/files tree; or, for a kit `paddock kit load` wrote,
     * DIR/kit.json (the schemaVersion "3" descriptor) with DIR/origin.json (its name, reference,
     * manifest digest and image).
     */
    static KitLoadResult loadDirectory(const QString &dir, const KitLoadOptions &options = {});
    /**
     * Decodes and validates a spec.yaml held in memory; @p fileName is used in messages. A
     * schemaVersion "3" descriptor is read as such, named after @p fileName.
     */
    static KitLoadResult loadText(const QByteArray &text, const QString &fileName, const KitLoadOptions &options = {});
};

} // namespace paddock::kit
