// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitEditor.h"

#include "common/AtomicFile.h"
#include "kit/KitLoader.h"
#include "kit/KitV3Authored.h"
#include "kit/KitV3Descriptor.h"
#include "kit/YamlText.h"
#include "kit/YamlTextEdit.h"
#include "kit/YamlTextPath.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QRegularExpression>

// Debug output is opt-in (QT_LOGGING_RULES): the CLI shares stderr with it.
Q_LOGGING_CATEGORY(lcKitEditor, "paddock.kit.editor", QtInfoMsg)

namespace paddock::kit {
namespace {

const QString kNetworkPolicyV3 = QStringLiteral("com.docker.sandbox/network-policy@1");

QStringList networkPath(NetworkList list)
{
    return {QStringLiteral("permissions"), QStringLiteral("network"),
            list == NetworkList::Allow ? QStringLiteral("allow") : QStringLiteral("deny")};
}

// Where one network list is, and what messages call it.
struct NetworkTarget
{
    QStringList path;
    QString name;
};

// The index of the network-policy@1 member of the group at @p group in `capabilities`.
std::optional<int> groupPolicyMember(const YAML::Node &root, int group)
{
    // A missing key reads as an invalid node, which throws when asked its type: test it first.
    const YAML::Node capabilities = root.IsMap() ? root["capabilities"] : YAML::Node();
    if (group < 0 || !capabilities || !capabilities.IsSequence() || std::size_t(group) >= capabilities.size())
        return std::nullopt;
    const YAML::Node item = capabilities[std::size_t(group)];
    const YAML::Node body = item.IsMap() ? item["group"] : YAML::Node();
    const YAML::Node members = body && body.IsMap() ? body["capabilities"] : YAML::Node();
    if (!members)
        return std::nullopt;
    return yamlpath::indexOfItem(members, QStringLiteral("[type=%1]").arg(kNetworkPolicyV3));
}

// A spec.yaml's lists are under `permissions.network`; a descriptor's under its network-policy@1
// request (added when missing), or under the one a group holds, selected by its place.
std::optional<NetworkTarget> networkTarget(const QByteArray &text, NetworkList list, NetworkScope scope, bool v3,
                                           QString *error)
{
    if (!v3) {
        if (scope.phase == NetworkPhase::Runtime && scope.group < 0)
            return NetworkTarget{networkPath(list), networkListPath(list)};
        *error = QStringLiteral("a spec.yaml has one pair of network lists, permissions.network; install-phase and "
                                "group lists belong to a schemaVersion \"3\" descriptor's network-policy@1");
        return std::nullopt;
    }
    const QString phase = scope.phase == NetworkPhase::Install ? QStringLiteral("install") : QStringLiteral("runtime");
    const QString leaf = list == NetworkList::Allow ? QStringLiteral("allow") : QStringLiteral("deny");
    const QStringList tail{QStringLiteral("config"), phase, leaf};
    const QString name = QStringLiteral("network-policy@1's %1 %2 list").arg(phase, leaf);
    if (scope.group < 0)
        return NetworkTarget{
            QStringList{QStringLiteral("capabilities"), QStringLiteral("[type=%1]").arg(kNetworkPolicyV3)} + tail,
            name};
    const YamlText yaml(text);
    if (!yaml.parsed()) {
        *error = QStringLiteral("the file is not valid YAML: %1").arg(yaml.parseError());
        return std::nullopt;
    }
    const std::optional<int> member = groupPolicyMember(yaml.root(), scope.group);
    if (!member) {
        *error = QStringLiteral("capabilities[%1] is not a group holding a network-policy@1 request; add the request "
                                "to the group in the descriptor's text")
                     .arg(scope.group);
        return std::nullopt;
    }
    const YAML::Node group = yaml.root()["capabilities"][std::size_t(scope.group)]["group"];
    const YAML::Node named = group["name"];
    const QString groupName = named && named.IsScalar() ? QString::fromStdString(named.Scalar()) : QString();
    const QStringList path{QStringLiteral("capabilities"), QStringLiteral("[%1]").arg(scope.group),
                           QStringLiteral("group"), QStringLiteral("capabilities"),
                           QStringLiteral("[%1]").arg(*member)};
    return NetworkTarget{path + tail,
                         groupName.isEmpty()
                             ? QStringLiteral("%1 in the group at capabilities[%2]").arg(name).arg(scope.group)
                             : QStringLiteral("%1 in group %2").arg(name, groupName)};
}

QStringList variablePath(const QString &name)
{
    return {QStringLiteral("environment"), QStringLiteral("variables"), name};
}

KitEditResult refuse(const QString &message)
{
    return {KitEditResult::Status::Failed, message};
}

// The items of the sequence at @p path, as text; std::nullopt when the file does not parse.
std::optional<QStringList> sequenceItems(const QByteArray &text, const QStringList &path, QString *error)
{
    const YamlText yaml(text);
    if (!yaml.parsed()) {
        *error = QStringLiteral("the file is not valid YAML: %1").arg(yaml.parseError());
        return std::nullopt;
    }
    YAML::Node node = yaml.root();
    for (const QString &key : path) {
        if (yamlpath::isSelector(key)) {
            const std::optional<YAML::Node> item = yamlpath::selectItem(node, key);
            if (!item)
                return QStringList{};
            node.reset(*item);
            continue;
        }
        if (!node.IsMap())
            return QStringList{};
        YAML::Node next = node[key.toStdString()];
        node.reset(next);
    }
    QStringList items;
    if (node.IsSequence()) {
        for (const YAML::Node &item : node)
            items << (item.IsScalar() ? QString::fromStdString(item.Scalar()) : QString());
    }
    return items;
}

qsizetype indexOfPattern(const QStringList &patterns, const QString &pattern)
{
    for (qsizetype i = 0; i < patterns.size(); ++i) {
        if (patterns.at(i).compare(pattern, Qt::CaseInsensitive) == 0)
            return i;
    }
    return -1;
}

QString firstError(const QList<Diagnostic> &diagnostics)
{
    for (const Diagnostic &d : diagnostics) {
        if (d.isError())
            return d.toString();
    }
    return QStringLiteral("the kit loader reported no details");
}

} // namespace

QString networkListPath(NetworkList list)
{
    return networkPath(list).join(QLatin1Char('.'));
}

std::optional<KitEditor> KitEditor::open(const QString &kitDir, QString *error)
{
    const QFileInfo info(kitDir);
    QString path = kitDir;
    if (!info.exists()) {
        *error = QStringLiteral("%1 does not exist").arg(kitDir);
        return std::nullopt;
    }
    if (info.isDir()) {
        path = QDir(kitDir).filePath(QStringLiteral("spec.yaml"));
        // An authored schemaVersion "3" kit: STEM/STEM.yaml, or the folder's only descriptor.
        QString ignored;
        if (!QFileInfo::exists(path))
            path = authoredDescriptorFile(kitDir, &ignored);
        if (path.isEmpty()) {
            *error = QStringLiteral("%1 has no spec.yaml, so it is not a kit").arg(kitDir);
            return std::nullopt;
        }
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray text = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const YamlText yaml(text);
    if (!yaml.parsed()) {
        *error = QStringLiteral("%1 is not valid YAML: %2").arg(path, yaml.parseError());
        return std::nullopt;
    }
    return fromText(text, path);
}

KitEditor KitEditor::fromText(const QByteArray &text, const QString &filePath)
{
    KitEditor editor;
    editor.m_filePath = filePath;
    editor.m_text = text;
    editor.m_original = text;
    editor.m_v3 = declaresSchemaV3(text);
    return editor;
}

KitEditResult KitEditor::apply(const YamlEditOutcome &outcome, const QString &changedMessage,
                               const QString &unchangedMessage)
{
    switch (outcome.status) {
    case YamlEditOutcome::Status::Changed:
        m_text = outcome.text;
        qCDebug(lcKitEditor) << changedMessage;
        return {KitEditResult::Status::Changed, changedMessage};
    case YamlEditOutcome::Status::Unchanged:
        return {KitEditResult::Status::Unchanged, unchangedMessage};
    case YamlEditOutcome::Status::Failed:
        break;
    }
    return refuse(outcome.error);
}

QStringList KitEditor::networkPatterns(NetworkList list, NetworkScope scope) const
{
    QString error;
    const std::optional<NetworkTarget> target = networkTarget(m_text, list, scope, m_v3, &error);
    if (!target)
        return {};
    return sequenceItems(m_text, target->path, &error).value_or(QStringList{});
}

QList<int> KitEditor::networkPolicyGroups() const
{
    QList<int> groups;
    const YamlText yaml(m_text);
    if (!m_v3 || !yaml.parsed() || !yaml.root().IsMap())
        return groups;
    const YAML::Node capabilities = yaml.root()["capabilities"];
    for (std::size_t i = 0; capabilities && capabilities.IsSequence() && i < capabilities.size(); ++i) {
        if (groupPolicyMember(yaml.root(), int(i)))
            groups << int(i);
    }
    return groups;
}

KitEditResult KitEditor::addNetworkPattern(NetworkList list, const QString &pattern, NetworkScope scope)
{
    QString error;
    const std::optional<NetworkTarget> target = networkTarget(m_text, list, scope, m_v3, &error);
    if (!target)
        return refuse(error);
    if (pattern.trimmed().isEmpty())
        return refuse(QStringLiteral("an empty pattern cannot be added to %1").arg(target->name));
    // The descriptor's decoder applies the same rule to every entry it reads.
    if (const std::optional<QString> problem = m_v3 ? v3NetworkEntryProblem(pattern) : std::nullopt)
        return refuse(*problem);
    const std::optional<QStringList> items = sequenceItems(m_text, target->path, &error);
    if (!items)
        return refuse(error);
    if (items->contains(pattern, Qt::CaseInsensitive))
        return {KitEditResult::Status::Unchanged, QStringLiteral("%1 is already in %2").arg(pattern, target->name)};
    return apply(YamlTextEdit::appendToSequence(m_text, target->path, pattern),
                 QStringLiteral("added %1 to %2").arg(pattern, target->name), {});
}

KitEditResult KitEditor::removeNetworkPattern(NetworkList list, const QString &pattern, NetworkScope scope)
{
    QString error;
    const std::optional<NetworkTarget> target = networkTarget(m_text, list, scope, m_v3, &error);
    if (!target)
        return refuse(error);
    const QStringList &path = target->path;
    std::optional<QStringList> items = sequenceItems(m_text, path, &error);
    if (!items)
        return refuse(error);
    if (!items->contains(pattern, Qt::CaseInsensitive))
        return {KitEditResult::Status::Unchanged, QStringLiteral("%1 is not in %2").arg(pattern, target->name)};
    // A pattern listed twice is removed everywhere, so it is really gone afterwards. A group's
    // member is selected by its place, so emptying it leaves the member in its group.
    QByteArray text = m_text;
    for (qsizetype index = indexOfPattern(*items, pattern); index >= 0; index = indexOfPattern(*items, pattern)) {
        const YamlEditOutcome outcome = YamlTextEdit::removeFromSequence(text, path, int(index));
        if (outcome.status == YamlEditOutcome::Status::Failed)
            return refuse(outcome.error);
        text = outcome.text;
        items = sequenceItems(text, path, &error);
        if (!items)
            return refuse(error);
    }
    m_text = text;
    return {KitEditResult::Status::Changed, QStringLiteral("removed %1 from %2").arg(pattern, target->name)};
}

KitEditResult KitEditor::setEnvironmentVariable(const QString &name, const QString &value)
{
    static const QRegularExpression validName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!validName.match(name).hasMatch())
        return refuse(QStringLiteral("'%1' is not a valid variable name: use letters, digits and '_', "
                                     "not starting with a digit")
                          .arg(name));
    return apply(YamlTextEdit::setScalar(m_text, variablePath(name), value),
                 QStringLiteral("set environment variable %1").arg(name),
                 QStringLiteral("environment variable %1 already has that value").arg(name));
}

KitEditResult KitEditor::removeEnvironmentVariable(const QString &name)
{
    return apply(YamlTextEdit::removeEntry(m_text, variablePath(name)),
                 QStringLiteral("removed environment variable %1").arg(name),
                 QStringLiteral("environment variable %1 is not set in environment.variables").arg(name));
}

KitEditResult KitEditor::setScalar(const QString &dottedPath, const QString &value)
{
    const QStringList path = dottedPath.split(QLatin1Char('.'));
    if (dottedPath.isEmpty() || path.contains(QString()))
        return refuse(QStringLiteral("'%1' is not a field path like sandbox.image").arg(dottedPath));
    return apply(YamlTextEdit::setScalar(m_text, path, value), QStringLiteral("set %1").arg(dottedPath),
                 QStringLiteral("%1 already has that value").arg(dottedPath));
}

QList<Diagnostic> KitEditor::validate() const
{
    return check(m_text).diagnostics;
}

KitLoadResult KitEditor::check(const QByteArray &text) const
{
    if (!m_v3)
        return KitLoader::loadText(text, m_filePath.isEmpty() ? QStringLiteral("spec.yaml") : m_filePath);
    // A descriptor is decoded strictly, as `paddock kit build` decodes it.
    const V3DecodeResult decoded =
        decodeV3Descriptor(text, m_filePath.isEmpty() ? QStringLiteral("descriptor.yaml") : m_filePath);
    KitLoadResult result;
    result.diagnostics = decoded.diagnostics;
    if (decoded.descriptor)
        result.kit = Kit{};
    return result;
}

bool KitEditor::save(QString *error, QList<Diagnostic> *diagnostics)
{
    QString ignored;
    QString &message = error ? *error : ignored;
    if (!isModified())
        return true;
    if (m_filePath.isEmpty()) {
        message = QStringLiteral("the kit has no file to save to");
        return false;
    }

    const KitLoadResult result = check(m_text);
    if (diagnostics)
        *diagnostics = result.diagnostics;
    if (!result.ok()) {
        const KitLoadResult before = check(m_original);
        if (!before.ok())
            message = QStringLiteral("%1 is not a valid kit even before this change, so it was not saved; "
                                     "fix it first (%2)")
                          .arg(m_filePath, firstError(before.diagnostics));
        else
            message = QStringLiteral("the change would make %1 an invalid kit, so it was not saved (%2)")
                          .arg(m_filePath, firstError(result.diagnostics));
        return false;
    }

    // Someone else's edit since open() must not be overwritten silently.
    QFile current(m_filePath);
    if (!current.open(QIODevice::ReadOnly) || current.readAll() != m_original) {
        message = QStringLiteral("%1 changed on disk since it was read, so it was not saved; "
                                 "open it again and redo the change")
                      .arg(m_filePath);
        return false;
    }
    current.close();

    // Write through a symbolic link rather than replacing the link with a file.
    const QString target = QFileInfo(m_filePath).canonicalFilePath();
    QString writeError;
    if (!writeFileAtomically(target.isEmpty() ? m_filePath : target, m_text, &writeError)) {
        message = QStringLiteral("cannot save %1: %2").arg(m_filePath, writeError);
        return false;
    }
    m_original = m_text;
    return true;
}

} // namespace paddock::kit
