// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClassroomModel.h"

#include "bundle/Bundle.h"
#include "kit/KitLibrary.h"
#include "policy/HostGrant.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QThread>
#include <QUuid>

#include <utility>

Q_LOGGING_CATEGORY(lcClassroom, "paddock.gui.classroom")

namespace paddock::gui {

namespace {

constexpr int kPollIntervalMs = 4000;
const QString kVerifyTopic = QStringLiteral("verify");

/**
 * How the page imports: a kit folder already there is replaced, as `bundle import --replace`
 * does. The preview says so ("replace the kit folder …") before Import is pressed: a teacher's
 * updated bundle is imported again over the first.
 */
bundle::ImportOptions windowImport()
{
    bundle::ImportOptions options;
    options.replace = true;
    return options;
}

QString previewText(const bundle::OpenedBundle &opened, const bundle::ImportPlan &plan)
{
    QStringList lines;
    lines << ClassroomModel::tr("Kit %1 %2").arg(opened.kit.name, opened.kit.version).trimmed();
    if (!plan.notes.trimmed().isEmpty())
        lines << QString() << ClassroomModel::tr("Notes from the bundle's author:") << plan.notes.trimmed();
    if (!opened.manifest.engine.isEmpty())
        lines << QString()
              << ClassroomModel::tr("Its sandboxes run on the container engine %1, whose address your teacher gives.")
                     .arg(opened.manifest.engine);
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
            QString text =
                QStringLiteral("%1 %2 (%3)")
                    .arg(policy::verdictName(rule.rule.verdict), rule.rule.pattern, rule.rule.scope.toString());
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
    if (plan.hasAgentRules) {
        lines << QString() << ClassroomModel::tr("The agent's own rules it brings (pi-permission-system):");
        for (const QString &rule : plan.agentRules)
            lines << QStringLiteral("• %1").arg(rule);
        for (const QString &problem : plan.agentRuleProblems)
            lines << ClassroomModel::tr("Warning: %1").arg(problem);
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

ClassroomModel::ClassroomModel(QObject *parent) : DaemonBound(parent)
{
    followTopics({kVerifyTopic});
    m_poll.setInterval(kPollIntervalMs);
    connect(&m_poll, &QTimer::timeout, this, [this] { refreshSandboxes(); });
    findLastImportedKit();
}

ClassroomModel::~ClassroomModel() = default;

void ClassroomModel::findLastImportedKit()
{
    // The kit a student imported last, when the window opens again after the import.
    QDateTime newest;
    for (const QString &directory : kit::KitLibrary().importedDirectories()) {
        const QDateTime modified = QFileInfo(directory).lastModified();
        if (newest.isValid() && modified <= newest)
            continue;
        const kit::KitEntry entry = kit::KitLibrary::readEntry(directory, kit::KitSource::Imported);
        if (!entry.valid() || entry.kind != QLatin1String("sandbox"))
            continue;
        newest = modified;
        setKit(entry.name, directory);
    }
}

void ClassroomModel::daemonEvent(const QString &topic, const QJsonObject &data)
{
    if (topic == kVerifyTopic)
        applyVerifyEvent(data);
}

void ClassroomModel::setActive(bool active)
{
    if (m_active == active)
        return;
    m_active = active;
    if (m_active) {
        m_poll.start();
        refreshSandboxes();
    } else {
        m_poll.stop();
    }
    Q_EMIT activeChanged();
}

bool ClassroomModel::canImport() const
{
    return m_opened && m_plan && !m_busy;
}

void ClassroomModel::setSandbox(const QString &sandbox)
{
    if (m_sandbox == sandbox)
        return;
    m_sandbox = sandbox;
    Q_EMIT sandboxChanged();
}

void ClassroomModel::setKit(const QString &name, const QString &directory)
{
    if (m_kit == name && m_kitDirectory == directory)
        return;
    m_kit = name;
    m_kitDirectory = directory;
    Q_EMIT kitChanged();
    refreshSandboxes();
}

void ClassroomModel::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
    emit previewChanged(); // canImport follows busy
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
        std::optional<bundle::ImportPlan> plan = bundle::planImport(*bundle, windowImport(), &error);
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
        if (!bundle::applyImport(*opened, *plan, windowImport(), &error))
            return [this, error] { setError(error); };
        const QString message =
            tr("Kit %1 imported into %2.").arg(opened->kit.name, plan->destination) + QLatin1Char('\n') +
            tr("Next: create your sandbox (the keys it needs are asked for there), then run the checklist.");
        return
            [this, message, name = opened->kit.name, directory = plan->destination, engine = opened->manifest.engine] {
                m_opened.reset();
                m_plan.reset();
                m_importResult = message;
                emit importResultChanged();
                emit previewChanged();
                const bool engineChanged = m_engine != engine;
                m_engine = engine;
                setKit(name, directory);
                if (engineChanged)
                    Q_EMIT kitChanged();
            };
    });
}

void ClassroomModel::refreshSandboxes(const QString &prefer)
{
    if (!prefer.isEmpty())
        m_prefer = prefer;
    request(QStringLiteral("sandbox.list"), {}, [this](const api::Reply &reply) {
        if (!reply.isError())
            applySandboxList(reply.result());
    });
}

void ClassroomModel::applySandboxList(const QJsonObject &result)
{
    QStringList running;
    for (const QJsonValue &value : result.value(QLatin1String("sandboxes")).toArray()) {
        const QJsonObject sandbox = value.toObject();
        if (sandbox.value(QLatin1String("status")).toString() != QLatin1String("running"))
            continue;
        if (!m_kit.isEmpty() && sandbox.value(QLatin1String("kit")).toString() != m_kit)
            continue;
        running << sandbox.value(QLatin1String("name")).toString();
    }
    running.sort();
    if (running != m_sandboxes) {
        m_sandboxes = running;
        Q_EMIT sandboxesChanged();
    }
    // The sandbox just created wins; else the one chosen stays while it runs; else the first.
    if (!m_prefer.isEmpty() && m_sandboxes.contains(m_prefer))
        setSandbox(std::exchange(m_prefer, QString()));
    else if (!m_sandboxes.contains(m_sandbox))
        setSandbox(m_sandboxes.isEmpty() ? QString() : m_sandboxes.constFirst());
}

void ClassroomModel::beginRun(const QString &run)
{
    m_run = run;
    m_checks.clear();
    m_verdict.clear();
    m_passed = false;
    m_progress = tr("Starting the checks…");
    setError({});
    Q_EMIT checkingChanged();
}

void ClassroomModel::runChecks()
{
    if (checking() || m_sandbox.isEmpty())
        return;
    const QString run = QUuid::createUuid().toString(QUuid::WithoutBraces);
    beginRun(run);
    act(QStringLiteral("sandbox.verify"), {{QStringLiteral("name"), m_sandbox}, {QStringLiteral("run"), run}},
        [this, run](const api::Reply &reply) {
            if (m_run != run)
                return;
            if (!reply.isError())
                return applyVerifyResult(run, reply.result());
            m_run.clear();
            m_progress.clear();
            setError(reply.errorMessage());
            Q_EMIT checkingChanged();
        });
}

void ClassroomModel::applyVerifyEvent(const QJsonObject &event)
{
    if (m_run.isEmpty() || event.value(QLatin1String("run")).toString() != m_run)
        return;
    m_checks.applyCheck(event.value(QLatin1String("check")).toObject());
    const int done = event.value(QLatin1String("index")).toInt() + 1;
    const int total = event.value(QLatin1String("total")).toInt();
    m_progress = done < total ? tr("Checked %1 of %2…").arg(done).arg(total) : QString();
    Q_EMIT checkingChanged();
}

void ClassroomModel::applyVerifyResult(const QString &run, const QJsonObject &result)
{
    if (run != m_run)
        return;
    m_checks.applyResult(result);
    m_run.clear();
    m_progress.clear();
    m_passed = result.value(QLatin1String("passed")).toBool();
    m_verdict = m_passed ? tr("No check failed: this sandbox is ready.")
                         : tr("Some checks failed: read each sentence for what to fix.");
    Q_EMIT checkingChanged();
}

} // namespace paddock::gui
