// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/Kit.h"

#include <QByteArray>
#include <QMap>
#include <QString>

#include <optional>

namespace paddock::kit {

struct KitLoadOptions
{
    /// Values for `${{ kit.args.NAME }}` supplied by the user (`--arg NAME=VALUE`).
    QMap<QString, QString> args;
};

struct KitLoadResult
{
    std::optional<Kit> kit;          ///< set when there is no error
    QList<Diagnostic> diagnostics;   ///< every error and warning, in file order
    bool ok() const { return kit.has_value() && !hasErrors(diagnostics); }
};

/** @brief Reads a kit strictly, as `sbx` understands `schemaVersion: "2"`. */
class KitLoader
{
public:
    /** Loads DIR/spec.yaml and checks the DIR/files tree. */
    static KitLoadResult loadDirectory(const QString &dir, const KitLoadOptions &options = {});
    /** Decodes and validates a spec.yaml held in memory; @p fileName is used in messages. */
    static KitLoadResult loadText(const QByteArray &text, const QString &fileName,
                                  const KitLoadOptions &options = {});
};

} // namespace paddock::kit
