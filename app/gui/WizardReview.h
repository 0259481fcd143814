// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QVariantMap>

namespace paddock::kit {
struct Kit;
}

namespace paddock::gui {

/** @brief What the creation wizard's review shows of a usable kit (or a composition's merged kit). */
struct KitReview
{
    /** {name, displayName, description, version, image, domains, deniedDomains, credentials, ports,
     *  installCommands, program, parts}: `parts` names the kits a composition was made of. */
    QVariantMap review;
    QStringList hostWarnings;       ///< what the kit asks of this computer, in sentences
    QVariantList hostGrants;        ///< [{pattern, reaches, approved}]
    bool hostGrantsPending = false; ///< a grant not yet approved for the kit (host-grants.yaml)
};

/** The review of @p kit; @p parts lists the kits it was composed of (empty: the kit alone). */
KitReview reviewOfKit(const kit::Kit &kit, const QStringList &parts = {});

/**
 * A sentence for the review when the program the kit starts (review's `program`) is not on this
 * computer, whose system is the sandbox's root; empty when it is there.
 */
QString missingProgramNote(const QVariantMap &review);

} // namespace paddock::gui
