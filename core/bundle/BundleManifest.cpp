// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/BundleManifest.h"

#include "kit/KitRules.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

namespace paddock::bundle {

namespace {

constexpr int kMaxRules = 1000;
constexpr int kMaxSecrets = 100;
constexpr qsizetype kMaxNotes = 64 * 1024;

/** Strict reading: every key known, every value of its type. */
class Reader
{
public:
    explicit Reader(QString *error) : m_error(error) {}

    bool fail(const QString &message)
    {
        if (m_error->isEmpty())
            *m_error = QStringLiteral("manifest.json: ") + message;
        return false;
    }

    bool onlyKeys(const QJsonObject &object, const QString &where, const QSet<QString> &known)
    {
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!known.contains(it.key()))
                return fail(QStringLiteral("unknown field '%1' in %2").arg(it.key().left(64), where));
        }
        return true;
    }

    std::optional<QString> string(const QJsonObject &object, const QString &key, bool required,
                                  qsizetype maxLength = 1024)
    {
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) {
            if (required)
                fail(QStringLiteral("'%1' is missing").arg(key));
            return required ? std::nullopt : std::optional<QString>(QString());
        }
        if (!value.isString()) {
            fail(QStringLiteral("'%1' must be a string").arg(key));
            return std::nullopt;
        }
        if (value.toString().size() > maxLength) {
            fail(QStringLiteral("'%1' is longer than %2 characters").arg(key).arg(maxLength));
            return std::nullopt;
        }
        return value.toString();
    }

private:
    QString *m_error;
};

QJsonObject ruleJson(const BundleRule &rule)
{
    return {{QStringLiteral("verdict"), policy::verdictName(rule.verdict)},
            {QStringLiteral("pattern"), rule.pattern},
            {QStringLiteral("scope"), rule.scope.toString()}};
}

std::optional<QJsonObject> readRoot(Reader &read, const QByteArray &text)
{
    if (text.size() > BundleManifest::kMaxSize) {
        read.fail(QStringLiteral("larger than %1 bytes").arg(BundleManifest::kMaxSize));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        read.fail(parseError.error != QJsonParseError::NoError ? QStringLiteral("not valid JSON (%1 at offset %2)")
                                                                     .arg(parseError.errorString())
                                                                     .arg(parseError.offset)
                                                               : QStringLiteral("not a JSON object"));
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (!read.onlyKeys(root, QStringLiteral("the manifest"),
                       {QStringLiteral("format"), QStringLiteral("formatVersion"), QStringLiteral("createdBy"),
                        QStringLiteral("kit"), QStringLiteral("policy"), QStringLiteral("secrets"),
                        QStringLiteral("notes"), QStringLiteral("engine")}))
        return std::nullopt;
    if (root.value(QLatin1String("format")).toString() != QLatin1String("paddock-bundle")) {
        read.fail(QStringLiteral("'format' is not \"paddock-bundle\""));
        return std::nullopt;
    }
    return root;
}

std::optional<int> readFormatVersion(Reader &read, const QJsonObject &root)
{
    const QJsonValue version = root.value(QLatin1String("formatVersion"));
    if (!version.isDouble() || version.toDouble() != double(version.toInt()) || version.toInt() < 1) {
        read.fail(QStringLiteral("'formatVersion' must be a positive whole number"));
        return std::nullopt;
    }
    if (version.toInt() > BundleManifest::kFormatVersion) {
        read.fail(QStringLiteral("the bundle has format version %1; this Paddock reads version %2: update Paddock")
                      .arg(version.toInt())
                      .arg(BundleManifest::kFormatVersion));
        return std::nullopt;
    }
    return version.toInt();
}

std::optional<QString> readKitName(Reader &read, const QJsonObject &root)
{
    const QJsonObject kit = root.value(QLatin1String("kit")).toObject();
    if (!root.value(QLatin1String("kit")).isObject() ||
        !read.onlyKeys(kit, QStringLiteral("'kit'"), {QStringLiteral("name"), QStringLiteral("path")})) {
        read.fail(QStringLiteral("'kit' must be an object with 'name' and 'path'"));
        return std::nullopt;
    }
    const std::optional<QString> kitName = read.string(kit, QStringLiteral("name"), true, 63);
    const std::optional<QString> kitPath = read.string(kit, QStringLiteral("path"), true);
    if (!kitName || !kitPath)
        return std::nullopt;
    if (*kitPath != BundleManifest::kitFolder()) {
        read.fail(QStringLiteral("'kit.path' must be \"%1\"").arg(BundleManifest::kitFolder()));
        return std::nullopt;
    }
    if (!kit::rules::isValidKitName(*kitName)) {
        read.fail(QStringLiteral("'kit.name' must be a kit name (1-64 lowercase letters, digits and inner hyphens), "
                                 "found '%1'")
                      .arg(*kitName));
        return std::nullopt;
    }
    return kitName;
}

std::optional<BundleRule> readRule(Reader &read, const QJsonValue &value)
{
    const QJsonObject object = value.toObject();
    if (!value.isObject() ||
        !read.onlyKeys(object, QStringLiteral("a rule"),
                       {QStringLiteral("verdict"), QStringLiteral("pattern"), QStringLiteral("scope")})) {
        read.fail(QStringLiteral("each rule must be an object with verdict, pattern and scope"));
        return std::nullopt;
    }
    const std::optional<policy::Verdict> verdict =
        policy::verdictFromName(object.value(QLatin1String("verdict")).toString());
    const std::optional<policy::Scope> scope =
        policy::Scope::fromString(object.value(QLatin1String("scope")).toString(QStringLiteral("global")));
    const std::optional<QString> pattern = read.string(object, QStringLiteral("pattern"), true, 300);
    if (!verdict || !scope || !pattern) {
        read.fail(QStringLiteral("a rule has an unknown verdict or scope"));
        return std::nullopt;
    }
    BundleRule rule;
    rule.verdict = *verdict;
    rule.scope = *scope;
    rule.pattern = *pattern;
    return rule;
}

/** The policy object; the caller reads it only when the manifest has one. */
std::optional<BundlePolicy> readPolicy(Reader &read, const QJsonObject &root)
{
    const QJsonObject policyObject = root.value(QLatin1String("policy")).toObject();
    if (!root.value(QLatin1String("policy")).isObject() ||
        !read.onlyKeys(policyObject, QStringLiteral("'policy'"), {QStringLiteral("preset"), QStringLiteral("rules")})) {
        read.fail(QStringLiteral("'policy' must be an object with 'preset' and 'rules'"));
        return std::nullopt;
    }
    BundlePolicy bundlePolicy;
    const std::optional<policy::Preset> preset =
        policy::presetFromName(policyObject.value(QLatin1String("preset")).toString());
    if (!preset) {
        read.fail(QStringLiteral("'policy.preset' must be deny-all, balanced or allow-all"));
        return std::nullopt;
    }
    bundlePolicy.preset = *preset;
    const QJsonArray rules = policyObject.value(QLatin1String("rules")).toArray();
    if (rules.size() > kMaxRules) {
        read.fail(QStringLiteral("more than %1 rules").arg(kMaxRules));
        return std::nullopt;
    }
    for (const QJsonValue &value : rules) {
        const std::optional<BundleRule> rule = readRule(read, value);
        if (!rule)
            return std::nullopt;
        bundlePolicy.rules.append(*rule);
    }
    return bundlePolicy;
}

std::optional<BundleSecret> readSecret(Reader &read, const QJsonValue &value)
{
    const QJsonObject object = value.toObject();
    if (!value.isObject() ||
        !read.onlyKeys(object, QStringLiteral("a secret"),
                       {QStringLiteral("service"), QStringLiteral("description"), QStringLiteral("variable"),
                        QStringLiteral("required"), QStringLiteral("domains")})) {
        read.fail(QStringLiteral("each secret must be an object"));
        return std::nullopt;
    }
    const std::optional<QString> service = read.string(object, QStringLiteral("service"), true, 128);
    const std::optional<QString> description = read.string(object, QStringLiteral("description"), false);
    const std::optional<QString> variable = read.string(object, QStringLiteral("variable"), false, 256);
    if (!service || !description || !variable)
        return std::nullopt;
    BundleSecret secret;
    secret.service = *service;
    secret.description = *description;
    secret.variable = *variable;
    secret.required = object.value(QLatin1String("required")).toBool();
    for (const QJsonValue &domain : object.value(QLatin1String("domains")).toArray())
        secret.domains.append(domain.toString().left(256));
    return secret;
}

std::optional<QList<BundleSecret>> readSecrets(Reader &read, const QJsonObject &root)
{
    const QJsonArray secrets = root.value(QLatin1String("secrets")).toArray();
    if (secrets.size() > kMaxSecrets) {
        read.fail(QStringLiteral("more than %1 secrets").arg(kMaxSecrets));
        return std::nullopt;
    }
    QList<BundleSecret> list;
    for (const QJsonValue &value : secrets) {
        const std::optional<BundleSecret> secret = readSecret(read, value);
        if (!secret)
            return std::nullopt;
        list.append(*secret);
    }
    return list;
}

} // namespace

bool BundleManifest::validEngineName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"));
    return pattern.match(name).hasMatch();
}

QJsonObject BundleManifest::toJson() const
{
    QJsonObject object{
        {QStringLiteral("format"), QStringLiteral("paddock-bundle")},
        {QStringLiteral("formatVersion"), formatVersion},
        {QStringLiteral("createdBy"), createdBy},
        {QStringLiteral("kit"), QJsonObject{{QStringLiteral("name"), kitName}, {QStringLiteral("path"), kitFolder()}}},
        {QStringLiteral("notes"), notes}};
    if (!engine.isEmpty())
        object.insert(QStringLiteral("engine"), engine);
    if (policy) {
        QJsonArray rules;
        for (const BundleRule &rule : policy->rules)
            rules.append(ruleJson(rule));
        object.insert(QStringLiteral("policy"),
                      QJsonObject{{QStringLiteral("preset"), policy::presetName(policy->preset)},
                                  {QStringLiteral("rules"), rules}});
    }
    QJsonArray secretList;
    for (const BundleSecret &secret : secrets)
        secretList.append(QJsonObject{{QStringLiteral("service"), secret.service},
                                      {QStringLiteral("description"), secret.description},
                                      {QStringLiteral("variable"), secret.variable},
                                      {QStringLiteral("required"), secret.required},
                                      {QStringLiteral("domains"), QJsonArray::fromStringList(secret.domains)}});
    object.insert(QStringLiteral("secrets"), secretList);
    return object;
}

std::optional<BundleManifest> BundleManifest::fromJson(const QByteArray &text, QString *error)
{
    error->clear();
    Reader read(error);
    const std::optional<QJsonObject> root = readRoot(read, text);
    if (!root)
        return std::nullopt;
    BundleManifest manifest;
    const std::optional<int> version = readFormatVersion(read, *root);
    if (!version)
        return std::nullopt;
    manifest.formatVersion = *version;

    const std::optional<QString> createdBy = read.string(*root, QStringLiteral("createdBy"), false);
    const std::optional<QString> notes = read.string(*root, QStringLiteral("notes"), false, kMaxNotes);
    if (!createdBy || !notes)
        return std::nullopt;
    manifest.createdBy = *createdBy;
    manifest.notes = *notes;
    const std::optional<QString> engine = read.string(*root, QStringLiteral("engine"), false, 64);
    if (!engine)
        return std::nullopt;
    if (!engine->isEmpty() && !validEngineName(*engine)) {
        read.fail(QStringLiteral("'engine' must be an engine's name (letters, digits, '.', '_' and '-'), found '%1'")
                      .arg(*engine));
        return std::nullopt;
    }
    manifest.engine = *engine;

    const std::optional<QString> kitName = readKitName(read, *root);
    if (!kitName)
        return std::nullopt;
    manifest.kitName = *kitName;

    if (root->contains(QLatin1String("policy"))) {
        manifest.policy = readPolicy(read, *root);
        if (!manifest.policy)
            return std::nullopt;
    }
    const std::optional<QList<BundleSecret>> secrets = readSecrets(read, *root);
    if (!secrets)
        return std::nullopt;
    manifest.secrets = *secrets;
    return manifest;
}

} // namespace paddock::bundle
