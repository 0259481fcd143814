// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClassroomModel.h"

#include "bundle/Bundle.h"
#include "bundle/Checklist.h"
#include "policy/HostGrant.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QPointer>
#include <QThread>

Q_LOGGING_CATEGORY(lcClassroom, "paddock.gui.classroom")

namespace paddock::gui {

namespace {

QString previewText(const bundle::OpenedBundle &opened, const bundle::ImportPlan &plan)
{
    QStringList lines;
    lines << ClassroomModel::tr("Kit %1 %2").arg(opened.kit.name, opened.kit.version).trimmed();
    if (!plan.notes.trimmed().isEmpty())
        lines << QString() << ClassroomModel::tr("Notes from the bundle's author:") << plan.notes.trimmed();
    lines << QString() << ClassroomModel::tr("Importing it will:");
    lines << (plan.replacesExisting ? ClassroomModel::tr("• replace the kit folder %1 (%2 files)")
                                    : ClassroomModel::tr("• write the kit folder %1 (%2 files)"))
                 .arg(plan.destination)
                 .arg(plan.fileCount);
    if (plan.hasPolicy) {
        if (plan.presetChanges())
            lines << ClassroomModel::tr("• set the network policy preset: %1 → %2")
                         .arg(policy::presetName(plan.currentPreset), policy::presetName(plan.newPreset));
        for (const bundle::PlannedRule &rule : plan.rules) {
            QString text = QStringLiteral("%1 %2 (%3)").arg(policy::verdictName(rule.rule.verdict), rule.rule.pattern,
                                                             rule.rule.scope.toString());
            const std::optional<policy::HostGrant> grant = policy::hostGrantOf(QStringView(rule.rule.pattern));
            if (grant && rule.rule.verdict == policy::Verdict::Allow)
                text += ClassroomModel::tr(", a host grant: reaches %1").arg(grant->reachPhrase());
            lines << (rule.alreadyPresent ? ClassroomModel::tr("• keep the rule %1 (already present)")
                                          : ClassroomModel::tr("• add the rule %1"))
                         .arg(text);
        }
    } else {
        lines << ClassroomModel::tr("• leave the network policy as it is");
    }
    if (!plan.secrets.isEmpty()) {
        lines << QString() << ClassroomModel::tr("Secrets you will enter afterwards (never in the bundle):");
        for (const bundle::BundleSecret &secret : plan.secrets)
            lines << QStringLiteral("• %1: %2").arg(secret.service, secret.description);
    }
    const QList<policy::HostGrant> grants = policy::hostGrantsOf(opened.kit.networkAllow);
    if (!grants.isEmpty()) {
        lines << QString()
              << ClassroomModel::tr("The kit reaches this computer or its networks (asked before its first sandbox):");
        for (const policy::HostGrant &grant : grants)
            lines << ClassroomModel::tr("• %1 reaches %2").arg(grant.pattern, grant.reachPhrase());
    }
    if (plan.newPreset == policy::Preset::AllowAll && plan.presetChanges())
        lines << ClassroomModel::tr("Warning: allow-all lets every sandbox reach every public host");
    for (const QString &warning : opened.warnings)
        lines << ClassroomModel::tr("Warning: %1").arg(warning);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

ClassroomModel::ClassroomModel(QObject *parent) : QObject(parent) {}

ClassroomModel::~ClassroomModel() = default;

bool ClassroomModel::canImport() const
{
    return m_opened && m_plan && !m_busy;
}

void ClassroomModel::setSandbox(const QString &sandbox)
{
    if (m_sandbox == sandbox)
        return;
    m_sandbox = sandbox;
    emit sandboxChanged();
}

void ClassroomModel::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
    emit previewChanged(); // canImport follows busy
}

void ClassroomModel::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

void ClassroomModel::runInBackground(std::function<std::function<void()>()> work)
{
    setBusy(true);
    setError({});
    QPointer<ClassroomModel> self(this);
    QThread *thread = QThread::create([self, work = std::move(work)] {
        std::function<void()> done = work();
        // Back on the model's thread; the model may be gone by then.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, done = std::move(done)] {
                if (!self)
                    return;
                done();
                self->setBusy(false);
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void ClassroomModel::openBundle(const QUrl &file)
{
    if (m_busy)
        return;
    const QString path = file.isLocalFile() ? file.toLocalFile() : file.toString();
    m_bundleFile = path;
    m_preview.clear();
    m_opened.reset();
    m_plan.reset();
    m_importResult.clear();
    emit previewChanged();
    emit importResultChanged();
    runInBackground([this, path]() -> std::function<void()> {
        auto opened = std::make_shared<bundle::OpenResult>(bundle::openBundle(path));
        if (!opened->bundle)
            return [this, opened] { setError(tr("%1 was refused: %2").arg(m_bundleFile, opened->error)); };
        QString error;
        auto bundle = std::make_shared<bundle::OpenedBundle>(std::move(*opened->bundle));
        std::optional<bundle::ImportPlan> plan = bundle::planImport(*bundle, {}, &error);
        if (!plan)
            return [this, error] { setError(error); };
        auto shared = std::make_shared<bundle::ImportPlan>(std::move(*plan));
        return [this, bundle, shared] {
            m_opened = bundle;
            m_plan = shared;
            m_preview = previewText(*bundle, *shared);
            emit previewChanged();
        };
    });
}

void ClassroomModel::importBundle()
{
    if (!canImport())
        return;
    std::shared_ptr<bundle::OpenedBundle> opened = m_opened;
    std::shared_ptr<bundle::ImportPlan> plan = m_plan;
    runInBackground([this, opened, plan]() -> std::function<void()> {
        QString error;
        if (!bundle::applyImport(*opened, *plan, {}, &error))
            return [this, error] { setError(error); };
        QStringList steps;
        for (const bundle::BundleSecret &secret : plan->secrets)
            steps << tr("Enter the %1 key on the Secrets page (paddock secret set %1).").arg(secret.service);
        steps << tr("Run the kit on your project, then come back here for the checklist.");
        const QString message = tr("Kit %1 imported into %2.").arg(opened->kit.name, plan->destination) +
                                QLatin1Char('\n') + steps.join(QLatin1Char('\n'));
        return [this, message] {
            m_opened.reset();
            m_plan.reset();
            m_importResult = message;
            emit importResultChanged();
            emit previewChanged();
        };
    });
}

void ClassroomModel::runChecks()
{
    if (m_busy || m_sandbox.trimmed().isEmpty())
        return;
    bundle::VerifyOptions options;
    options.sandbox = m_sandbox.trimmed();
    options.keyTest = bundle::keyTestThrough(QCoreApplication::applicationFilePath());
    m_checks.clear();
    m_verdict.clear();
    emit checksChanged();
    runInBackground([this, options]() -> std::function<void()> {
        QString error;
        const std::optional<bundle::Checklist> checklist = bundle::verifySandbox(options, &error);
        if (!checklist)
            return [this, error] { setError(error); };
        QVariantList checks;
        for (const bundle::CheckResult &check : checklist->checks)
            checks.append(QVariantMap{{QStringLiteral("id"), check.id},
                                      {QStringLiteral("title"), check.title},
                                      {QStringLiteral("status"), bundle::CheckResult::statusName(check.status)},
                                      {QStringLiteral("message"), check.message},
                                      {QStringLiteral("details"), check.details.join(QLatin1Char('\n'))}});
        const QString verdict = checklist->passed() ? tr("No check failed: this sandbox is ready.")
                                                    : tr("Some checks failed: read each sentence for what to fix.");
        return [this, checks, verdict] {
            m_checks = checks;
            m_verdict = verdict;
            emit checksChanged();
        };
    });
}

} // namespace paddock::gui
