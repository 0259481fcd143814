// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Kit.h"

#include <QStringList>

namespace paddock::kit {

/**
 * @brief What a kit is granted here, as a set: the domains it may reach and the ones denied, the
 * keys presented for it and where, its published ports, volumes, privilege and the person's git
 * identity. Each entry is one
 * sorted line in plain words, so two surfaces compare by set difference.
 */
struct KitSurface
{
    QStringList allow;        ///< "api.example.com"
    QStringList deny;         ///< "ads.example.com"
    QStringList installAllow; ///< what setup.install alone may reach (v3)
    QStringList installDeny;
    QStringList credentials; ///< "anthropic, presented to api.anthropic.com in x-api-key"
    QStringList ports;       ///< "8080/tcp"
    QStringList volumes;     ///< "/data"
    bool privileged = false;
    bool gitIdentity = false; ///< git inside gets the person's name and email (git-identity@1)
    /**
     * What the sandbox's SSH agent may sign (ssh-agent@1), one entry per phase and thing:
     * "runtime any", "runtime sign git", "install login git@github.com".
     */
    QStringList sshAgent;
};

/** The surface of @p kit as it runs here (arguments substituted, capabilities as applied). */
KitSurface surfaceOf(const Kit &kit);

/**
 * What @p candidate grants that @p approved does not, one line each in plain words: a new allow
 * entry, a deny entry removed (it was part of what made the grant acceptable), a new key or a key
 * presented somewhere new, a new port or volume, privilege, the git identity. Empty when the candidate stays within.
 */
QStringList wideningsOf(const KitSurface &approved, const KitSurface &candidate);

} // namespace paddock::kit
