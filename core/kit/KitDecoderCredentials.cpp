// SPDX-License-Identifier: GPL-3.0-or-later
// credentials: each service's API key and where the proxy injects it, or its OAuth flow.
#include "kit/KitDecoder.h"

#include "kit/KitRules.h"

#include <QJsonObject>

namespace paddock::kit::detail {

void KitDecoder::readCredentials(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (value.IsMap()) {
        // The v1 mapping form `credentials: {sources: ...}`.
        fields(value, at, {});
        return;
    }
    if (!expectSequence(value, key, at))
        return;
    qsizetype i = 0;
    for (auto it = value.begin(); it != value.end(); ++it, ++i)
        readCredential(*it, key, at.index(i));
}

void KitDecoder::readCredential(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    Credential credential;
    const qsizetype firstSite = m_injectSites.size();
    fields(
        value, at,
        {
            {"service",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { credential.service = str(v, k, a); }},
            {"description",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) { credential.description = str(v, k, a); }},
            {"required", [&](const YAML::Node &k, const YAML::Node &v,
                             const At &a) { credential.required = boolean(v, k, a).value_or(false); }},
            {"provider",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 credential.provider = str(v, k, a);
                 warning(locOf(k.Mark()),
                         QStringLiteral("`%1` is a forward-compatible field with no effect yet").arg(a.path));
             }},
            {"apiKey", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readApiKey(credential, v, k, a); }},
            {"oauth", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readOAuth(credential, v, k, a); }},
        });
    if (credential.service.isEmpty())
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `service`").arg(at.path));
    for (qsizetype i = firstSite; i < m_injectSites.size(); ++i)
        m_injectSites[i].service = credential.service;
    m_kit.credentials.append(credential);
}

// -----------------------------------------------------------------------------------------
// apiKey

void KitDecoder::readApiKey(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    ApiKey apiKey;
    fields(
        value, at,
        {
            {"name", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readApiKeyName(apiKey, v, k, a); }},
            {"proxyManaged", [&](const YAML::Node &k, const YAML::Node &v,
                                 const At &a) { apiKey.proxyManaged = boolean(v, k, a).value_or(false); }},
            {"inject",
             [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                 if (!expectSequence(v, k, a))
                     return;
                 qsizetype i = 0;
                 for (auto it = v.begin(); it != v.end(); ++it, ++i)
                     readInjection(apiKey, *it, k, a.index(i));
             }},
        });
    credential.apiKey = apiKey;
}

void KitDecoder::readApiKeyName(ApiKey &apiKey, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    bool unresolved = false;
    apiKey.name = str(value, key, at, &unresolved);
    // An empty name is legal: the kit wants no variable in the sandbox.
    if (!apiKey.name.isEmpty() && !unresolved && !rules::isValidEnvironmentName(apiKey.name))
        error(valueLoc(value, key), QStringLiteral("`%1` must be an environment variable name "
                                                   "(^[A-Za-z_][A-Za-z0-9_]*$), found '%2'")
                                        .arg(at.path, apiKey.name));
}

void KitDecoder::readInjection(ApiKey &apiKey, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    Injection inject;
    InjectionSpots spots;
    spots.domain = valueLoc(value, key);
    fields(value, at,
           {
               {"domain",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    spots.domain = valueLoc(v, k);
                    inject.domain = str(v, k, a, &spots.domainUnresolved);
                }},
               {"header", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { inject.header = str(v, k, a); }},
               {"format",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    spots.format = valueLoc(v, k);
                    inject.format = str(v, k, a, &spots.formatUnresolved);
                }},
               {"username",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    spots.username = valueLoc(v, k);
                    inject.username = str(v, k, a);
                }},
               {"scheme",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    spots.scheme = valueLoc(v, k);
                    inject.scheme = str(v, k, a);
                }},
           });
    if (inject.domain.isEmpty())
        error(spots.domain, QStringLiteral("`%1` is missing its required field `domain`").arg(at.path));
    resolveInjectionScheme(inject, spots, value, key, at);
    if (!inject.domain.isEmpty())
        m_injectSites.append({QString(), inject.domain, spots.domain, spots.domainUnresolved});
    apiKey.inject.append(inject);
}

// `scheme` chooses the header and format; without it, `format` and `header` say them.
void KitDecoder::resolveInjectionScheme(Injection &inject, const InjectionSpots &spots, const YAML::Node &value,
                                        const YAML::Node &key, const At &at)
{
    if (!inject.scheme.isEmpty() && !inject.format.isEmpty()) {
        error(spots.format, QStringLiteral("`%1` sets both `format` and `scheme`; they are mutually exclusive (scheme "
                                           "chooses the format)")
                                .arg(at.path));
    } else if (inject.scheme == QLatin1String("bearer")) {
        if (!inject.username.isEmpty())
            error(spots.username, QStringLiteral("`%1`: `username` is not valid with scheme: bearer").arg(at.path));
        if (inject.header.isEmpty())
            inject.header = QStringLiteral("Authorization");
        inject.format = QStringLiteral("Bearer %s");
    } else if (inject.scheme == QLatin1String("basic")) {
        if (inject.username.isEmpty())
            error(spots.scheme, QStringLiteral("`%1`: scheme: basic needs a `username`").arg(at.path));
        if (inject.header.isEmpty())
            inject.header = QStringLiteral("Authorization");
        inject.format = QStringLiteral("Basic %s");
        inject.encoding = Injection::Encoding::BasicAuth;
    } else if (!inject.scheme.isEmpty()) {
        error(spots.scheme,
              QStringLiteral("`%1.scheme` must be bearer or basic, found '%2'").arg(at.path, inject.scheme));
    } else if (inject.format.isEmpty()) {
        error(valueLoc(value, key), QStringLiteral("`%1` needs a `format` with one %s (and a `header`), or a "
                                                   "`scheme` (bearer or basic)")
                                        .arg(at.path));
    } else {
        const int placeholders = rules::countFormatPlaceholders(inject.format);
        if (placeholders != 1 && !spots.formatUnresolved)
            error(spots.format, QStringLiteral("`%1.format` must contain exactly one %s, found %2 in '%3'")
                                    .arg(at.path)
                                    .arg(placeholders)
                                    .arg(inject.format));
        if (inject.header.isEmpty())
            error(spots.format, QStringLiteral("`%1` sets a `format` but no `header` to put it in").arg(at.path));
    }
}

// -----------------------------------------------------------------------------------------
// oauth

void KitDecoder::readOAuth(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    OAuth oauth;
    bool hasEndpoint = false;
    Loc sentinelsLoc = locOf(key.Mark()), passthroughLoc;
    fields(value, at,
           {
               {"tokenEndpoint", [&](const YAML::Node &k, const YAML::Node &v,
                                     const At &a) { hasEndpoint = readTokenEndpoint(oauth, v, k, a); }},
               {"resourceHosts",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { oauth.resourceHosts = strList(v, k, a); }},
               {"sentinels",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    sentinelsLoc = locOf(k.Mark());
                    readSentinels(oauth, v, k, a);
                }},
               {"credentialFile",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readCredentialFile(oauth, v, k, a); }},
               {"skipIfEnv",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readSkipIfEnv(oauth, v, k, a); }},
               {"responseFields",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { readResponseFields(oauth, v, k, a); }},
               {"passthrough",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    passthroughLoc = locOf(k.Mark());
                    oauth.passthrough = boolean(v, k, a).value_or(false);
                }},
           });
    if (!hasEndpoint)
        error(valueLoc(value, key),
              QStringLiteral("`%1` is missing its required field `tokenEndpoint` (host and path)").arg(at.path));
    if (oauth.passthrough) {
        warning(passthroughLoc, QStringLiteral("`%1.passthrough: true` gives the sandbox the real OAuth token instead "
                                               "of a sentinel")
                                    .arg(at.path));
    } else if (oauth.accessTokenSentinel.isEmpty() || oauth.refreshTokenSentinel.isEmpty()) {
        error(sentinelsLoc, QStringLiteral("`%1.sentinels` needs both `accessToken` and `refreshToken` (unless "
                                           "passthrough: true)")
                                .arg(at.path));
    }
    credential.oauth = oauth;
}

// Whether there is a token endpoint at all (a mapping), complete or not.
bool KitDecoder::readTokenEndpoint(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return false;
    fields(value, at,
           {
               {"host", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { oauth.tokenHost = str(v, k, a); }},
               {"path", [&](const YAML::Node &k, const YAML::Node &v, const At &a) { oauth.tokenPath = str(v, k, a); }},
           });
    if (oauth.tokenHost.isEmpty())
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `host`").arg(at.path));
    if (oauth.tokenPath.isEmpty())
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `path`").arg(at.path));
    return true;
}

void KitDecoder::readSentinels(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at,
           {
               {"accessToken", [&](const YAML::Node &k, const YAML::Node &v,
                                   const At &a) { oauth.accessTokenSentinel = str(v, k, a); }},
               {"refreshToken", [&](const YAML::Node &k, const YAML::Node &v,
                                    const At &a) { oauth.refreshTokenSentinel = str(v, k, a); }},
           });
}

void KitDecoder::readCredentialFile(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    oauth.hasCredentialFile = true;
    bool hasStructure = false;
    Loc templateLoc;
    fields(value, at,
           {
               {"path", [&](const YAML::Node &k, const YAML::Node &v,
                            const At &a) { oauth.credentialFilePath = str(v, k, a); }},
               {"template",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    templateLoc = locOf(k.Mark());
                    oauth.credentialFileTemplate = str(v, k, a);
                }},
               {"structure",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    if (!expectMap(v, k, a))
                        return;
                    hasStructure = true;
                    oauth.credentialFileStructure = anyValue(v, k, a, 0).toObject();
                }},
           });
    if (oauth.credentialFilePath.isEmpty())
        error(valueLoc(value, key), QStringLiteral("`%1` is missing its required field `path`").arg(at.path));
    if (!hasStructure && oauth.credentialFileTemplate.isEmpty())
        error(valueLoc(value, key),
              QStringLiteral("`%1` needs a `structure` (or the deprecated `template`)").arg(at.path));
    if (hasStructure && !oauth.credentialFileTemplate.isEmpty())
        warning(templateLoc, QStringLiteral("`%1.template` is ignored: `structure` is set and wins").arg(at.path));
}

void KitDecoder::readSkipIfEnv(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    oauth.skipIfEnv = strList(value, key, at);
    warning(locOf(key.Mark()), QStringLiteral("`%1` is accepted but ignored in schemaVersion \"2\": credentials come "
                                              "from bindings, never from the host environment")
                                   .arg(at.path));
}

void KitDecoder::readResponseFields(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at)
{
    if (!expectMap(value, key, at))
        return;
    fields(value, at,
           {
               {"accessToken", [&](const YAML::Node &k, const YAML::Node &v,
                                   const At &a) { oauth.responseAccessToken = str(v, k, a); }},
               {"refreshToken", [&](const YAML::Node &k, const YAML::Node &v,
                                    const At &a) { oauth.responseRefreshToken = str(v, k, a); }},
               {"expiresIn",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { oauth.responseExpiresIn = str(v, k, a); }},
               {"scope",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) { oauth.responseScope = str(v, k, a); }},
           });
}

} // namespace paddock::kit::detail
