// SPDX-License-Identifier: GPL-3.0-or-later
#include "KitEditorModel.h"

#include "kit/KitEditor.h"
#include "kit/KitV3Authored.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJSValue>
#include <QLoggingCategory>
#include <QVariantMap>

Q_LOGGING_CATEGORY(lcKitEditorModel, "paddock.gui.kiteditor", QtWarningMsg)

namespace paddock::gui {

KitEditorModel::KitEditorModel(QObject *parent) : QObject(parent) {}

QVariantList KitEditorModel::diagnostics() const
{
    QVariantList list;
    for (const KitFieldDiagnostic &d : m_document.diagnostics()) {
        list << QVariantMap{
            {QStringLiteral("line"), d.diagnostic.line},
            {QStringLiteral("column"), d.diagnostic.column},
            {QStringLiteral("error"), d.diagnostic.isError()},
            {QStringLiteral("message"), d.diagnostic.message},
            {QStringLiteral("path"), d.path},
        };
    }
    return list;
}

QVariantList KitEditorModel::changes() const
{
    QVariantList list;
    for (const KitTextChange &change : m_document.changes()) {
        list << QVariantMap{
            {QStringLiteral("added"), change.kind == KitTextChange::Kind::Added},
            {QStringLiteral("line"), change.line},
            {QStringLiteral("text"), change.text},
        };
    }
    return list;
}

bool KitEditorModel::open(const QString &directory, bool readOnly)
{
    // A kit folder's spec.yaml, else its authored schemaVersion "3" descriptor (or that file itself).
    QString specPath = QDir(directory).filePath(QStringLiteral("spec.yaml"));
    if (!QFileInfo::exists(specPath)) {
        QString ignored;
        const QString descriptor = kit::authoredDescriptorFile(directory, &ignored);
        if (!descriptor.isEmpty())
            specPath = descriptor;
    }
    QFile file(specPath);
    if (!file.open(QIODevice::ReadOnly)) {
        setMessage(tr("Cannot read %1: %2").arg(specPath, file.errorString()));
        return false;
    }
    m_document = KitDocument(file.readAll(), specPath);
    m_directory = QFileInfo(directory).isFile() ? QFileInfo(directory).absolutePath() : directory;
    m_readOnly = readOnly;
    m_loaded = true;
    setMessage(readOnly ? tr("A sample kit shipped with Paddock: copy it to a folder of yours to change it.")
                        : QString());
    Q_EMIT openedChanged();
    bump();
    return true;
}

void KitEditorModel::close()
{
    m_document = KitDocument();
    m_directory.clear();
    m_loaded = false;
    m_readOnly = false;
    setMessage({});
    Q_EMIT openedChanged();
    bump();
}

QString KitEditorModel::messageFor(const QString &path) const
{
    return m_document.messagesFor(path).join(QLatin1Char('\n'));
}

void KitEditorModel::setMessage(const QString &message)
{
    if (m_message == message)
        return;
    m_message = message;
    Q_EMIT messageChanged();
}

void KitEditorModel::bump()
{
    ++m_revision;
    Q_EMIT revisionChanged();
}

bool KitEditorModel::refuseWhenReadOnly()
{
    if (!m_loaded) {
        setMessage(tr("Open a kit first."));
        return true;
    }
    if (m_readOnly) {
        setMessage(tr("Sample kits are read-only: use “Copy to…” to make a copy you can edit."));
        return true;
    }
    return false;
}

bool KitEditorModel::finish(bool ok, const QString &error)
{
    setMessage(ok ? QString() : error);
    // Even a refused edit re-reads the fields: the field shows the text as it really is.
    bump();
    return ok;
}

bool KitEditorModel::setValue(const QString &path, const QString &value, bool removeWhenEmpty)
{
    if (refuseWhenReadOnly())
        return false;
    QString error;
    if (value.isEmpty() && removeWhenEmpty)
        return finish(m_document.removeEntry(path, &error), error);
    return finish(m_document.setScalar(path, value, &error), error);
}

bool KitEditorModel::setBool(const QString &path, bool value, bool removeWhenFalse)
{
    if (refuseWhenReadOnly())
        return false;
    QString error;
    if (!value && removeWhenFalse)
        return finish(m_document.removeEntry(path, &error), error);
    return finish(m_document.setPlain(path, value ? QStringLiteral("true") : QStringLiteral("false"), &error), error);
}

bool KitEditorModel::setNumber(const QString &path, const QString &value)
{
    if (refuseWhenReadOnly())
        return false;
    QString error;
    const QString trimmed = value.trimmed();
    if (trimmed.isEmpty())
        return finish(m_document.removeEntry(path, &error), error);
    // Not a number: written as text, so the loader says at the field what it expected.
    if (!m_document.setPlain(path, trimmed, &error))
        return finish(m_document.setScalar(path, trimmed, &error), error);
    return finish(true, {});
}

void KitEditorModel::setText(const QString &text)
{
    if (refuseWhenReadOnly())
        return;
    const QByteArray bytes = text.toUtf8();
    if (bytes == m_document.text())
        return;
    m_document.setText(bytes);
    finish(true, {});
}

bool KitEditorModel::appendItem(const QString &listPath, const QVariant &item, const QStringList &keyOrder)
{
    if (refuseWhenReadOnly())
        return false;
    QString error;
    // QML hands objects over as QJSValue-backed maps; the document wants plain variants.
    QVariant plain = item;
    if (item.metaType() == QMetaType::fromType<QJSValue>())
        plain = item.value<QJSValue>().toVariant();
    return finish(m_document.appendItem(listPath, plain, &error, keyOrder), error);
}

bool KitEditorModel::removeItem(const QString &listPath, int index)
{
    if (refuseWhenReadOnly())
        return false;
    QString error;
    return finish(m_document.removeItem(listPath, index, &error), error);
}

bool KitEditorModel::setItem(const QString &listPath, int index, const QString &value)
{
    return setValue(listPath + QLatin1Char('.') + QString::number(index), value);
}

bool KitEditorModel::setVariable(const QString &name, const QString &value)
{
    if (refuseWhenReadOnly())
        return false;
    kit::KitEditor editor = kit::KitEditor::fromText(m_document.text(), m_document.filePath());
    const kit::KitEditResult result = editor.setEnvironmentVariable(name.trimmed(), value);
    if (result.changed())
        m_document.setText(editor.text());
    return finish(!result.failed(), result.message);
}

bool KitEditorModel::removeVariable(const QString &name)
{
    if (refuseWhenReadOnly())
        return false;
    kit::KitEditor editor = kit::KitEditor::fromText(m_document.text(), m_document.filePath());
    const kit::KitEditResult result = editor.removeEnvironmentVariable(name);
    if (result.changed())
        m_document.setText(editor.text());
    return finish(!result.failed(), result.message);
}

namespace {

kit::NetworkScope networkScope(bool install, int group)
{
    return {install ? kit::NetworkPhase::Install : kit::NetworkPhase::Runtime, group};
}

} // namespace

bool KitEditorModel::addNetworkPattern(bool deny, const QString &pattern, bool install, int group)
{
    if (refuseWhenReadOnly())
        return false;
    kit::KitEditor editor = kit::KitEditor::fromText(m_document.text(), m_document.filePath());
    const kit::KitEditResult result = editor.addNetworkPattern(deny ? kit::NetworkList::Deny : kit::NetworkList::Allow,
                                                               pattern.trimmed(), networkScope(install, group));
    if (result.changed())
        m_document.setText(editor.text());
    return finish(!result.failed(), result.message);
}

bool KitEditorModel::removeNetworkPattern(bool deny, const QString &pattern, bool install, int group)
{
    if (refuseWhenReadOnly())
        return false;
    kit::KitEditor editor = kit::KitEditor::fromText(m_document.text(), m_document.filePath());
    const kit::KitEditResult result = editor.removeNetworkPattern(
        deny ? kit::NetworkList::Deny : kit::NetworkList::Allow, pattern, networkScope(install, group));
    if (result.changed())
        m_document.setText(editor.text());
    return finish(!result.failed(), result.message);
}

bool KitEditorModel::save()
{
    if (refuseWhenReadOnly())
        return false;
    QString error;
    if (!m_document.save(&error)) {
        qCInfo(lcKitEditorModel).noquote() << error;
        return finish(false, error);
    }
    setMessage(tr("Saved %1.").arg(m_document.filePath()));
    bump();
    Q_EMIT saved();
    return true;
}

void KitEditorModel::revert()
{
    m_document.revert();
    finish(true, {});
}

} // namespace paddock::gui
