// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "DaemonBound.h"
#include "WizardShares.h"

#include <QStringList>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

namespace paddock::kit {
struct Kit;
}

namespace paddock::gui {

/**
 * @brief The state behind the creation wizard: a project folder, a kit, a backend (its engine),
 * a workspace mode, a review of what the kit asks for, the keys and approvals it still needs,
 * then `sandbox.create` and `sandbox.start` (what `paddock run --kit DIR --detach` does).
 *
 * The kit is read in-process (core/kit): the review lists its image, the domains it allows,
 * its credentials, and as warnings what it reaches on the host. The key and approval step
 * comes from `binding.check`, which reads the keychain and credentials.yaml in the daemon;
 * keys are stored with `secret.set`, approvals with `binding.approve`, and once the user
 * approved, `sandbox.create` gets `approveCredentials: true`.
 *
 * The kit's host grants (allow rules that reach this computer or its networks: loopback,
 * private ranges, cloud metadata) are listed in the review, which does not go on until the
 * user ticks that they allow them; `sandbox.create` then gets `approveHostGrants: true` and
 * the daemon records them for the kit, as `paddock run --approve-host-grants` does.
 *
 * A schemaVersion "3" workload may be composed with mixins of the library (`run --kit W --kit M`):
 * the review is then the composition's merged kit, and `sandbox.create` gets `mixins`.
 */
class SandboxWizard : public paddock::gui::DaemonBound
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QString folder READ folder WRITE setFolder NOTIFY folderChanged)
    Q_PROPERTY(bool folderValid READ folderValid NOTIFY folderChanged)
    Q_PROPERTY(QVariantList kits READ kits NOTIFY kitsChanged)
    Q_PROPERTY(QString kitDirectory READ kitDirectory WRITE setKitDirectory NOTIFY kitChanged)
    Q_PROPERTY(bool kitValid READ kitValid NOTIFY kitChanged)
    Q_PROPERTY(QString kitError READ kitError NOTIFY kitChanged)
    Q_PROPERTY(QVariantMap review READ review NOTIFY kitChanged)
    /** [{name, displayName, description, directory}]: the library's schemaVersion "3" mixins. */
    Q_PROPERTY(QVariantList mixins READ mixins NOTIFY kitsChanged)
    /** The kit is a schemaVersion "3" workload: mixins may be composed with it. */
    Q_PROPERTY(bool composable READ composable NOTIFY kitChanged)
    /** The chosen mixins' folders, in composition order. */
    Q_PROPERTY(QStringList chosenMixins READ chosenMixins NOTIFY kitChanged)
    /** Mixins are chosen: the sandbox is a composition (on Docker, an image made of them at creation). */
    Q_PROPERTY(bool composed READ composed NOTIFY kitChanged)
    /**
     * One line on what a bubblewrap sandbox's root will be (`image.base`): the kit's image, or
     * the host's system when it is not loaded; empty for another backend or until the daemon said.
     */
    Q_PROPERTY(QString rootNote READ rootNote NOTIFY rootNoteChanged)
    Q_PROPERTY(QString backend READ backend WRITE setBackend NOTIFY optionsChanged)
    /// "container" or "gvisor" (which runs through Docker: choosing it sets the backend).
    Q_PROPERTY(QString isolation READ isolation WRITE setIsolation NOTIFY optionsChanged)
    Q_PROPERTY(bool gvisorAvailable READ gvisorAvailable NOTIFY isolationsChanged)
    /// Why gVisor cannot be chosen here, and how to get it (empty when it can).
    Q_PROPERTY(QString gvisorProblem READ gvisorProblem NOTIFY isolationsChanged)
    /** Whether the Docker engine answers (the daemon says so); the Docker choices are off otherwise. */
    Q_PROPERTY(bool dockerAvailable READ dockerAvailable NOTIFY isolationsChanged)
    /** What stands in the way of Docker, with the fix (joining the docker group, starting it). */
    Q_PROPERTY(QString dockerProblem READ dockerProblem NOTIFY isolationsChanged)
    /** The container engine a Docker sandbox runs on, sent as `run --engine` sends it; empty: the one in use. */
    Q_PROPERTY(QString engine READ engine WRITE setEngine NOTIFY optionsChanged)
    Q_PROPERTY(QString workspaceMode READ workspaceMode WRITE setWorkspaceMode NOTIFY optionsChanged)
    Q_PROPERTY(QString sandboxName READ sandboxName WRITE setSandboxName NOTIFY optionsChanged)
    Q_PROPERTY(QVariantList warnings READ warnings NOTIFY warningsChanged)
    Q_PROPERTY(QVariantList hostGrants READ hostGrants NOTIFY kitChanged)
    Q_PROPERTY(bool hostGrantsAllowed READ hostGrantsAllowed WRITE setHostGrantsAllowed NOTIFY hostGrantsChanged)
    Q_PROPERTY(bool hostGrantsReady READ hostGrantsReady NOTIFY hostGrantsChanged)
    /** Some of the kit's host grants are not approved for it yet: the review asks for them. */
    Q_PROPERTY(bool hostGrantsPending READ hostGrantsPending NOTIFY kitChanged)
    Q_PROPERTY(QVariantList credentials READ credentials NOTIFY credentialsChanged)
    Q_PROPERTY(bool credentialsChecked READ credentialsChecked NOTIFY credentialsChanged)
    Q_PROPERTY(bool keychainAvailable READ keychainAvailable NOTIFY credentialsChanged)
    Q_PROPERTY(QStringList missingKeys READ missingKeys NOTIFY credentialsChanged)
    Q_PROPERTY(QVariantList pendingApprovals READ pendingApprovals NOTIFY credentialsChanged)
    Q_PROPERTY(bool needsCredentialStep READ needsCredentialStep NOTIFY credentialsChanged)
    Q_PROPERTY(bool credentialsReady READ credentialsReady NOTIFY credentialsChanged)
    Q_PROPERTY(bool approvalGiven READ approvalGiven NOTIFY credentialsChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString phase READ phase NOTIFY busyChanged)
    Q_PROPERTY(QString createdName READ createdName NOTIFY createdNameChanged)
    /** The folders and variables the sandbox shares (`--mount`, `--env`). */
    Q_PROPERTY(paddock::gui::WizardShares *shares READ shares CONSTANT)

public:
    explicit SandboxWizard(QObject *parent = nullptr);

    QString folder() const { return m_folder; }
    void setFolder(const QString &folder);
    bool folderValid() const;
    QVariantList kits() const { return m_kits; }
    QString kitDirectory() const { return m_kitDirectory; }
    void setKitDirectory(const QString &directory);
    bool kitValid() const { return m_kitValid; }
    QString kitError() const { return m_kitError; }
    QVariantMap review() const { return m_review; }
    QVariantList mixins() const { return m_mixinChoices; }
    bool composable() const { return m_composable; }
    QStringList chosenMixins() const { return m_mixins; }
    bool composed() const { return m_composable && !m_mixins.isEmpty(); }
    QString rootNote() const { return m_rootNote; }
    QString backend() const { return m_backend; }
    void setBackend(const QString &backend);
    QString isolation() const { return m_isolation; }
    void setIsolation(const QString &isolation);
    bool gvisorAvailable() const { return m_gvisorAvailable; }
    QString gvisorProblem() const { return m_gvisorProblem; }
    bool dockerAvailable() const { return m_dockerAvailable; }
    QString dockerProblem() const { return m_dockerProblem; }
    QString engine() const { return m_engine; }
    void setEngine(const QString &engine);
    QString workspaceMode() const { return m_workspaceMode; }
    void setWorkspaceMode(const QString &mode);
    QString sandboxName() const { return m_sandboxName; }
    void setSandboxName(const QString &name);
    QVariantList warnings() const { return m_warnings; }
    /** [{pattern, reaches, approved}]: the kit's allow rules that reach this computer or its networks. */
    QVariantList hostGrants() const { return m_hostGrants; }
    bool hostGrantsAllowed() const { return m_hostGrantsAllowed; }
    void setHostGrantsAllowed(bool allowed);
    /** No host grant, or the user allowed them. */
    bool hostGrantsReady() const { return !m_hostGrantsPending || m_hostGrantsAllowed; }
    bool hostGrantsPending() const { return m_hostGrantsPending; }
    QVariantList credentials() const { return m_credentials; }
    bool credentialsChecked() const { return m_credentialsChecked; }
    bool keychainAvailable() const { return m_keychainAvailable; }
    QStringList missingKeys() const;
    QVariantList pendingApprovals() const;
    bool needsCredentialStep() const;
    bool credentialsReady() const;
    bool approvalGiven() const { return m_approvalGiven; }
    bool busy() const { return !m_phase.isEmpty(); }
    QString phase() const { return m_phase; }
    QString createdName() const { return m_createdName; }
    WizardShares *shares() const { return m_shares; }

    /** Lists the kits of the library again (added folders, then samples): valid sandbox kits only. */
    Q_INVOKABLE void reloadKits();
    /** The folder chosen in a FolderDialog. */
    Q_INVOKABLE void setFolderUrl(const QUrl &url);
    /** The kit folder chosen in a FolderDialog. */
    Q_INVOKABLE void setKitUrl(const QUrl &url);
    /** The user's home folder, as a URL for a FolderDialog. */
    Q_INVOKABLE QUrl homeUrl() const;
    /**
     * The folder a FolderDialog opens in: @p path (the current choice) when it is an existing
     * folder, else the user's home; inside it, not in its parent.
     */
    Q_INVOKABLE QUrl folderToOpen(const QString &path) const;
    /** Adds the mixin in @p directory to the composition (after those chosen before) or takes it out. */
    Q_INVOKABLE void chooseMixin(const QString &directory, bool chosen);
    /** Asks the daemon which isolation levels a new sandbox may get (sandbox.isolations). */
    Q_INVOKABLE void checkIsolations();
    /** Asks binding.check what the kit still needs. */
    Q_INVOKABLE void checkCredentials();
    /** Stores the key of @p service (global) and checks again. */
    Q_INVOKABLE void storeKey(const QString &service, QString value);
    /** Records that the user approved the kit's credentials in the binding dialog. */
    Q_INVOKABLE void markApproved();
    /** Creates the sandbox and starts it; emits created() or failed(). */
    Q_INVOKABLE void create();
    /** Back to an empty wizard (the folder and the kit list stay). */
    Q_INVOKABLE void reset();

Q_SIGNALS:
    void folderChanged();
    void kitsChanged();
    void kitChanged();
    void optionsChanged();
    void isolationsChanged();
    void warningsChanged();
    void hostGrantsChanged();
    void rootNoteChanged();
    void credentialsChanged();
    void busyChanged();
    void createdNameChanged();
    void keyStored(const QString &service);
    void created(const QString &name);
    void failed(const QString &message);

private:
    void loadKit();
    /** The review of the loaded workload @p workload, composed with the chosen mixins when there are any. */
    void useKit(const kit::Kit &workload);
    void updateWarnings();
    /** Asks the daemon what the root of a sandbox made now would stand on (rootNote). */
    void checkRoot();
    void setPhase(const QString &phase);
    void applyIsolations(const api::Reply &reply);
    /** `sandbox.create` with @p params, then its start. */
    void createWith(QJsonObject params);
    void startCreated(const QString &name);

    QString m_folder;
    QVariantList m_kits;
    QString m_kitDirectory;
    bool m_kitValid = false;
    QString m_kitError;
    QVariantMap m_review;
    QVariantList m_mixinChoices; ///< the library's v3 mixins
    QStringList m_mixins;        ///< the chosen mixins' folders, in composition order
    bool m_composable = false;   ///< the kit is a v3 workload
    QString m_rootNote;
    quint64 m_rootGeneration = 0;
    QStringList m_hostWarnings; ///< from the kit itself, before the workspace mode is added
    QString m_backend = QStringLiteral("bwrap");
    QString m_isolation = QStringLiteral("container");
    bool m_gvisorAvailable = false;
    QString m_gvisorProblem;
    bool m_dockerAvailable = true; ///< until the daemon says otherwise
    QString m_dockerProblem;
    QString m_engine;
    QString m_workspaceMode = QStringLiteral("direct");
    QString m_sandboxName;
    QVariantList m_warnings;
    QVariantList m_hostGrants;
    bool m_hostGrantsAllowed = false;
    bool m_hostGrantsPending = false; ///< a grant of m_hostGrants not in host-grants.yaml for the kit
    QVariantList m_credentials;
    bool m_credentialsChecked = false;
    bool m_keychainAvailable = true;
    bool m_approvalGiven = false;
    QString m_phase;
    QString m_createdName;
    quint64 m_checkGeneration = 0;
    WizardShares *m_shares = nullptr;
};

} // namespace paddock::gui
