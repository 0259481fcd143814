// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/Preset.h"
#include "policy/Rule.h"

#include <QHostAddress>
#include <QList>
#include <QMap>
#include <QString>

namespace paddock::policy {

/**
 * @brief What the user configured, as policy.yaml holds it: the preset, the rules of every
 * scope, and the resolver overrides.
 */
struct PolicyData
{
    Preset preset = Preset::DenyAll;
    QList<Rule> rules;
    /**
     * Normalised host name -> the address to use instead of DNS. Trusted: the user wrote
     * it, so an override to a loopback or private address is not a rebinding attack.
     */
    QMap<QString, QHostAddress> resolveOverrides;

    friend bool operator==(const PolicyData &a, const PolicyData &b)
    {
        if (a.preset != b.preset || a.resolveOverrides != b.resolveOverrides || a.rules.size() != b.rules.size())
            return false;
        for (qsizetype i = 0; i < a.rules.size(); ++i) {
            const Rule &x = a.rules[i];
            const Rule &y = b.rules[i];
            if (x.id != y.id || !(x.scope == y.scope) || x.verdict != y.verdict || !(x.pattern == y.pattern) ||
                x.origin != y.origin || x.created != y.created)
                return false;
        }
        return true;
    }
};

} // namespace paddock::policy
