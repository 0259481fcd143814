// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/Preset.h"
#include "policy/Rule.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::bundle {

/** @brief A secret the kit needs: what a student must provide, never its value. */
struct BundleSecret
{
    QString service;     ///< the name `paddock secret set` takes
    QString description; ///< from the kit's credential
    QString variable;    ///< the variable that holds the sentinel inside; may be empty
    bool required = false;
    QStringList domains; ///< where the proxy injects it

    friend bool operator==(const BundleSecret &, const BundleSecret &) = default;
};

/** @brief One network rule a bundle adds to the importer's policy. */
struct BundleRule
{
    policy::Verdict verdict = policy::Verdict::Allow;
    QString pattern;
    policy::Scope scope; ///< global, or kit:NAME for the bundle's own kit

    friend bool operator==(const BundleRule &, const BundleRule &) = default;
};

/** @brief The policy a teacher ships: a preset and rules on top of it. */
struct BundlePolicy
{
    policy::Preset preset = policy::Preset::DenyAll;
    QList<BundleRule> rules;

    friend bool operator==(const BundlePolicy &, const BundlePolicy &) = default;
};

/**
 * @brief `manifest.json`, the first member of a `.paddock` bundle.
 *
 * ```json
 * {"format": "paddock-bundle", "formatVersion": 1, "createdBy": "paddock 0.1.0",
 *  "kit": {"name": "pi", "path": "kit"},
 *  "policy": {"preset": "deny-all", "rules": [{"verdict": "allow", "pattern": "github.com", "scope": "global"}]},
 *  "secrets": [{"service": "ilaas", "description": "...", "variable": "ILAAS_API_KEY",
 *               "required": true, "domains": ["llm.ilaas.fr"]}],
 *  "engine": "lab", "notes": "text for students"}
 * ```
 * `policy` is absent when the bundle carries none; `engine` when its sandboxes run where each
 * student chooses. Readers refuse a newer formatVersion.
 */
struct BundleManifest
{
    static constexpr int kFormatVersion = 1;
    static constexpr qsizetype kMaxSize = 1024 * 1024;
    static QString fileName() { return QStringLiteral("manifest.json"); }
    /** The folder holding the kit inside the archive. */
    static QString kitFolder() { return QStringLiteral("kit"); }

    int formatVersion = kFormatVersion;
    QString createdBy;
    QString kitName;
    std::optional<BundlePolicy> policy;
    QList<BundleSecret> secrets;
    QString notes;
    /**
     * The container engine its sandboxes run on, by the name `paddock engine ls` shows (a lab
     * server the teacher named); empty: none. Only a name: the engine's address and TLS files
     * are each student's, added on their own computer.
     */
    QString engine;

    QJsonObject toJson() const;
    /** Whether @p name can name an engine (as sandbox::validEngineName says). */
    static bool validEngineName(const QString &name);
    /** Reads the manifest strictly; nullopt with @p error saying what is wrong. */
    static std::optional<BundleManifest> fromJson(const QByteArray &text, QString *error);
};

} // namespace paddock::bundle
