// SPDX-License-Identifier: GPL-3.0-or-later
// A workload and its mixins merged into the one kit a sandbox applies, each declaration combined
// as the v3 specification combines it across the kits of a composition.
#include "kit/KitComposition.h"

#include "kit/KitResolution.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace paddock::kit {

namespace {

void unite(QStringList &into, const QStringList &from)
{
    for (const QString &entry : from)
        if (!into.contains(entry))
            into << entry;
}

bool sameInjections(const QList<Injection> &a, const QList<Injection> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i)
        if (a.at(i).domain != b.at(i).domain || a.at(i).header != b.at(i).header || a.at(i).format != b.at(i).format ||
            a.at(i).username != b.at(i).username)
            return false;
    return true;
}

/** Whether two kits ask for the same credential the same way: one request, stated twice. */
bool sameCredential(const Credential &a, const Credential &b)
{
    if (a.apiKey.has_value() != b.apiKey.has_value() || a.oauth.has_value() != b.oauth.has_value())
        return false;
    if (a.apiKey && (a.apiKey->name != b.apiKey->name || a.apiKey->proxyManaged != b.apiKey->proxyManaged ||
                     !sameInjections(a.apiKey->inject, b.apiKey->inject)))
        return false;
    return !a.oauth || (a.oauth->tokenHost == b.oauth->tokenHost && a.oauth->tokenPath == b.oauth->tokenPath &&
                        a.oauth->resourceHosts == b.oauth->resourceHosts);
}

/** The image `kit load` put the kit's layers in (its origin.json), or empty. */
QString storedImageOf(const QString &kitDirectory)
{
    QFile origin(QDir(kitDirectory).filePath(QStringLiteral("origin.json")));
    if (kitDirectory.isEmpty() || !origin.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(origin.read(1 << 16)).object().value(QLatin1String("image")).toString();
}

bool sameGrant(const SshAgentGrant &a, const SshAgentGrant &b)
{
    return a.unrestricted == b.unrestricted && a.sign == b.sign && a.authenticate == b.authenticate;
}

Result<void> conflict(const QString &first, const QString &second, const QString &what)
{
    return fail(QStringLiteral("kits %1 and %2 both declare %3, differently: a composition states each once")
                    .arg(first, second, what),
                QStringLiteral("leave one of the kits out, or use kits that agree"));
}

/**
 * Adds @p items of kit @p kitName to @p into, each under its @p key: a key not there yet is
 * added and @p owners notes the kit; one already there must be @p same, or the composition is
 * refused, naming both kits and @p what of the item.
 */
template<typename List, typename Key, typename Same, typename What>
Result<void> mergeKeyed(List &into, const List &items, QMap<QString, QString> &owners, const QString &kitName, Key key,
                        Same same, What what)
{
    for (const auto &item : items) {
        const QString name = key(item);
        const auto there =
            std::find_if(into.cbegin(), into.cend(), [&](const auto &have) { return key(have) == name; });
        if (there == into.cend()) {
            into << item;
            owners.insert(name, kitName);
        } else if (!same(*there, item)) {
            return conflict(owners.value(name), kitName, what(item));
        }
    }
    return {};
}

/** Marks @p contexts as @p kit's: the profile's index lists each kit of a composition apart. */
void attribute(QList<AgentContext> &contexts, const Kit &kit)
{
    for (AgentContext &context : contexts) {
        if (context.kitName.isEmpty()) {
            context.kitName = kit.name;
            context.kitDisplayName = kit.displayName;
        }
    }
}

/** @brief Merges one mixin after another into the workload, remembering who declared what. */
class Merger
{
public:
    explicit Merger(const Kit &workload) : m_kit(workload)
    {
        attribute(m_kit.agentContexts, workload);
        for (const Credential &c : workload.credentials)
            m_credentialOwner.insert(c.service, workload.name);
        for (const SshAgentGrant &g : workload.sshAgents)
            m_agentOwner.insert(g.phase, workload.name);
        for (const auto &[name, value] : workload.environment)
            m_variableOwner.insert(name, workload.name);
        for (const SetupFile &f : workload.setup.files)
            m_fileOwner.insert(f.path, workload.name);
        for (const Volume &v : workload.volumes)
            m_volumeOwner.insert(v.path, workload.name);
        if (!m_kit.sandbox)
            m_kit.sandbox = SandboxBlock{};
        if (m_kit.sandbox->resources)
            m_resourcesOwner = workload.name;
        // An empty tail is the launch argv alone: composition drops it, so it takes no place.
        if (!m_kit.sandbox->commandInteractive.value_or(QStringList()).isEmpty())
            m_interactiveOwner = workload.name;
    }

    Result<void> add(const Kit &mixin);
    Kit take() { return std::move(m_kit); }

private:
    Result<void> addCredentials(const Kit &mixin);
    Result<void> addSetup(const Kit &mixin);
    Result<void> addPlaces(const Kit &mixin);
    Result<void> addWholeSandbox(const Kit &mixin);

    Kit m_kit;
    QMap<QString, QString> m_credentialOwner, m_agentOwner, m_variableOwner, m_fileOwner, m_volumeOwner;
    QString m_resourcesOwner, m_interactiveOwner;
};

Result<void> Merger::addCredentials(const Kit &mixin)
{
    const Result<void> credentials = mergeKeyed(
        m_kit.credentials, mixin.credentials, m_credentialOwner, mixin.name,
        [](const Credential &c) { return c.service; }, sameCredential,
        [](const Credential &c) { return QStringLiteral("the credential for service %1").arg(c.service); });
    if (!credentials)
        return credentials;
    return mergeKeyed(
        m_kit.sshAgents, mixin.sshAgents, m_agentOwner, mixin.name, [](const SshAgentGrant &g) { return g.phase; },
        sameGrant, [](const SshAgentGrant &g) { return QStringLiteral("ssh-agent@1 for the %1 phase").arg(g.phase); });
}

Result<void> Merger::addSetup(const Kit &mixin)
{
    using Variable = QPair<QString, QString>;
    const Result<void> variables = mergeKeyed(
        m_kit.environment, mixin.environment, m_variableOwner, mixin.name, [](const Variable &v) { return v.first; },
        [](const Variable &a, const Variable &b) { return a.second == b.second; },
        [](const Variable &v) { return QStringLiteral("the variable %1").arg(v.first); });
    if (!variables)
        return variables;
    // Hooks run in composition order, the workload's first; one path has one writer.
    m_kit.setup.install += mixin.setup.install;
    m_kit.setup.startup += mixin.setup.startup;
    for (const SetupFile &file : mixin.setup.files) {
        if (m_fileOwner.contains(file.path))
            return fail(QStringLiteral("kits %1 and %2 both write the file %3 (lifecycle@1 files)")
                            .arg(m_fileOwner.value(file.path), mixin.name, file.path),
                        QStringLiteral("leave one of the kits out"));
        m_fileOwner.insert(file.path, mixin.name);
        m_kit.setup.files << file;
    }
    return {};
}

Result<void> Merger::addPlaces(const Kit &mixin)
{
    for (const Port &port : mixin.ports) {
        const bool present = std::any_of(m_kit.ports.cbegin(), m_kit.ports.cend(), [&port](const Port &have) {
            return have.container == port.container && have.protocol == port.protocol;
        });
        if (!present)
            m_kit.ports << port;
    }
    return mergeKeyed(
        m_kit.volumes, mixin.volumes, m_volumeOwner, mixin.name, [](const Volume &v) { return v.path; },
        [](const Volume &a, const Volume &b) { return a.type == b.type && a.size == b.size && a.mode == b.mode; },
        [](const Volume &v) { return QStringLiteral("the volume %1").arg(v.path); });
}

bool sameResources(const Resources &a, const Resources &b)
{
    return a.cpu == b.cpu && a.memoryBytes == b.memoryBytes && a.gpu == b.gpu;
}

/**
 * resources@1 and lifecycle@1's `interactive` describe the whole sandbox, not a grant to it:
 * one kit of a composition states each. The same resources restated are the same ask; a second
 * interactive tail is refused even when equal, since it replaces the launch's tail rather than
 * adding to it.
 */
Result<void> Merger::addWholeSandbox(const Kit &mixin)
{
    SandboxBlock &block = *m_kit.sandbox;
    if (mixin.mixinResources) {
        if (!block.resources) {
            block.resources = mixin.mixinResources;
            m_resourcesOwner = mixin.name;
        } else if (!sameResources(*block.resources, *mixin.mixinResources)) {
            return conflict(m_resourcesOwner, mixin.name, QStringLiteral("resources@1 (the sandbox's limits)"));
        }
    }
    const QStringList tail = mixin.mixinInteractive.value_or(QStringList());
    if (tail.isEmpty())
        return {};
    if (!m_interactiveOwner.isEmpty())
        return fail(QStringLiteral("kits %1 and %2 both declare lifecycle@1's interactive tail: it replaces the "
                                   "launch's tail, so a composition has one")
                        .arg(m_interactiveOwner, mixin.name),
                    QStringLiteral("leave one of the kits out"));
    const QJsonValue newSession =
        m_kit.agentInteractiveSessions.value_or(QJsonObject()).value(QLatin1String("newSession"));
    if (newSession.isArray() && newSession.toVariant().toStringList() != tail)
        return fail(QStringLiteral("kit %1's lifecycle@1 interactive tail differs from the newSession verb of kit %2's "
                                   "agent-interactive-sessions@1: both name the new interactive session")
                        .arg(mixin.name, m_kit.name),
                    QStringLiteral("leave kit %1 out, or use kits that agree").arg(mixin.name));
    block.commandInteractive = tail;
    m_interactiveOwner = mixin.name;
    return {};
}

Result<void> Merger::add(const Kit &mixin)
{
    if (const Result<void> added = addWholeSandbox(mixin); !added)
        return added;
    if (const Result<void> added = addCredentials(mixin); !added)
        return added;
    if (const Result<void> added = addSetup(mixin); !added)
        return added;
    if (const Result<void> added = addPlaces(mixin); !added)
        return added;
    unite(m_kit.networkAllow, mixin.networkAllow);
    unite(m_kit.networkDeny, mixin.networkDeny);
    unite(m_kit.networkInstallAllow, mixin.networkInstallAllow);
    unite(m_kit.networkInstallDeny, mixin.networkInstallDeny);
    unite(m_kit.provides, mixin.provides);
    unite(m_kit.requirements, mixin.requirements);
    unite(m_kit.integrates, mixin.integrates);
    unite(m_kit.conflicts, mixin.conflicts);
    unite(m_kit.licenses, mixin.licenses);
    if (mixin.privileged.value_or(false))
        m_kit.privileged = true;
    m_kit.args += mixin.args;
    for (auto it = mixin.argValues.cbegin(); it != mixin.argValues.cend(); ++it)
        m_kit.argValues.insert(it.key(), it.value());
    m_kit.capabilities += mixin.capabilities;
    QList<AgentContext> contexts = mixin.agentContexts;
    attribute(contexts, mixin);
    m_kit.agentContexts += contexts;
    return {};
}

} // namespace

QJsonObject ComposedKit::toJson() const
{
    return {{QStringLiteral("name"), name},
            {QStringLiteral("kind"), workload ? QStringLiteral("workload") : QStringLiteral("mixin")},
            {QStringLiteral("reference"), reference},
            {QStringLiteral("digest"), digest},
            {QStringLiteral("directory"), directory},
            {QStringLiteral("image"), image}};
}

QStringList Composition::mixinImages() const
{
    QStringList images;
    for (const ComposedKit &part : parts)
        if (!part.workload)
            images << part.image;
    return images;
}

QJsonArray Composition::partsJson() const
{
    QJsonArray array;
    for (const ComposedKit &part : parts)
        array << part.toJson();
    return array;
}

Result<Composition> composeKits(const QList<Kit> &kits)
{
    for (const Kit &kit : kits)
        if (kit.schemaVersion != QLatin1String("3"))
            return fail(QStringLiteral("kit %1 is a schemaVersion %2 kit: only schemaVersion 3 kits compose")
                            .arg(kit.name, kit.schemaVersion),
                        QStringLiteral("give one --kit for a spec.yaml kit"));
    const Result<QList<int>> order = resolveComposition(kits);
    if (!order)
        return order.error();
    Composition composition;
    Merger merger(kits.at(order->constFirst()));
    QStringList names;
    for (const int k : *order) {
        const Kit &kit = kits.at(k);
        if (k != order->constFirst())
            if (const Result<void> added = merger.add(kit); !added)
                return added.error();
        names << kit.name;
        composition.parts << ComposedKit{kit.name,   kit.isSandbox(), kit.reference,
                                         kit.digest, kit.directory,   storedImageOf(kit.directory)};
    }
    composition.kit = merger.take();
    composition.kit.name = names.join(QLatin1Char('+'));
    return composition;
}

Result<Composition> loadComposition(const QStringList &directories, const KitLoadOptions &options)
{
    QList<Kit> kits;
    for (const QString &directory : directories) {
        if (directories.count(directory) > 1)
            return fail(QStringLiteral("the kit in %1 is given twice: a composition has each kit once").arg(directory));
        const KitLoadResult loaded = KitLoader::loadDirectory(directory, options);
        if (!loaded.ok()) {
            QStringList problems;
            for (const Diagnostic &diagnostic : loaded.diagnostics)
                if (diagnostic.isError())
                    problems << diagnostic.toString();
            return fail(
                QStringLiteral("the kit in %1 cannot be used:\n%2").arg(directory, problems.join(QLatin1Char('\n'))));
        }
        kits << *loaded.kit;
    }
    return composeKits(kits);
}

} // namespace paddock::kit
