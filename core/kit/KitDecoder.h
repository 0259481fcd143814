// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Private to core/kit: the strict spec.yaml decoder behind KitLoader. Its definitions are
// split by concern over KitDecoder*.cpp; nothing outside core/kit includes this header.

#include "kit/Diagnostic.h"
#include "kit/Kit.h"
#include "kit/KitLoader.h"

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <yaml-cpp/yaml.h>

#include <functional>
#include <optional>
#include <vector>

namespace paddock::kit::detail {

struct Loc
{
    int line = 0;
    int column = 0;
};

Loc locOf(const YAML::Mark &mark);

/** A key's position in messages: "sandbox.image", "credentials[1].apiKey". */
struct At
{
    QString path;   ///< with list indices, for messages
    QString schema; ///< without indices, for the legacy-key table

    At child(const QString &name) const
    {
        return {path.isEmpty() ? name : path + QLatin1Char('.') + name,
                schema.isEmpty() ? name : schema + QLatin1Char('.') + name};
    }
    At index(qsizetype i) const { return {path + QStringLiteral("[%1]").arg(i), schema}; }
};

/** "a mapping", "a list", "a scalar 'x'": what was found where something else was expected. */
QString nodeKindName(const YAML::Node &node);

/** A found `args:` declaration, with where it is. */
struct ArgEntry
{
    ArgDeclaration declaration;
    Loc loc;
    bool valid = true;
};

/**
 * Decodes one schemaVersion "2" root mapping into a Kit, reporting every problem into the
 * diagnostics it is given. Each block of the grammar has its own `readX` method, which
 * takes the value, the key it sits under (for positions) and its path in messages.
 */
class KitDecoder
{
public:
    KitDecoder(const QString &file, const QByteArray &source, const KitLoadOptions &options,
               QList<Diagnostic> &diagnostics);

    std::optional<Kit> decode(const YAML::Node &root);

private:
    using Handler = std::function<void(const YAML::Node &key, const YAML::Node &value, const At &at)>;
    using Reader = void (KitDecoder::*)(const YAML::Node &value, const YAML::Node &key, const At &at);
    struct Field
    {
        const char *name;
        Handler handle;
    };
    /** Where a `path` field was written, and whether it still holds an argument reference. */
    struct PathSpot
    {
        Loc loc;
        bool unresolved = false;
    };
    /** Where the parts of one `inject` entry were written, for the checks made once it is read. */
    struct InjectionSpots
    {
        Loc domain, format, scheme, username;
        bool domainUnresolved = false;
        bool formatUnresolved = false;
    };

    // -- diagnostics (KitDecoderScalars.cpp) ---------------------------------------------
    void report(Diagnostic::Severity severity, Loc loc, const QString &message);
    void error(Loc loc, const QString &message) { report(Diagnostic::Severity::Error, loc, message); }
    void warning(Loc loc, const QString &message) { report(Diagnostic::Severity::Warning, loc, message); }
    static Loc valueLoc(const YAML::Node &value, const YAML::Node &key);
    Loc offsetLoc(qsizetype offset) const;
    Loc referenceLoc(const YAML::Node &scalar, const YAML::Node &key, const QString &written) const;

    // -- structure (KitDecoderScalars.cpp) -----------------------------------------------
    Handler reader(Reader read);
    /** A handler reading a list of mappings with @p readItem, through eachMapping(). */
    Handler listReader(Reader readItem);
    void fields(const YAML::Node &map, const At &at, const std::vector<Field> &known);
    void unknownField(const YAML::Node &key, const At &at, const std::vector<Field> &known);
    bool expectMap(const YAML::Node &value, const YAML::Node &key, const At &at);
    bool expectSequence(const YAML::Node &value, const YAML::Node &key, const At &at);
    /** Calls @p read for each item of the list @p value, once it is checked to be a mapping. */
    void eachMapping(const YAML::Node &value, const YAML::Node &key, const At &at, Reader read);

    // -- scalars (KitDecoderScalars.cpp) -------------------------------------------------
    std::optional<QString> scalarText(const YAML::Node &value, const YAML::Node &key, const At &at,
                                      const QString &expected, bool *unresolved);
    QString str(const YAML::Node &value, const YAML::Node &key, const At &at, bool *unresolved = nullptr);
    std::optional<bool> boolean(const YAML::Node &value, const YAML::Node &key, const At &at);
    std::optional<qint64> integer(const YAML::Node &value, const YAML::Node &key, const At &at);
    std::optional<double> number(const YAML::Node &value, const YAML::Node &key, const At &at);
    QStringList strList(const YAML::Node &value, const YAML::Node &key, const At &at);
    QList<QPair<QString, QString>> strMap(const YAML::Node &value, const YAML::Node &key, const At &at,
                                          const std::function<void(const QString &, Loc)> &checkKey = {});
    QJsonValue anyValue(const YAML::Node &value, const YAML::Node &key, const At &at, int depth);
    void checkUniqueList(const YAML::Node &value, const YAML::Node &key, const At &at, const QStringList &items,
                         const std::function<QString(const QString &)> &invalid);

    // -- args (KitDecoderArgs.cpp) -------------------------------------------------------
    void readArgs(const YAML::Node &value, const YAML::Node &key);
    void readArg(ArgEntry entry, const YAML::Node &nameNode, const YAML::Node &body, const At &argAt);
    void checkArg(ArgEntry &entry, Loc enumLoc, Loc patternLoc);
    void resolveArgs(const YAML::Node &argsKey);
    bool acceptsArgValue(const ArgEntry &entry, const QString &value);

    // -- the top level and whole-kit rules (KitDecoderComposition.cpp) --------------------
    void readKind(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readName(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readLicenses(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readLocked(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readExtends(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readMixins(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readRequires(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readRequiredAgent(const YAML::Node &value, const YAML::Node &key, const At &at);
    void checkRequiredFields(const YAML::Node &root, bool hasSchemaVersion, bool hasName);
    void checkComposition();
    void checkInjectDomains();

    // -- blocks (KitDecoderBlocks.cpp) ---------------------------------------------------
    void readSecurity(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSandboxField(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSandbox(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readBuild(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readEntrypoint(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readCommand(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readResources(SandboxBlock &sandbox, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readMemory(Resources &resources, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readAgentInstructions(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readPermissions(const YAML::Node &value, const YAML::Node &key, const At &at);
    /** A warning at each entry of `permissions.network.allow` that is a host grant. */
    void warnHostGrants(const YAML::Node &allow);
    void readNetwork(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readEnvironment(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readVariables(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSetup(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readInstallEntry(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readInstallCommand(InstallCommand &command, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readStartupEntry(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readStartupCommand(StartupCommand &command, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSetupFile(const YAML::Node &value, const YAML::Node &key, const At &at);
    void checkSetupFileContent(const SetupFile &file, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readPortsField(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readPublishedPorts(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readPorts(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readPort(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readVolume(const YAML::Node &value, const YAML::Node &key, const At &at);
    /** An octal file mode such as @p example ("0644"); empty when absent. */
    QString octalMode(const YAML::Node &value, const YAML::Node &key, const At &at, const char *example);
    /** The `path` field of a setup file or volume, read into @p path. */
    Field pathField(QString *path, PathSpot *spot);
    /** The `path` of a setup file or volume must be there, and absolute once resolved. */
    void checkAbsolutePath(const QString &path, const PathSpot &spot, const At &at);

    // -- credentials (KitDecoderCredentials.cpp) -----------------------------------------
    void readCredentials(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readCredential(const YAML::Node &value, const YAML::Node &key, const At &at);
    void readApiKey(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readApiKeyName(ApiKey &apiKey, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readInjection(ApiKey &apiKey, const YAML::Node &value, const YAML::Node &key, const At &at);
    void resolveInjectionScheme(Injection &inject, const InjectionSpots &spots, const YAML::Node &value,
                                const YAML::Node &key, const At &at);
    void readOAuth(Credential &credential, const YAML::Node &value, const YAML::Node &key, const At &at);
    bool readTokenEndpoint(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSentinels(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readCredentialFile(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readSkipIfEnv(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at);
    void readResponseFields(OAuth &oauth, const YAML::Node &value, const YAML::Node &key, const At &at);

    QString m_file;
    QByteArray m_source;
    const KitLoadOptions &m_options;
    QList<Diagnostic> &m_diagnostics;
    std::vector<qsizetype> m_lineStarts;

    Kit m_kit;
    QList<ArgEntry> m_args;
    QMap<QString, QString> m_values; // resolved argument values
    bool m_substitute = true;        // false while reading the args: block itself
    int m_structureNodes = 0;

    // What the composition rules need once every field is read.
    std::optional<Loc> m_kindLoc;
    bool m_kindValid = false;
    std::optional<Loc> m_sandboxLoc, m_extendsLoc, m_mixinsLoc, m_requiresLoc, m_nameLoc;
    Loc m_imageLoc;
    std::optional<Loc> m_buildLoc, m_filenameLoc, m_portsLoc, m_publishedPortsLoc;
    struct InjectSite
    {
        QString service;
        QString domain;
        Loc loc;
        bool unresolved = false;
    };
    QList<InjectSite> m_injectSites;
};

/** Parses @p text into @p root (refusing deep nesting first), or says why it cannot be. */
bool parseYaml(const QByteArray &text, const QString &fileName, YAML::Node &root, QList<Diagnostic> &diagnostics);

/**
 * The diagnostics for a schemaVersion "1" kit: one error saying v1 is not supported and how
 * to migrate, then one per legacy block naming its v2 replacement, in file order.
 */
void refuseV1(const YAML::Node &root, const YAML::Node &versionValue, const QString &file, QList<Diagnostic> &out);

} // namespace paddock::kit::detail
