// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace paddock::kit {

/**
 * @brief An authored schemaVersion "3" kit read for building (`paddock kit build`): the
 * descriptor as it will be published and the recipe its image is built from.
 *
 * The authoring forms of the specification (SPEC-v3 §3): `<stem>.yaml` beside
 * `<stem>.dockerfile`, a `dockerfile:` naming the recipe inside the descriptor's folder, or an
 * inline `build:` block. A mixin with none of them is declaration-only: no layers of its own.
 */
struct AuthoredKit
{
    QString folder;         ///< the descriptor's folder, absolute: the build context
    QString descriptorFile; ///< the authored `<stem>.yaml`, absolute
    QString stem;           ///< its file name without the extension
    QString kind;           ///< workload or mixin
    /**
     * The descriptor as published: compact JSON of the decoded document, the build-phase
     * arguments' references expanded, `dockerfile:` (a path in the author's tree) left out and
     * agent-context@1's `contentFile` rewritten to where the body is staged in the image.
     * An inline `build:` stays, as the specification's publishing keeps it.
     */
    QByteArray published;
    QString dockerfile;               ///< the recipe, relative to folder; empty for an inline or no recipe
    QByteArray recipe;                ///< the inline `build:` text; empty otherwise
    QMap<QString, QString> buildArgs; ///< each `buildArg:` name with its resolved value
    /**
     * agent-context@1 bodies (`contentFile`, relative to folder) and where the image holds them,
     * /usr/share/sandbox/kit/STEM/PATH: the published descriptor names the latter, so the build
     * copies each into the image after the recipe.
     */
    QMap<QString, QString> staged;

    bool hasRecipe() const { return !dockerfile.isEmpty() || !recipe.isEmpty(); }
};

struct AuthoredKitResult
{
    std::optional<AuthoredKit> kit; ///< set when there is no error
    QList<Diagnostic> diagnostics;  ///< the descriptor's, each with its file, line and column
};

/**
 * The authored descriptor @p path names: the file itself, or the one a folder holds (the
 * folder's own name as stem, else its only schemaVersion "3" descriptor); empty with @p error.
 */
QString authoredDescriptorFile(const QString &path, QString *error);

/**
 * Reads the authored kit at @p path: a `<stem>.yaml` descriptor, or a folder holding one (the
 * folder's own name as stem, else its only schemaVersion "3" descriptor). The descriptor is
 * decoded strictly (decodeV3Descriptor()); @p argValues are values for build-phase arguments
 * (those with `buildArg:`), checked against their enum or pattern; defaults fill the rest and a
 * required one without a value is an error. A `kind: set`, a named recipe that is missing and
 * a workload with no recipe are errors.
 */
AuthoredKitResult readAuthoredKit(const QString &path, const QMap<QString, QString> &argValues = {});

} // namespace paddock::kit
