// SPDX-License-Identifier: GPL-3.0-or-later
#include "SecretListModel.h"

#include "kit/KitLibrary.h"
#include "kit/KitLoader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSecretList, "paddock.gui.secrets", QtWarningMsg)

namespace paddock::gui {
namespace {

/** Overwrites the characters of @p value before it is released. */
void wipe(QString &value)
{
    value.fill(QLatin1Char('\0'));
    value.clear();
}

QString when(const QDateTime &time)
{
    return QLocale().toString(time.toLocalTime(), QLocale::ShortFormat);
}

/** "Command: gh auth token (every 55m)"; empty for a key in the keychain. */
QString sourceSentence(const StoredSecret &row)
{
    const QString refresh = row.refresh == QLatin1String("on-demand")
                                ? SecretListModel::tr("run for every request")
                                : SecretListModel::tr("every %1").arg(row.refresh);
    if (row.source == QLatin1String("command"))
        return SecretListModel::tr("Command: %1 (%2)").arg(row.sourceText, refresh);
    if (row.source == QLatin1String("reference"))
        return SecretListModel::tr("1Password: %1 (%2)").arg(row.sourceText, refresh);
    if (row.source == QLatin1String("custom"))
        return SecretListModel::tr("Placeholder in %1, replaced for %2").arg(row.variable, row.sourceText);
    return QString();
}

/** When the source last gave a value, and its failure when that came later. */
QString resolvedSentence(const StoredSecret &row)
{
    if (row.source == QLatin1String("keychain") || row.source == QLatin1String("custom"))
        return QString(); // nothing runs for these
    if (row.failed.isValid() && (!row.resolved.isValid() || row.failed > row.resolved))
        return SecretListModel::tr("Failed %1: %2").arg(when(row.failed), row.error);
    return row.resolved.isValid() ? SecretListModel::tr("Resolved %1").arg(when(row.resolved))
                                  : SecretListModel::tr("Not resolved yet");
}

} // namespace

SecretListModel::SecretListModel(QObject *parent) : RowListModel(parent)
{
    using R = const StoredSecret &;
    m_rows.setRoles(
        {{ServiceRole, "service", [](R row) { return row.service; }},
         {SandboxRole, "sandbox", [](R row) { return row.sandbox; }},
         {MaskedRole, "masked", [](R row) { return row.masked; }},
         {PresentRole, "present", [](R row) { return row.present; }},
         {UpdatedRole, "updated",
          [](R row) {
              return row.updated.isValid() ? QLocale().toString(row.updated.toLocalTime(), QLocale::ShortFormat)
                                           : QString();
          }},
         {DisplayNameRole, "displayName",
          [](R row) { return row.sandbox.isEmpty() ? row.service : row.sandbox + QLatin1Char('/') + row.service; }},
         {SourceRole, "source", [](R row) { return row.source; }},
         {SourceTextRole, "sourceText", [](R row) { return sourceSentence(row); }},
         {ResolvedRole, "resolved", [](R row) { return resolvedSentence(row); }},
         {VariableRole, "variable", [](R row) { return row.variable; }},
         {HostsRole, "hosts",
          [](R row) { return row.source == QLatin1String("custom") ? row.sourceText : QString(); }}});
    // Which keys the kits need is known without the daemon: the page says it at once.
    reloadKits();
}

bool SecretListModel::isValidName(const QString &name)
{
    if (name.isEmpty() || name.size() > 64 || name == QLatin1String(".") || name == QLatin1String(".."))
        return false;
    return std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
               (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') || c == QLatin1Char('_') ||
               c == QLatin1Char('-');
    });
}

void SecretListModel::changeBusy(int delta)
{
    const bool before = busy();
    m_busy += delta;
    if (before != busy())
        Q_EMIT busyChanged();
}

void SecretListModel::setKeychain(bool known, bool available, const QString &message, const QString &install)
{
    if (known == m_keychainKnown && available == m_keychainAvailable && message == m_keychainMessage &&
        install == m_keychainInstall)
        return;
    m_keychainKnown = known;
    m_keychainAvailable = available;
    m_keychainMessage = message;
    m_keychainInstall = install;
    Q_EMIT keychainChanged();
}

void SecretListModel::reloadKits()
{
    kit::KitLibrary library;
    library.reload();
    QList<QVariantMap> needs;
    for (const kit::KitEntry &entry : library.entries()) {
        if (!entry.valid() || entry.kind != QLatin1String("sandbox"))
            continue;
        const kit::KitLoadResult loaded = kit::KitLoader::loadDirectory(entry.directory);
        if (!loaded.kit)
            continue;
        for (const kit::Credential &credential : loaded.kit->credentials) {
            if (!isValidName(credential.service))
                continue;
            needs.append({{QStringLiteral("kit"), entry.name},
                          {QStringLiteral("service"), credential.service},
                          {QStringLiteral("description"), credential.description},
                          {QStringLiteral("required"), credential.required}});
        }
    }
    m_kitNeeds = needs;
    updateNeeded();
}

void SecretListModel::updateNeeded()
{
    QVariantList needed;
    for (QVariantMap need : std::as_const(m_kitNeeds)) {
        const QString service = need.value(QStringLiteral("service")).toString();
        const bool stored = std::any_of(m_rows.all().cbegin(), m_rows.all().cend(), [&](const StoredSecret &secret) {
            return secret.present && secret.sandbox.isEmpty() && secret.service == service;
        });
        need.insert(QStringLiteral("stored"), stored);
        need.insert(QStringLiteral("text"),
                    (stored ? tr("Needed by %1: %2 — stored") : tr("Needed by %1: %2 — not stored"))
                        .arg(need.value(QStringLiteral("kit")).toString(), service));
        needed.append(need);
    }
    if (needed == m_needed)
        return;
    m_needed = needed;
    Q_EMIT neededKeysChanged();
}

QString SecretListModel::suggestedService() const
{
    for (const QVariant &need : m_needed) {
        if (!need.toMap().value(QStringLiteral("stored")).toBool())
            return need.toMap().value(QStringLiteral("service")).toString();
    }
    return m_needed.isEmpty() ? QString() : m_needed.first().toMap().value(QStringLiteral("service")).toString();
}

void SecretListModel::refresh()
{
    reloadKits();
    if (!connected())
        return;
    // Both answers make the load: whether a keychain answers, and what it holds.
    beginLoad();
    changeBusy(+1);
    request(QStringLiteral("keychain.status"), {}, [this](const api::Reply &reply) {
        changeBusy(-1);
        if (reply.isError())
            return failLoad(reply.errorMessage());
        applyKeychainStatus(reply.result());
    });
    changeBusy(+1);
    request(QStringLiteral("secret.list"), {}, [this](const api::Reply &reply) {
        changeBusy(-1);
        if (!reply.isError())
            return applySecretList(reply.result());
        // The banner says it better than an error line when there is no keychain.
        failLoad(reply.errorCode() == QLatin1String(api::errors::kKeychainUnavailable) ? error()
                                                                                       : reply.errorMessage());
    });
}

void SecretListModel::applyKeychainStatus(const QJsonObject &status)
{
    setKeychain(true, status.value(QLatin1String("available")).toBool(),
                status.value(QLatin1String("message")).toString(), status.value(QLatin1String("install")).toString());
}

std::optional<StoredSecret> StoredSecret::fromJson(const QJsonObject &object)
{
    const auto text = [&object](const char *key) { return object.value(QLatin1String(key)).toString(); };
    StoredSecret row;
    row.service = text("service");
    row.sandbox = text("sandbox");
    row.masked = text("masked");
    row.present = object.value(QLatin1String("present")).toBool();
    row.updated = QDateTime::fromString(text("updated"), Qt::ISODate);
    if (!text("source").isEmpty())
        row.source = text("source");
    row.sourceText = text("sourceText");
    row.refresh = text("refresh");
    row.variable = text("variable");
    row.resolved = QDateTime::fromString(text("lastResolved"), Qt::ISODate);
    row.failed = QDateTime::fromString(text("lastFailed"), Qt::ISODate);
    row.error = text("lastError");
    return row;
}

void SecretListModel::applySecretList(const QJsonObject &result)
{
    QList<StoredSecret> secrets = Rows<StoredSecret>::fromJson(result.value(QLatin1String("secrets")).toArray());
    qCDebug(lcSecretList) << "the keychain holds" << secrets.size() << "secrets";
    m_rows.reset(std::move(secrets));
    updateNeeded();
    endLoad();
}

void SecretListModel::set(const QString &service, const QString &sandbox, QString value)
{
    if (!isValidName(service) || (!sandbox.isEmpty() && !isValidName(sandbox))) {
        wipe(value);
        return Q_EMIT actionFailed(tr("Names may use letters, digits, '.', '_' and '-' only."));
    }
    if (value.isEmpty())
        return Q_EMIT actionFailed(tr("The key is empty: nothing was stored."));
    QJsonObject params{{QStringLiteral("service"), service}, {QStringLiteral("value"), value}};
    wipe(value);
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    const QString name = sandbox.isEmpty() ? service : sandbox + QLatin1Char('/') + service;
    change(QStringLiteral("secret.set"), params, tr("The key of %1 is stored in the keychain.").arg(name));
}

void SecretListModel::remove(const QString &service, const QString &sandbox)
{
    QJsonObject params{{QStringLiteral("service"), service}};
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    const QString name = sandbox.isEmpty() ? service : sandbox + QLatin1Char('/') + service;
    change(QStringLiteral("secret.remove"), params, tr("The key of %1 was removed from the keychain.").arg(name));
}

void SecretListModel::removeCustom(const QString &name)
{
    if (!isValidName(name))
        return Q_EMIT actionFailed(tr("Names may use letters, digits, '.', '_' and '-' only."));
    change(QStringLiteral("secret.remove"), {{QStringLiteral("service"), name}, {QStringLiteral("custom"), true}},
           tr("The custom secret %1 was removed: its placeholder is no longer replaced.").arg(name));
}

void SecretListModel::test(const QString &service, const QString &sandbox)
{
    QJsonObject params{{QStringLiteral("service"), service}};
    if (!sandbox.isEmpty())
        params.insert(QStringLiteral("sandbox"), sandbox);
    changeBusy(+1);
    act(QStringLiteral("secret.test"), params, [this, service](const api::Reply &reply) {
        changeBusy(-1);
        refresh(); // when a command or a reference ran, and how
        if (reply.isError())
            return Q_EMIT actionFailed(reply.errorMessage());
        const QJsonObject answer = reply.result();
        const QString url = answer.value(QLatin1String("url")).toString();
        const QString status = answer.value(QLatin1String("statusLine")).toString();
        if (answer.value(QLatin1String("accepted")).toBool())
            return Q_EMIT actionSucceeded(
                tr("The provider accepted the %1 key: %2 answered %3").arg(service, url, status));
        Q_EMIT actionFailed(tr("The %1 key was not accepted: %2 answered %3").arg(service, url, status));
    });
}

void SecretListModel::change(const QString &method, const QJsonObject &params, const QString &done)
{
    changeBusy(+1);
    act(method, params, [this, done](const api::Reply &reply) {
        changeBusy(-1);
        if (reply.isError())
            Q_EMIT actionFailed(reply.errorMessage());
        else
            Q_EMIT actionSucceeded(done);
        refresh();
    });
}

} // namespace paddock::gui
