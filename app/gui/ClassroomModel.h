// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ChecklistModel.h"
#include "DaemonBound.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QUrl>
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
 * import), then run the course's checklist on a running sandbox of the imported kit, as
 * `paddock bundle import` and `paddock verify` do.
 *
 * Reading and importing a bundle are file operations on the user's own kits folder (core/bundle):
 * they run on a thread of their own and report back here; @c busy is true meanwhile. The kit
 * imported last (this time, or before when the window opens) is @c kit: the page offers to
 * create a sandbox from it, and the checklist lists its running sandboxes (every running one
 * when there is no imported kit), from `sandbox.list`, asked again every few seconds while
 * @c active. The checklist itself runs in the daemon (`sandbox.verify`): each check is a row of
 * @c checks as its `verify` event arrives.
 */
class ClassroomModel : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(bool active READ active WRITE setActive NOTIFY activeChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString bundleFile READ bundleFile NOTIFY previewChanged)
    Q_PROPERTY(QString preview READ preview NOTIFY previewChanged)
    Q_PROPERTY(bool canImport READ canImport NOTIFY previewChanged)
    Q_PROPERTY(QString importResult READ importResult NOTIFY importResultChanged)
    Q_PROPERTY(QString kit READ kit NOTIFY kitChanged)
    Q_PROPERTY(QString kitDirectory READ kitDirectory NOTIFY kitChanged)
    /** The container engine the imported bundle's sandboxes run on, by name; empty: none named. */
    Q_PROPERTY(QString engine READ engine NOTIFY kitChanged)
    Q_PROPERTY(QStringList sandboxes READ sandboxes NOTIFY sandboxesChanged)
    Q_PROPERTY(QString sandbox READ sandbox WRITE setSandbox NOTIFY sandboxChanged)
    Q_PROPERTY(paddock::gui::ChecklistModel *checks READ checks CONSTANT)
    Q_PROPERTY(bool checking READ checking NOTIFY checkingChanged)
    Q_PROPERTY(QString checkProgress READ checkProgress NOTIFY checkingChanged)
    Q_PROPERTY(QString checklistVerdict READ checklistVerdict NOTIFY checkingChanged)
    Q_PROPERTY(bool checklistPassed READ checklistPassed NOTIFY checkingChanged)

public:
    explicit ClassroomModel(QObject *parent = nullptr);
    ~ClassroomModel() override;

    bool active() const { return m_active; }
    void setActive(bool active);
    bool busy() const { return m_busy; }
    QString bundleFile() const { return m_bundleFile; }
    QString preview() const { return m_preview; }
    bool canImport() const;
    QString importResult() const { return m_importResult; }
    QString kit() const { return m_kit; }
    QString kitDirectory() const { return m_kitDirectory; }
    QString engine() const { return m_engine; }
    QStringList sandboxes() const { return m_sandboxes; }
    QString sandbox() const { return m_sandbox; }
    void setSandbox(const QString &sandbox);
    ChecklistModel *checks() { return &m_checks; }
    bool checking() const { return !m_run.isEmpty(); }
    QString checkProgress() const { return m_progress; }
    QString checklistVerdict() const { return m_verdict; }
    bool checklistPassed() const { return m_passed; }

    /** Reads the bundle at @p file (a path or a file: URL) and prepares the preview. */
    Q_INVOKABLE void openBundle(const QUrl &file);
    /** Imports the bundle previewed last. */
    Q_INVOKABLE void importBundle();
    /** Asks `sandbox.list` again; @p prefer is selected when it is among the running ones. */
    Q_INVOKABLE void refreshSandboxes(const QString &prefer = {});
    /** Runs the checklist on @c sandbox through the daemon. */
    Q_INVOKABLE void runChecks();

    /** The kit the page works with: after an import, or to follow one made elsewhere. */
    void setKit(const QString &name, const QString &directory);
    /** A `sandbox.list` result: the running sandboxes of @c kit become @c sandboxes. */
    void applySandboxList(const QJsonObject &result);
    /** A `verify` event: its check becomes a row when it belongs to the run under way. */
    void applyVerifyEvent(const QJsonObject &event);
    /** The `sandbox.verify` result of run @p run: every check and the verdict. */
    void applyVerifyResult(const QString &run, const QJsonObject &result);
    /** Starts waiting for run @p run's events (runChecks() does it before calling). */
    void beginRun(const QString &run);

Q_SIGNALS:
    void activeChanged();
    void busyChanged();
    void previewChanged();
    void importResultChanged();
    void kitChanged();
    void sandboxesChanged();
    void sandboxChanged();
    void checkingChanged();

protected:
    void daemonConnected() override { refreshSandboxes(); }
    void daemonEvent(const QString &topic, const QJsonObject &data) override;

private:
    /** Runs @p work on a new thread, then @p done here if this object still exists. */
    void runInBackground(std::function<std::function<void()>()> work);
    void setBusy(bool busy);
    void findLastImportedKit();

    bool m_active = false;
    QTimer m_poll;
    bool m_busy = false;
    QString m_bundleFile;
    QString m_preview;
    std::shared_ptr<bundle::OpenedBundle> m_opened;
    std::shared_ptr<bundle::ImportPlan> m_plan;
    QString m_importResult;
    QString m_kit;
    QString m_kitDirectory;
    QString m_engine;
    QStringList m_sandboxes;
    QString m_sandbox;
    QString m_prefer; ///< selected once it runs (a sandbox just created)
    ChecklistModel m_checks;
    QString m_run; ///< the token of the checklist under way; empty when none runs
    QString m_progress;
    QString m_verdict;
    bool m_passed = false;
};

} // namespace paddock::gui
