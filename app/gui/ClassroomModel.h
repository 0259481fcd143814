// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <functional>
#include <memory>

namespace paddock::bundle {
struct OpenedBundle;
struct ImportPlan;
} // namespace paddock::bundle

namespace paddock::gui {

/**
 * @brief The Classroom page: import a `.paddock` bundle (choose a file, read its preview,
 * import) and run the checklist on a sandbox, as `paddock bundle import` and `paddock verify`
 * do.
 *
 * Reading a bundle, importing it and the checks block (files, the daemon, commands inside the
 * sandbox), so each runs on a thread of its own and reports back here; @c busy is true
 * meanwhile and a second action is refused.
 */
class ClassroomModel : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(QString bundleFile READ bundleFile NOTIFY previewChanged)
    Q_PROPERTY(QString preview READ preview NOTIFY previewChanged)
    Q_PROPERTY(bool canImport READ canImport NOTIFY previewChanged)
    Q_PROPERTY(QString importResult READ importResult NOTIFY importResultChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(QVariantList checks READ checks NOTIFY checksChanged)
    Q_PROPERTY(QString checklistVerdict READ checklistVerdict NOTIFY checksChanged)

public:
    explicit ClassroomModel(QObject *parent = nullptr);
    ~ClassroomModel() override;

    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    QString bundleFile() const { return m_bundleFile; }
    QString preview() const { return m_preview; }
    bool canImport() const;
    QString importResult() const { return m_importResult; }
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    QVariantList checks() const { return m_checks; }
    QString checklistVerdict() const { return m_verdict; }

    /** Reads the bundle at @p file (a path or a file: URL) and prepares the preview. */
    Q_INVOKABLE void openBundle(const QUrl &file);
    /** Imports the bundle previewed last. */
    Q_INVOKABLE void importBundle();
    /** Runs the checklist on the sandbox named @c sandbox. */
    Q_INVOKABLE void runChecks();

Q_SIGNALS:
    void busyChanged();
    void errorChanged();
    void previewChanged();
    void importResultChanged();
    void sandboxChanged();
    void checksChanged();

private:
    /** Runs @p work on a new thread, then @p done here if this object still exists. */
    void runInBackground(std::function<std::function<void()>()> work);
    void setBusy(bool busy);
    void setError(const QString &error);

    bool m_busy = false;
    QString m_error;
    QString m_bundleFile;
    QString m_preview;
    std::shared_ptr<bundle::OpenedBundle> m_opened;
    std::shared_ptr<bundle::ImportPlan> m_plan;
    QString m_importResult;
    QString m_sandbox;
    QVariantList m_checks;
    QString m_verdict;
};

} // namespace paddock::gui
