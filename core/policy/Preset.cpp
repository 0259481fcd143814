// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/Preset.h"

#include <QFile>
#include <QLoggingCategory>

#include <yaml-cpp/yaml.h>

#include <array>

Q_LOGGING_CATEGORY(lcPreset, "paddock.policy.preset")

namespace paddock::policy {
namespace {

struct PresetData
{
    QString description;
    QList<Rule> rules;
};

void appendRules(const YAML::Node &list, Verdict verdict, const QString &file, PresetData *data)
{
    if (!list)
        return;
    for (const YAML::Node &item : list) {
        const QString text = QString::fromStdString(item.as<std::string>());
        const Result<HostPattern> parsed = HostPattern::parse(text, PatternContext::Preset);
        if (!parsed) {
            // The presets ship inside the library and a unit test parses them; this only
            // guards against a broken build.
            qCWarning(lcPreset) << file << "line" << item.Mark().line + 1 << ":" << parsed.error().message;
            continue;
        }
        Rule rule;
        rule.scope = Scope::global();
        rule.verdict = verdict;
        rule.pattern = parsed.value();
        rule.origin = Origin::Preset;
        rule.id = ruleIdFor(rule.scope, verdict, rule.pattern);
        data->rules.append(rule);
    }
}

PresetData loadPreset(Preset preset)
{
    PresetData data;
    const QString file = QStringLiteral(":/paddock/policy/%1.yaml").arg(presetName(preset));
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        qCWarning(lcPreset) << "the preset file" << file << "is missing from the build";
        return data;
    }
    try {
        const YAML::Node root = YAML::Load(in.readAll().toStdString());
        if (const YAML::Node description = root["description"])
            data.description = QString::fromStdString(description.as<std::string>());
        appendRules(root["allow"], Verdict::Allow, file, &data);
        appendRules(root["deny"], Verdict::Deny, file, &data);
    } catch (const YAML::Exception &error) {
        qCWarning(lcPreset) << file << "cannot be read:" << error.what();
    }
    return data;
}

const PresetData &presetData(Preset preset)
{
    // Function-local static: loaded once, thread-safe, never modified afterwards.
    static const std::array<PresetData, 3> all{loadPreset(Preset::DenyAll), loadPreset(Preset::Balanced),
                                               loadPreset(Preset::AllowAll)};
    return all[std::size_t(preset)];
}

} // namespace

QString presetName(Preset preset)
{
    switch (preset) {
    case Preset::DenyAll:
        return QStringLiteral("deny-all");
    case Preset::Balanced:
        return QStringLiteral("balanced");
    case Preset::AllowAll:
        return QStringLiteral("allow-all");
    }
    return {};
}

std::optional<Preset> presetFromName(QStringView name)
{
    for (const Preset preset : allPresets()) {
        if (name == presetName(preset))
            return preset;
    }
    return std::nullopt;
}

QList<Preset> allPresets()
{
    return {Preset::DenyAll, Preset::Balanced, Preset::AllowAll};
}

QString presetDescription(Preset preset)
{
    return presetData(preset).description;
}

const QList<Rule> &presetRules(Preset preset)
{
    return presetData(preset).rules;
}

} // namespace paddock::policy
