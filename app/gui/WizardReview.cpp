// SPDX-License-Identifier: GPL-3.0-or-later
#include "WizardReview.h"

#include "kit/Kit.h"
#include "policy/HostGrant.h"
#include "policy/HostGrantApprovals.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

namespace paddock::gui {
namespace {

/** A pattern for many hosts (`*.example.com`, `*`); any port of one named host (`example.com:*`) is not. */
bool isWildcardPattern(const QString &pattern)
{
    return pattern.startsWith(QLatin1String("*"));
}

QStringList injectionDomains(const kit::Credential &credential)
{
    QStringList domains;
    if (!credential.apiKey)
        return domains;
    for (const kit::Injection &injection : credential.apiKey->inject) {
        const QString domain = injection.domain.trimmed().toLower();
        if (!domain.isEmpty() && !domains.contains(domain))
            domains << domain;
    }
    return domains;
}

/** The kit's credentials for the review, with a warning for each key sent to a wildcard. */
QVariantList reviewCredentials(const kit::Kit &kit, QStringList *warnings)
{
    QVariantList credentials;
    for (const kit::Credential &credential : kit.credentials) {
        const QStringList domains = injectionDomains(credential);
        credentials << QVariantMap{{QStringLiteral("service"), credential.service},
                                   {QStringLiteral("description"), credential.description},
                                   {QStringLiteral("required"), credential.required},
                                   {QStringLiteral("domains"), domains}};
        for (const QString &domain : domains) {
            if (isWildcardPattern(domain))
                *warnings << QCoreApplication::translate("paddock::gui::SandboxWizard",
                                                         "Your %1 key would be sent to every host matching %2.")
                                 .arg(credential.service, domain);
        }
    }
    return credentials;
}

/** The kit's host grants; grants approved for it before (an earlier sandbox of it) are not asked about again. */
void reviewHostGrants(const kit::Kit &kit, KitReview *out)
{
    policy::HostGrantApprovals approvals;
    const bool approvalsRead = !approvals.load();
    for (const policy::HostGrant &grant : policy::hostGrantsOf(kit.networkAllow)) {
        const bool approved = approvalsRead && approvals.isApproved(kit.name, grant);
        out->hostGrantsPending = out->hostGrantsPending || !approved;
        out->hostGrants << QVariantMap{{QStringLiteral("pattern"), grant.pattern},
                                       {QStringLiteral("reaches"), grant.reachPhrase()},
                                       {QStringLiteral("approved"), approved}};
    }
}

/** What else the kit asks of this computer: privilege, wildcards, ports, files in the project. */
void warnAboutReach(const kit::Kit &kit, const QStringList &ports, QStringList *warnings)
{
    if (kit.privileged.value_or(false))
        *warnings << QCoreApplication::translate("paddock::gui::SandboxWizard",
                                                 "The kit asks for a privileged sandbox (security.privileged).");
    for (const QString &pattern : kit.networkAllow) {
        if (isWildcardPattern(pattern))
            *warnings << QCoreApplication::translate("paddock::gui::SandboxWizard",
                                                     "The kit allows connections to every host matching %1.")
                             .arg(pattern);
    }
    if (!ports.isEmpty())
        *warnings << QCoreApplication::translate("paddock::gui::SandboxWizard",
                                                 "The kit publishes ports %1 of the sandbox on this computer.")
                         .arg(ports.join(QStringLiteral(", ")));
    const auto workspaceFiles = std::count_if(kit.files.cbegin(), kit.files.cend(), [](const kit::KitFile &f) {
        return f.target == QLatin1String("workspace");
    });
    if (workspaceFiles == 1)
        *warnings << QCoreApplication::translate("paddock::gui::SandboxWizard",
                                                 "The kit writes a file into your project folder.");
    else if (workspaceFiles > 1)
        *warnings << QCoreApplication::translate("paddock::gui::SandboxWizard",
                                                 "The kit writes %1 files into your project folder.")
                         .arg(workspaceFiles);
}

} // namespace

KitReview reviewOfKit(const kit::Kit &kit, const QStringList &parts)
{
    KitReview out;
    const QVariantList credentials = reviewCredentials(kit, &out.hostWarnings);
    QStringList ports;
    for (const kit::Port &port : kit.ports)
        ports << QStringLiteral("%1/%2").arg(port.container).arg(port.protocol);
    out.review = QVariantMap{
        {QStringLiteral("name"), kit.name},
        {QStringLiteral("displayName"), kit.displayName.isEmpty() ? kit.name : kit.displayName},
        {QStringLiteral("description"), kit.description},
        {QStringLiteral("version"), kit.version},
        {QStringLiteral("image"), kit.sandbox ? kit.sandbox->image : QString()},
        // A v3 kit's image is its layers in Paddock's store: shown by the reference it came from.
        {QStringLiteral("reference"), kit.reference},
        {QStringLiteral("domains"), kit.networkAllow},
        {QStringLiteral("deniedDomains"), kit.networkDeny},
        {QStringLiteral("credentials"), credentials},
        {QStringLiteral("ports"), ports},
        {QStringLiteral("installCommands"), int(kit.setup.install.size())},
        // What the sandbox starts (under bubblewrap, with no image: from this computer's system).
        {QStringLiteral("program"),
         kit.sandbox ? (kit.sandbox->entrypoint + kit.sandbox->commandDefault).value(0) : QString()},
        {QStringLiteral("parts"), parts},
    };
    reviewHostGrants(kit, &out);
    warnAboutReach(kit, ports, &out.hostWarnings);
    return out;
}

QString missingProgramNote(const QVariantMap &review)
{
    const QString program = review.value(QStringLiteral("program")).toString();
    if (program.isEmpty())
        return {};
    const bool found = program.contains(QLatin1Char('/')) ? QFileInfo(program).isExecutable()
                                                          : !QStandardPaths::findExecutable(program).isEmpty();
    if (found)
        return {};
    // The sandbox stands on this computer's system: a program it does not have, the agent lacks.
    return review.value(QStringLiteral("installCommands")).toInt() > 0
               ? QCoreApplication::translate(
                     "paddock::gui::SandboxWizard",
                     " The kit starts %1, which this computer does not have: the agent starts only if the kit's "
                     "setup installs it, or once the kit's image is loaded.")
                     .arg(program)
               : QCoreApplication::translate(
                     "paddock::gui::SandboxWizard",
                     " The kit starts %1, which this computer does not have: the agent cannot start until the "
                     "kit's image is loaded (paddock template load FILE) or %1 is installed.")
                     .arg(program);
}

} // namespace paddock::gui
