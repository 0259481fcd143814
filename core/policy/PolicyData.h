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
 * @brief Ask mode's settings (policy.yaml's `ask:`): which sandboxes ask, how long a held
 * connection waits for an answer, and what no answer means.
 */
struct AskSettings
{
    static constexpr int kDefaultTimeoutSeconds = 30;
    static constexpr int kMaxTimeoutSeconds = 3600;

    bool everySandbox = false; ///< `all: true`: every sandbox asks, not only those switched on one by one
    int timeoutSeconds = kDefaultTimeoutSeconds;
    bool allowUnanswered = false; ///< `unanswered: allow`; the default refuses (403)

    bool isDefault() const { return *this == AskSettings{}; }
    friend bool operator==(const AskSettings &a, const AskSettings &b) = default;
};

/**
 * @brief What the user configured, as policy.yaml holds it: the preset, the rules of every
 * scope, the resolver overrides and ask mode's settings.
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
    AskSettings ask;

    friend bool operator==(const PolicyData &a, const PolicyData &b)
    {
        if (a.preset != b.preset || a.resolveOverrides != b.resolveOverrides || a.rules.size() != b.rules.size() ||
            !(a.ask == b.ask))
            return false;
        for (qsizetype i = 0; i < a.rules.size(); ++i) {
            const Rule &x = a.rules[i];
            const Rule &y = b.rules[i];
            if (x.id != y.id || !(x.scope == y.scope) || x.verdict != y.verdict || !(x.pattern == y.pattern) ||
                x.program != y.program || x.origin != y.origin || x.created != y.created || !(x.request == y.request))
                return false;
        }
        return true;
    }
};

} // namespace paddock::policy
