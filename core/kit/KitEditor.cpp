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

// A descriptor's runtime lists: the list under its network-policy@1 request (added when missing).
QStringList networkPath(NetworkList list, bool v3)
{
    if (!v3)
        return networkPath(list);
    return {QStringLiteral("capabilities"), QStringLiteral("[type=%1]").arg(kNetworkPolicyV3), QStringLiteral("config"),
            QStringLiteral("runtime"), list == NetworkList::Allow ? QStringLiteral("allow") : QStringLiteral("deny")};
}

QString listName(NetworkList list, bool v3)
{
    if (!v3)
        return networkListPath(list);
    return list == NetworkList::Allow ? QStringLiteral("network-policy@1's runtime allow list")
                                      : QStringLiteral("network-policy@1's runtime deny list");
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

QStringList KitEditor::networkPatterns(NetworkList list) const
{
    QString error;
    return sequenceItems(m_text, networkPath(list, m_v3), &error).value_or(QStringList{});
}

KitEditResult KitEditor::addNetworkPattern(NetworkList list, const QString &pattern)
{
    const QString where = listName(list, m_v3);
    if (pattern.trimmed().isEmpty())
        return refuse(QStringLiteral("an empty pattern cannot be added to %1").arg(where));
    // The descriptor's decoder applies the same rule to every entry it reads.
    if (const std::optional<QString> problem = m_v3 ? v3NetworkEntryProblem(pattern) : std::nullopt)
        return refuse(*problem);
    QString error;
    const std::optional<QStringList> items = sequenceItems(m_text, networkPath(list, m_v3), &error);
    if (!items)
        return refuse(error);
    if (items->contains(pattern, Qt::CaseInsensitive))
        return {KitEditResult::Status::Unchanged, QStringLiteral("%1 is already in %2").arg(pattern, where)};
    return apply(YamlTextEdit::appendToSequence(m_text, networkPath(list, m_v3), pattern),
                 QStringLiteral("added %1 to %2").arg(pattern, where), {});
}

KitEditResult KitEditor::removeNetworkPattern(NetworkList list, const QString &pattern)
{
    const QString where = listName(list, m_v3);
    const QStringList path = networkPath(list, m_v3);
    QString error;
    std::optional<QStringList> items = sequenceItems(m_text, path, &error);
    if (!items)
        return refuse(error);
    if (!items->contains(pattern, Qt::CaseInsensitive))
        return {KitEditResult::Status::Unchanged, QStringLiteral("%1 is not in %2").arg(pattern, where)};
    // A pattern listed twice is removed everywhere, so it is really gone afterwards.
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
    return {KitEditResult::Status::Changed, QStringLiteral("removed %1 from %2").arg(pattern, where)};
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
