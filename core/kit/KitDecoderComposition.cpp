// SPDX-License-Identifier: GPL-3.0-or-later
// The top level of a kit: the order it is read in, its identity (kind, name, licenses,
// extends, mixins, requires), and the rules that hold between its blocks once all are read.
#include "kit/KitDecoder.h"

#include "kit/KitRules.h"

namespace paddock::kit::detail {

std::optional<Kit> KitDecoder::decode(const YAML::Node &root)
{
    // The args: block is read first: its declarations say how every other value is
    // substituted, wherever in the file it appears.
    YAML::Node argsKey;
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it->first.IsScalar() && it->first.Scalar() == "args") {
            argsKey = it->first;
            readArgs(it->second, it->first);
            break;
        }
    }
    resolveArgs(argsKey);

    bool hasSchemaVersion = false;
    bool hasName = false;
    const auto text = [&](QString &target) {
        return [&target, this](const YAML::Node &k, const YAML::Node &v, const At &a) { target = str(v, k, a); };
    };
    fields(root, {},
           {
               {"schemaVersion", [&](const YAML::Node &, const YAML::Node &, const At &) { hasSchemaVersion = true; }},
               {"kind", reader(&KitDecoder::readKind)},
               {"name",
                [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                    hasName = true;
                    readName(v, k, a);
                }},
               {"version", text(m_kit.version)},
               {"displayName", text(m_kit.displayName)},
               {"description", text(m_kit.description)},
               {"sourceURL", text(m_kit.sourceURL)},
               {"licenses", reader(&KitDecoder::readLicenses)},
               {"locked", reader(&KitDecoder::readLocked)},
               {"security", reader(&KitDecoder::readSecurity)},
               {"args", {}},
               {"sandbox", reader(&KitDecoder::readSandboxField)},
               {"extends", reader(&KitDecoder::readExtends)},
               {"mixins", reader(&KitDecoder::readMixins)},
               {"requires", reader(&KitDecoder::readRequires)},
               {"agentInstructions", reader(&KitDecoder::readAgentInstructions)},
               {"permissions", reader(&KitDecoder::readPermissions)},
               {"ports", reader(&KitDecoder::readPortsField)},
               {"publishedPorts", reader(&KitDecoder::readPublishedPorts)},
               {"credentials", reader(&KitDecoder::readCredentials)},
               {"environment", reader(&KitDecoder::readEnvironment)},
               {"setup", reader(&KitDecoder::readSetup)},
               {"volumes", listReader(&KitDecoder::readVolume)},
           });

    checkRequiredFields(root, hasSchemaVersion, hasName);
    checkComposition();
    checkInjectDomains();
    return m_kit;
}

// -----------------------------------------------------------------------------------------
// Identity

void KitDecoder::readKind(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_kindLoc = valueLoc(value, key);
    const QString kind = str(value, key, at);
    m_kindValid = true;
    if (kind == QLatin1String("sandbox")) {
        m_kit.kind = KitKind::Sandbox;
    } else if (kind == QLatin1String("mixin")) {
        m_kit.kind = KitKind::Mixin;
    } else if (kind == QLatin1String("agent")) {
        m_kindValid = false;
        error(*m_kindLoc, QStringLiteral("`kind: agent` is the v1 spelling; schemaVersion \"2\" uses `kind: sandbox`"));
    } else {
        m_kindValid = false;
        error(*m_kindLoc, QStringLiteral("`kind` must be sandbox or mixin, found '%1'").arg(kind));
    }
}

void KitDecoder::readName(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_nameLoc = valueLoc(value, key);
    // The name is the kit's identity, and folders are named after it (a bundle's kit is
    // imported into kits/NAME): it is never a template, so that no argument value, and no
    // check skipped while one is missing, can make it a path.
    if (value.IsScalar()) {
        const QString written = QString::fromStdString(value.Scalar());
        if (written.contains(QLatin1String("${{"))) {
            m_kit.name = written;
            error(referenceLoc(value, key, QStringLiteral("${{")),
                  QStringLiteral("`name` is the kit's identity and cannot use a placeholder (`${{ ... }}`), found "
                                 "'%1'; write the name itself: 1-64 lowercase letters, digits and inner hyphens")
                      .arg(written.left(80)));
            return;
        }
    }
    m_kit.name = str(value, key, at);
    if (!rules::isValidKitName(m_kit.name))
        error(*m_nameLoc, QStringLiteral("`name` must be 1-64 lowercase letters, digits and inner hyphens "
                                         "(^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$), found '%1'")
                              .arg(m_kit.name));
}

void KitDecoder::readLicenses(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_kit.licenses = strList(value, key, at);
    checkUniqueList(value, key, at, m_kit.licenses, [](const QString &item) {
        return item.trimmed().isEmpty() ? QStringLiteral("must not be empty") : QString();
    });
}

void KitDecoder::readLocked(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_kit.locked = strList(value, key, at);
    checkUniqueList(value, key, at, m_kit.locked, [](const QString &item) {
        return rules::isDottedPath(item)
                   ? QString()
                   : QStringLiteral("must be a dotted path such as sandbox.image, found '%1'").arg(item);
    });
}

void KitDecoder::readExtends(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_extendsLoc = locOf(key.Mark());
    m_kit.extends = str(value, key, at);
}

void KitDecoder::readMixins(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_mixinsLoc = locOf(key.Mark());
    m_kit.mixins = strList(value, key, at);
}

void KitDecoder::readRequires(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    m_requiresLoc = locOf(key.Mark());
    if (!expectMap(value, key, at))
        return;
    fields(value, at, {{"agent", reader(&KitDecoder::readRequiredAgent)}});
}

void KitDecoder::readRequiredAgent(const YAML::Node &value, const YAML::Node &key, const At &at)
{
    bool unresolved = false;
    m_kit.requiresAgent = str(value, key, at, &unresolved);
    if (!unresolved && !rules::isValidKitName(m_kit.requiresAgent))
        error(valueLoc(value, key), QStringLiteral("`requires.agent` must be a kit name "
                                                   "(^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$), found '%1'")
                                        .arg(m_kit.requiresAgent));
}

// -----------------------------------------------------------------------------------------
// Whole-kit rules

void KitDecoder::checkRequiredFields(const YAML::Node &root, bool hasSchemaVersion, bool hasName)
{
    const Loc top = locOf(root.Mark()).line > 0 ? locOf(root.Mark()) : Loc{1, 1};
    if (!hasSchemaVersion)
        error(top, QStringLiteral("missing required field `schemaVersion` (expected \"2\")"));
    if (!m_kindLoc)
        error(top, QStringLiteral("missing required field `kind` (sandbox or mixin)"));
    if (!hasName)
        error(top, QStringLiteral("missing required field `name`"));
    if (m_portsLoc && m_publishedPortsLoc)
        error(*m_publishedPortsLoc, QStringLiteral("`publishedPorts` and `ports` are both set; keep only `ports`"));
}

void KitDecoder::checkComposition()
{
    if (!m_kindValid)
        return;
    const QString kind = kindName(m_kit.kind);
    if (m_kit.isSandbox()) {
        if (!m_kit.sandbox) {
            error(*m_kindLoc, QStringLiteral("kind: sandbox needs a `sandbox:` block with at least `sandbox.image`"));
        } else if (m_kit.sandbox->image.isEmpty() && m_kit.extends.isEmpty()) {
            error(m_imageLoc, m_buildLoc ? QStringLiteral("`sandbox.build` is not built by the runtime yet: set "
                                                          "`sandbox.image` as well")
                                         : QStringLiteral("`sandbox.image` is required (unless the kit `extends` "
                                                          "another sandbox kit)"));
        }
        if (m_requiresLoc)
            error(*m_requiresLoc, QStringLiteral("`requires` is only valid for kind: mixin (a sandbox is a base agent "
                                                 "itself)"));
    } else {
        if (m_sandboxLoc)
            error(*m_sandboxLoc, QStringLiteral("a `sandbox:` block is forbidden for kind: mixin; it belongs to kind: "
                                                "sandbox kits"));
        if (m_extendsLoc)
            error(*m_extendsLoc, QStringLiteral("`extends` is only valid for kind: sandbox, not %1").arg(kind));
        if (m_mixinsLoc)
            error(*m_mixinsLoc, QStringLiteral("`mixins` is only valid for kind: sandbox, not %1").arg(kind));
        if (m_filenameLoc)
            warning(*m_filenameLoc, QStringLiteral("`agentInstructions.filename` is ignored for kind: mixin (a mixin "
                                                   "contributes content to the sandbox's profile)"));
    }
    if (m_buildLoc && m_kit.sandbox && !m_kit.sandbox->image.isEmpty())
        warning(*m_buildLoc, QStringLiteral("`sandbox.build` is accepted but images are not built from it yet; the "
                                            "image is taken from sandbox.image"));
    if (m_mixinsLoc && m_kit.isSandbox())
        warning(*m_mixinsLoc, QStringLiteral("`mixins` is accepted but not applied yet: add the mixins when the "
                                             "sandbox is created"));
}

void KitDecoder::checkInjectDomains()
{
    for (const InjectSite &site : std::as_const(m_injectSites)) {
        if (site.unresolved || rules::isDomainAllowed(site.domain, m_kit.networkAllow))
            continue;
        warning(site.loc, QStringLiteral("credential `%1` injects into %2, which permissions.network.allow does not "
                                         "list: add it to permissions.network.allow, or allow it in the global "
                                         "policy (paddock policy allow %2)")
                              .arg(site.service, site.domain));
    }
}

} // namespace paddock::kit::detail
