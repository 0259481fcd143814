// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/Kit.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace paddock::kit {

/** @brief Where `paddock kit load` puts what it reads. */
struct KitArchiveOptions
{
    QString name;      ///< the kit's name in the library; empty: from the image reference or the file name
    QString kitsRoot;  ///< the library's kits folder; empty: KitLibrary::defaultImportedRoot()
    QString imageRoot; ///< the image store; empty: the default one
    /** Replace a loaded kit of the same name even when the new one is granted more (see widenings). */
    bool approveWidening = false;
    QString source; ///< where the archive came from, for origin.json; empty: its path
    /**
     * The descriptor as published, for an archive that carries none in an annotation: an image a
     * container engine built from an authored kit and saved (`paddock kit build`). The archive's
     * first image is then the kit's.
     */
    QByteArray descriptor;
    QString reference; ///< the kit's reference; empty: the image's first tag
    QString builtFrom; ///< the authored folder a built kit came from, kept in origin.json instead of an archive
};

/** @brief What loading a kit archive did. */
struct KitArchiveResult
{
    std::optional<Kit> kit;        ///< the kit as it now sits in the library
    QList<Diagnostic> diagnostics; ///< the descriptor's, or one error saying why nothing was loaded
    QStringList notes;             ///< what the image store left out (device nodes), for the user
    /**
     * What the new kit would be granted beyond the loaded kit of the same name, in plain words
     * (wideningsOf()). Unless KitArchiveOptions::approveWidening, such a load stops with an error
     * and nothing is written: the update needs the person's approval.
     */
    QStringList widenings;
    /** The required capability types Paddock does not implement, when that refused the kit. */
    QStringList refusedCapabilities;
    bool awaitsApproval = false; ///< stopped at the widenings, for the person's approval

    bool ok() const { return kit.has_value() && !hasErrors(diagnostics); }
    /**
     * Whether nothing was loaded because Paddock declined a kit it understood: a required
     * capability it does not implement, or an update granted more than the loaded kit without
     * approval. A malformed or hostile archive is a failure, not a refusal.
     */
    bool refused() const
    {
        if (ok())
            return false;
        const qsizetype errors =
            std::count_if(diagnostics.cbegin(), diagnostics.cend(), [](const Diagnostic &d) { return d.isError(); });
        return errors == refusedCapabilities.size() + (awaitsApproval ? 1 : 0);
    }
};

/** The manifest annotation carrying a v3 kit's descriptor. */
inline constexpr char kKitDescriptorAnnotation[] = "vnd.docker.sandbox.kit.descriptor";

/**
 * Loads the schemaVersion "3" kit of the image archive @p path (an OCI layout tar, or a
 * `docker save` tar, which holds one): the image whose manifest (or the index leading to it)
 * carries the descriptor annotation; index entries for another platform are passed over. The
 * descriptor is decoded strictly and mapped onto what Paddock has (kitFromV3()); a required
 * capability Paddock does not implement refuses the kit and nothing is stored. The kit's layers
 * go into the image store (hostile entries refused there): a workload's are the root it runs on
 * under bubblewrap without a Docker engine, a mixin's the overlay a composition stacks on it; the kit is written to the library's kits folder as
 * NAME/kit.json (the descriptor as published) and NAME/origin.json (its reference, manifest
 * digest and image). Loading a kit of the same name again replaces it, but an update granted more
 * than the loaded kit (a new domain, a deny removed, a key, a port, a volume, privilege, the git
 * identity) stops for approval first.
 */
KitArchiveResult loadKitArchive(const QString &path, const KitArchiveOptions &options = {});

/**
 * Writes the declaration-only mixin @p descriptor (published form, built from the authored folder
 * @p builtFrom) to the library as loadKitArchive() writes a kit: no image, no layers of its own.
 * Named by KitArchiveOptions::name, which must be set.
 */
KitArchiveResult storeDeclaredKit(const QByteArray &descriptor, const QString &builtFrom,
                                  const KitArchiveOptions &options);

/** The file `kit load` read the kit in @p kitDirectory from (its origin.json); empty for a pulled kit. */
QString loadedArchiveOf(const QString &kitDirectory);
/** The authored folder `kit build` built the kit in @p kitDirectory from (its origin.json); empty otherwise. */
QString builtFolderOf(const QString &kitDirectory);
/**
 * The reference the kit in @p kitDirectory was loaded, pulled or built as, when its image in the
 * store is still @p image (the kit was not loaded again since); empty otherwise.
 */
QString referenceOf(const QString &kitDirectory, const QString &image);

} // namespace paddock::kit
