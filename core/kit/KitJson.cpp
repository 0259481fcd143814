// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitJson.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::kit {

namespace {

void putText(QJsonObject &object, const char *key, const QString &value)
{
    if (!value.isEmpty())
        object.insert(QLatin1String(key), value);
}

void putList(QJsonObject &object, const char *key, const QStringList &values)
{
    if (!values.isEmpty())
        object.insert(QLatin1String(key), QJsonArray::fromStringList(values));
}

QJsonObject pairsObject(const QList<QPair<QString, QString>> &pairs)
{
    QJsonObject object;
    for (const auto &pair : pairs)
        object.insert(pair.first, pair.second);
    return object;
}

/** @p list as a JSON array, each item written by @p toJson. */
template<typename Item, typename ToJson>
QJsonArray arrayOf(const QList<Item> &list, ToJson toJson)
{
    QJsonArray array;
    for (const Item &item : list)
        array.append(toJson(item));
    return array;
}

QJsonObject injectionJson(const Injection &inject)
{
    QJsonObject object;
    object.insert(QStringLiteral("domain"), inject.domain);
    object.insert(QStringLiteral("header"), inject.header);
    object.insert(QStringLiteral("format"), inject.format);
    putText(object, "username", inject.username);
    putText(object, "scheme", inject.scheme);
    object.insert(QStringLiteral("value"), inject.encoding == Injection::Encoding::BasicAuth
                                               ? QStringLiteral("%s is base64(username:secret) (HTTP Basic)")
                                               : QStringLiteral("%s is the secret"));
    return object;
}

QJsonObject credentialJson(const Credential &credential)
{
    QJsonObject object;
    object.insert(QStringLiteral("service"), credential.service);
    putText(object, "description", credential.description);
    object.insert(QStringLiteral("required"), credential.required);
    putText(object, "provider", credential.provider);
    if (credential.apiKey) {
        QJsonObject apiKey;
        apiKey.insert(QStringLiteral("name"), credential.apiKey->name);
        apiKey.insert(QStringLiteral("proxyManaged"), credential.apiKey->proxyManaged);
        apiKey.insert(QStringLiteral("inject"), arrayOf(credential.apiKey->inject, injectionJson));
        object.insert(QStringLiteral("apiKey"), apiKey);
    }
    if (credential.oauth) {
        const OAuth &o = *credential.oauth;
        QJsonObject oauth;
        oauth.insert(QStringLiteral("tokenEndpoint"),
                     QJsonObject{{QStringLiteral("host"), o.tokenHost}, {QStringLiteral("path"), o.tokenPath}});
        putList(oauth, "resourceHosts", o.resourceHosts);
        QJsonObject sentinels;
        putText(sentinels, "accessToken", o.accessTokenSentinel);
        putText(sentinels, "refreshToken", o.refreshTokenSentinel);
        oauth.insert(QStringLiteral("sentinels"), sentinels);
        if (o.hasCredentialFile) {
            QJsonObject file;
            file.insert(QStringLiteral("path"), o.credentialFilePath);
            putText(file, "template", o.credentialFileTemplate);
            if (!o.credentialFileStructure.isEmpty())
                file.insert(QStringLiteral("structure"), o.credentialFileStructure);
            oauth.insert(QStringLiteral("credentialFile"), file);
        }
        putList(oauth, "skipIfEnv", o.skipIfEnv);
        QJsonObject fields;
        putText(fields, "accessToken", o.responseAccessToken);
        putText(fields, "refreshToken", o.responseRefreshToken);
        putText(fields, "expiresIn", o.responseExpiresIn);
        putText(fields, "scope", o.responseScope);
        if (!fields.isEmpty())
            oauth.insert(QStringLiteral("responseFields"), fields);
        oauth.insert(QStringLiteral("passthrough"), o.passthrough);
        object.insert(QStringLiteral("oauth"), oauth);
    }
    return object;
}

QJsonObject sandboxJson(const SandboxBlock &sandbox)
{
    QJsonObject object;
    putText(object, "image", sandbox.image);
    if (sandbox.build) {
        const BuildConfig &b = *sandbox.build;
        QJsonObject build;
        putText(build, "context", b.context);
        putText(build, "dockerfile", b.dockerfile);
        if (!b.args.isEmpty())
            build.insert(QStringLiteral("args"), pairsObject(b.args));
        putText(build, "target", b.target);
        putList(build, "platforms", b.platforms);
        object.insert(QStringLiteral("build"), build);
    }
    object.insert(QStringLiteral("entrypoint"), QJsonArray::fromStringList(sandbox.entrypoint));
    object.insert(
        QStringLiteral("command"),
        QJsonObject{{QStringLiteral("default"), QJsonArray::fromStringList(sandbox.commandDefault)},
                    {QStringLiteral("interactive"),
                     QJsonArray::fromStringList(sandbox.commandInteractive.value_or(sandbox.commandDefault))}});
    if (sandbox.resources) {
        const Resources &r = *sandbox.resources;
        QJsonObject resources;
        if (r.cpu)
            resources.insert(QStringLiteral("cpu"), *r.cpu);
        putText(resources, "memory", r.memory);
        if (r.memoryBytes)
            resources.insert(QStringLiteral("memoryBytes"), double(*r.memoryBytes));
        putText(resources, "gpu", r.gpu);
        object.insert(QStringLiteral("resources"), resources);
    }
    return object;
}

QJsonObject argsJson(const Kit &kit)
{
    QJsonObject args;
    for (const ArgDeclaration &decl : kit.args) {
        QJsonObject arg;
        if (decl.defaultValue)
            arg.insert(QStringLiteral("default"), *decl.defaultValue);
        if (decl.required)
            arg.insert(QStringLiteral("required"), true);
        putText(arg, "description", decl.description);
        putList(arg, "enum", decl.enumValues);
        putText(arg, "pattern", decl.pattern);
        if (kit.argValues.contains(decl.name))
            arg.insert(QStringLiteral("value"), kit.argValues.value(decl.name));
        args.insert(decl.name, arg);
    }
    return args;
}

QJsonObject portJson(const Port &port)
{
    QJsonObject object{{QStringLiteral("container"), port.container}, {QStringLiteral("protocol"), port.protocol}};
    putText(object, "name", port.name);
    return object;
}

QJsonObject installJson(const InstallCommand &command)
{
    QJsonObject object{{QStringLiteral("command"), command.command},
                       {QStringLiteral("user"), command.user.isEmpty() ? QStringLiteral("0") : command.user}};
    putText(object, "description", command.description);
    if (command.environment)
        object.insert(QStringLiteral("env"), QJsonArray::fromStringList(*command.environment));
    return object;
}

QJsonObject startupJson(const StartupCommand &command)
{
    QJsonObject object{{QStringLiteral("command"), QJsonArray::fromStringList(command.command)},
                       {QStringLiteral("user"), command.user.isEmpty() ? QStringLiteral("1000") : command.user},
                       {QStringLiteral("background"), command.background}};
    putText(object, "description", command.description);
    if (command.environment)
        object.insert(QStringLiteral("env"), QJsonArray::fromStringList(*command.environment));
    return object;
}

QJsonObject setupFileJson(const SetupFile &file)
{
    QJsonObject object{{QStringLiteral("path"), file.path},
                       {QStringLiteral("content"), file.content},
                       {QStringLiteral("mode"), file.mode.isEmpty() ? QStringLiteral("0644") : file.mode},
                       {QStringLiteral("onlyIfMissing"), file.onlyIfMissing}};
    putText(object, "description", file.description);
    return object;
}

/** The setup block; empty when the kit declares no install, startup or file. */
QJsonObject setupJson(const Setup &kitSetup)
{
    QJsonObject setup;
    if (!kitSetup.install.isEmpty())
        setup.insert(QStringLiteral("install"), arrayOf(kitSetup.install, installJson));
    if (!kitSetup.startup.isEmpty())
        setup.insert(QStringLiteral("startup"), arrayOf(kitSetup.startup, startupJson));
    if (!kitSetup.files.isEmpty())
        setup.insert(QStringLiteral("files"), arrayOf(kitSetup.files, setupFileJson));
    return setup;
}

QJsonObject volumeJson(const Volume &volume)
{
    QJsonObject object{{QStringLiteral("path"), volume.path}, {QStringLiteral("type"), volume.type}};
    putText(object, "size", volume.size);
    putText(object, "mode", volume.mode);
    return object;
}

// Text form: one "key: value" per line, nested blocks indented by two spaces.
class TextWriter
{
public:
    void line(int depth, const QString &key, const QString &value = {})
    {
        m_text += QString(depth * 2, QLatin1Char(' ')) + key;
        if (!value.isNull())
            m_text += QStringLiteral(": ") + value;
        else
            m_text += QLatin1Char(':');
        m_text += QLatin1Char('\n');
    }
    void optional(int depth, const QString &key, const QString &value)
    {
        if (!value.isEmpty())
            line(depth, key, quoteIfNeeded(value));
    }
    void list(int depth, const QString &key, const QStringList &values)
    {
        if (values.isEmpty())
            return;
        line(depth, key);
        for (const QString &value : values)
            m_text += QString(depth * 2 + 2, QLatin1Char(' ')) + QStringLiteral("- ") + quoteIfNeeded(value) +
                      QLatin1Char('\n');
    }
    void block(int depth, const QString &key, const QString &text)
    {
        if (text.isEmpty())
            return;
        if (!text.contains(QLatin1Char('\n'))) {
            optional(depth, key, text);
            return;
        }
        line(depth, key, QStringLiteral("|"));
        const QStringList lines =
            text.endsWith(QLatin1Char('\n')) ? text.chopped(1).split(QLatin1Char('\n')) : text.split(QLatin1Char('\n'));
        for (const QString &l : lines)
            m_text += QString(depth * 2 + 2, QLatin1Char(' ')) + l + QLatin1Char('\n');
    }
    static QString argv(const QStringList &args)
    {
        QStringList quoted;
        for (const QString &a : args)
            quoted << QString::fromUtf8(QJsonDocument(QJsonArray{a}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        return QLatin1Char('[') + quoted.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    static QString quoteIfNeeded(const QString &value)
    {
        if (value.isEmpty() || value.contains(QLatin1Char('\n')) || value != value.trimmed())
            return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
        return value;
    }
    QString text() const { return m_text; }

private:
    QString m_text;
};

void writeSandbox(TextWriter &w, const SandboxBlock &s)
{
    w.line(0, QStringLiteral("sandbox"));
    w.optional(1, QStringLiteral("image"), s.image);
    if (s.build)
        w.line(1, QStringLiteral("build"), QStringLiteral("declared (not built: the image above is used)"));
    w.line(1, QStringLiteral("run"), TextWriter::argv(s.defaultArgv()));
    w.line(1, QStringLiteral("run interactive"), TextWriter::argv(s.interactiveArgv()));
    if (s.resources) {
        w.line(1, QStringLiteral("resources"));
        if (s.resources->cpu)
            w.line(2, QStringLiteral("cpu"), QString::number(*s.resources->cpu));
        w.optional(2, QStringLiteral("memory"), s.resources->memory);
        w.optional(2, QStringLiteral("gpu"), s.resources->gpu);
    }
}

void writeCredential(TextWriter &w, const Credential &c)
{
    w.line(1, QStringLiteral("- service"), c.service);
    w.optional(2, QStringLiteral("description"), c.description);
    w.line(2, QStringLiteral("required"), c.required ? QStringLiteral("true") : QStringLiteral("false"));
    if (c.apiKey) {
        w.line(2, QStringLiteral("apiKey"));
        w.line(3, QStringLiteral("name"), c.apiKey->name.isEmpty() ? QStringLiteral("(no variable)") : c.apiKey->name);
        w.line(3, QStringLiteral("proxyManaged"),
               c.apiKey->proxyManaged ? QStringLiteral("true") : QStringLiteral("false"));
        for (const Injection &i : c.apiKey->inject) {
            QString how = QStringLiteral("%1: %2").arg(i.header, i.format);
            if (i.encoding == Injection::Encoding::BasicAuth)
                how += QStringLiteral(" with %s = base64(%1:secret)").arg(i.username);
            w.line(3, QStringLiteral("- inject %1").arg(i.domain), how);
        }
    }
    if (c.oauth) {
        w.line(2, QStringLiteral("oauth"));
        w.line(3, QStringLiteral("tokenEndpoint"), c.oauth->tokenHost + c.oauth->tokenPath);
        w.list(3, QStringLiteral("resourceHosts"), c.oauth->resourceHosts);
        w.optional(3, QStringLiteral("credentialFile"), c.oauth->credentialFilePath);
        if (c.oauth->passthrough)
            w.line(3, QStringLiteral("passthrough"), QStringLiteral("true (the sandbox sees the real token)"));
    }
}

void writeSetup(TextWriter &w, const Setup &setup)
{
    w.line(0, QStringLiteral("setup"));
    for (const InstallCommand &c : setup.install)
        w.block(1, QStringLiteral("- install (user %1)").arg(c.user.isEmpty() ? QStringLiteral("0") : c.user),
                c.command);
    for (const StartupCommand &c : setup.startup)
        w.line(1,
               QStringLiteral("- startup (user %1%2)")
                   .arg(c.user.isEmpty() ? QStringLiteral("1000") : c.user,
                        c.background ? QStringLiteral(", background") : QString()),
               TextWriter::argv(c.command));
    for (const SetupFile &f : setup.files)
        w.line(1, QStringLiteral("- file %1").arg(f.path),
               QStringLiteral("mode %1%2")
                   .arg(f.mode.isEmpty() ? QStringLiteral("0644") : f.mode,
                        f.onlyIfMissing ? QStringLiteral(", only if missing") : QString()));
}

} // namespace

QJsonObject toJson(const Kit &kit)
{
    QJsonObject object;
    object.insert(QStringLiteral("schemaVersion"), kit.schemaVersion);
    object.insert(QStringLiteral("kind"), kindName(kit.kind));
    object.insert(QStringLiteral("name"), kit.name);
    putText(object, "version", kit.version);
    putText(object, "displayName", kit.displayName);
    putText(object, "description", kit.description);
    putText(object, "sourceURL", kit.sourceURL);
    putList(object, "licenses", kit.licenses);
    putList(object, "locked", kit.locked);
    if (kit.privileged)
        object.insert(QStringLiteral("security"), QJsonObject{{QStringLiteral("privileged"), *kit.privileged}});
    if (!kit.args.isEmpty())
        object.insert(QStringLiteral("args"), argsJson(kit));
    if (kit.sandbox)
        object.insert(QStringLiteral("sandbox"), sandboxJson(*kit.sandbox));
    putText(object, "extends", kit.extends);
    putList(object, "mixins", kit.mixins);
    if (!kit.requiresAgent.isEmpty())
        object.insert(QStringLiteral("requires"), QJsonObject{{QStringLiteral("agent"), kit.requiresAgent}});
    if (kit.agentInstructions) {
        QJsonObject instructions;
        putText(instructions, "filename", kit.agentInstructions->filename);
        putText(instructions, "content", kit.agentInstructions->content);
        object.insert(QStringLiteral("agentInstructions"), instructions);
    }
    if (!kit.networkAllow.isEmpty() || !kit.networkDeny.isEmpty()) {
        QJsonObject network;
        network.insert(QStringLiteral("allow"), QJsonArray::fromStringList(kit.networkAllow));
        network.insert(QStringLiteral("deny"), QJsonArray::fromStringList(kit.networkDeny));
        object.insert(QStringLiteral("permissions"), QJsonObject{{QStringLiteral("network"), network}});
    }
    if (!kit.ports.isEmpty())
        object.insert(QStringLiteral("ports"), arrayOf(kit.ports, portJson));
    if (!kit.credentials.isEmpty())
        object.insert(QStringLiteral("credentials"), arrayOf(kit.credentials, credentialJson));
    if (!kit.environment.isEmpty())
        object.insert(QStringLiteral("environment"),
                      QJsonObject{{QStringLiteral("variables"), pairsObject(kit.environment)}});
    const QJsonObject setup = setupJson(kit.setup);
    if (!setup.isEmpty())
        object.insert(QStringLiteral("setup"), setup);
    if (!kit.volumes.isEmpty())
        object.insert(QStringLiteral("volumes"), arrayOf(kit.volumes, volumeJson));
    if (!kit.files.isEmpty()) {
        QJsonArray files;
        for (const KitFile &f : kit.files)
            files.append(QJsonObject{{QStringLiteral("target"), f.target}, {QStringLiteral("path"), f.relativePath}});
        object.insert(QStringLiteral("files"), files);
    }
    // A schemaVersion "3" kit: where it came from and what became of each capability it requests.
    putText(object, "reference", kit.reference);
    putText(object, "digest", kit.digest);
    putList(object, "provides", kit.provides);
    QJsonArray capabilities;
    for (const CapabilityOutcome &c : kit.capabilities)
        capabilities.append(QJsonObject{{QStringLiteral("type"), c.type},
                                        {QStringLiteral("name"), c.label},
                                        {QStringLiteral("status"), outcomeName(c.status)},
                                        {QStringLiteral("what"), c.what}});
    if (!capabilities.isEmpty())
        object.insert(QStringLiteral("capabilities"), capabilities);
    return object;
}

QString toText(const Kit &kit)
{
    TextWriter w;
    w.line(0, QStringLiteral("name"), kit.name);
    w.line(0, QStringLiteral("kind"), kindName(kit.kind));
    w.optional(0, QStringLiteral("version"), kit.version);
    w.optional(0, QStringLiteral("displayName"), kit.displayName);
    w.optional(0, QStringLiteral("description"), kit.description);
    w.optional(0, QStringLiteral("sourceURL"), kit.sourceURL);
    w.list(0, QStringLiteral("licenses"), kit.licenses);
    w.list(0, QStringLiteral("locked"), kit.locked);
    if (kit.privileged)
        w.line(0, QStringLiteral("privileged"), *kit.privileged ? QStringLiteral("true") : QStringLiteral("false"));
    if (!kit.args.isEmpty()) {
        w.line(0, QStringLiteral("args"));
        for (const ArgDeclaration &decl : kit.args)
            w.line(1, decl.name,
                   kit.argValues.contains(decl.name) ? TextWriter::quoteIfNeeded(kit.argValues.value(decl.name))
                                                     : QStringLiteral("(no value)"));
    }
    if (kit.sandbox)
        writeSandbox(w, *kit.sandbox);
    w.optional(0, QStringLiteral("extends"), kit.extends);
    w.list(0, QStringLiteral("mixins"), kit.mixins);
    w.optional(0, QStringLiteral("requires agent"), kit.requiresAgent);
    if (kit.agentInstructions) {
        w.line(0, QStringLiteral("agentInstructions"));
        w.optional(1, QStringLiteral("filename"), kit.agentInstructions->filename);
        w.block(1, QStringLiteral("content"), kit.agentInstructions->content);
    }
    if (!kit.networkAllow.isEmpty() || !kit.networkDeny.isEmpty()) {
        w.line(0, QStringLiteral("network"));
        w.list(1, QStringLiteral("allow"), kit.networkAllow);
        w.list(1, QStringLiteral("deny"), kit.networkDeny);
    }
    if (!kit.ports.isEmpty()) {
        w.line(0, QStringLiteral("ports"));
        for (const Port &p : kit.ports)
            w.line(1, QStringLiteral("- %1/%2").arg(p.container).arg(p.protocol),
                   p.name.isEmpty() ? QString() : p.name);
    }
    if (!kit.credentials.isEmpty()) {
        w.line(0, QStringLiteral("credentials"));
        for (const Credential &c : kit.credentials)
            writeCredential(w, c);
    }
    if (!kit.environment.isEmpty()) {
        w.line(0, QStringLiteral("environment"));
        for (const auto &pair : kit.environment)
            w.line(1, pair.first, TextWriter::quoteIfNeeded(pair.second));
    }
    if (!kit.setup.install.isEmpty() || !kit.setup.startup.isEmpty() || !kit.setup.files.isEmpty())
        writeSetup(w, kit.setup);
    if (!kit.volumes.isEmpty()) {
        w.line(0, QStringLiteral("volumes"));
        for (const Volume &v : kit.volumes)
            w.line(1, QStringLiteral("- %1").arg(v.path),
                   QStringLiteral("%1%2").arg(v.type.isEmpty() ? QStringLiteral("volume") : v.type,
                                              v.size.isEmpty() ? QString() : QStringLiteral(", ") + v.size));
    }
    if (!kit.files.isEmpty()) {
        w.line(0, QStringLiteral("files"));
        for (const KitFile &f : kit.files)
            w.line(1, QStringLiteral("- %1/%2").arg(f.target, f.relativePath), QString());
    }
    return w.text();
}

QJsonObject toJson(const KitEntry &entry)
{
    QJsonArray diagnostics;
    for (const Diagnostic &d : entry.diagnostics) {
        diagnostics.append(QJsonObject{
            {QStringLiteral("severity"), d.isError() ? QStringLiteral("error") : QStringLiteral("warning")},
            {QStringLiteral("file"), d.file},
            {QStringLiteral("line"), d.line},
            {QStringLiteral("column"), d.column},
            {QStringLiteral("message"), d.message},
        });
    }
    return QJsonObject{
        {QStringLiteral("name"), entry.name},
        {QStringLiteral("kind"), entry.kind},
        {QStringLiteral("displayName"), entry.displayName},
        {QStringLiteral("version"), entry.version},
        {QStringLiteral("description"), entry.description},
        {QStringLiteral("directory"), entry.directory},
        {QStringLiteral("source"), sourceName(entry.source)},
        {QStringLiteral("reference"), entry.reference},
        {QStringLiteral("digest"), entry.digest},
        {QStringLiteral("valid"), entry.valid()},
        {QStringLiteral("errors"), entry.errorCount},
        {QStringLiteral("warnings"), entry.warningCount},
        {QStringLiteral("diagnostics"), diagnostics},
    };
}

} // namespace paddock::kit
