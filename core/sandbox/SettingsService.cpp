// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/SettingsService.h"

#include "sandbox/SandboxService.h"
#include "secrets/Masking.h"

#include <QHostInfo>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSettings, "paddock.settings")

namespace paddock::sandbox {
namespace {

using network::SettingsFile;

constexpr int kRefreshMs = 5 * 60 * 1000;
constexpr int kRetryMs = 30 * 1000;

const QString kUpstreamKey = QStringLiteral("upstream-proxy");
const QString kNoProxyKey = QStringLiteral("no-proxy");
const QString kPasswordKey = QStringLiteral("upstream-proxy-password");

api::Reply invalid(const QString &message)
{
    return api::Reply::failure(QLatin1String(api::errors::kInvalidParams), message);
}

/** The file as it is now; a broken one is an error for whoever wants to change it. */
Result<SettingsFile> currentFile()
{
    auto loaded = SettingsFile::load();
    if (const FileError *problem = std::get_if<FileError>(&loaded))
        return fail(problem->toString());
    return std::get<SettingsFile>(loaded);
}

} // namespace

SettingsService::SettingsService(api::Server &server, SandboxService &sandboxes, QObject *parent)
    : QObject(parent),
      m_server(server),
      m_sandboxes(sandboxes),
      m_store(std::make_unique<secrets::SecretStore>(this)),
      m_environment(QProcessEnvironment::systemEnvironment())
{
    m_refresh.setSingleShot(true);
    connect(&m_refresh, &QTimer::timeout, this, [this] { apply(); });
}

SettingsService::~SettingsService() = default;

QString SettingsService::topic()
{
    return QStringLiteral("settings");
}

void SettingsService::start()
{
    registerMethods();
    m_server.registerTopic(topic());
    apply();
}

void SettingsService::registerMethods()
{
    m_server.registerMethod(QStringLiteral("settings.get"), [this](const QJsonObject &, const api::CallContext &) {
        return api::Reply::success(describe());
    });
    m_server.registerAsyncMethod(QStringLiteral("settings.set"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { set(params, reply); });
    m_server.registerAsyncMethod(QStringLiteral("settings.unset"),
                                 [this](const QJsonObject &params, const api::CallContext &,
                                        const api::PendingReply &reply) { unset(params, reply); });
}

void SettingsService::apply(std::function<void()> done)
{
    if (done)
        m_waiting.push_back(std::move(done));
    const int generation = ++m_generation;
    auto loaded = SettingsFile::load();
    if (const FileError *problem = std::get_if<FileError>(&loaded)) {
        m_fileProblem = problem->toString();
        m_file = SettingsFile();
    } else {
        m_fileProblem.clear();
        m_file = std::get<SettingsFile>(loaded);
    }
    network::UpstreamChoice choice = network::chooseUpstream(m_file, m_environment, &network::DesktopProxy::read);
    if (!choice.proxy || choice.proxy->user.empty() || !choice.proxy->password.empty())
        return finish(std::move(choice), generation);
    // A user without a password in the URL: the keychain has it, if anyone stored it.
    m_store->getKeyMaterial(
        QLatin1String(network::kUpstreamPasswordKey),
        [this, choice = std::move(choice), generation](secrets::SecretResult result) mutable {
            if (result.ok())
                choice.proxy->password = result.value.toStdString();
            else if (result.error != secrets::SecretError::NotFound)
                choice.problem = QStringLiteral("the upstream proxy's password cannot be read: %1").arg(result.message);
            secrets::wipe(result.value);
            finish(std::move(choice), generation);
        });
}

void SettingsService::finish(network::UpstreamChoice choice, int generation)
{
    const auto inForce = [this, generation](network::UpstreamChoice chosen) {
        if (generation != m_generation)
            return; // a newer reading is on its way, and its callers wait for it
        m_choice = std::move(chosen);
        m_passwordUsed = m_choice.proxy && !m_choice.proxy->password.empty();
        m_sandboxes.proxy().setUpstreamProxy(
            m_choice.proxy ? std::make_shared<const proxy::UpstreamProxy>(*m_choice.proxy) : nullptr);
        if (m_choice.proxy)
            qCInfo(lcSettings).noquote() << "connections out go through" << m_choice.proxy->display() << "from"
                                         << m_choice.source
                                         << (m_choice.proxy->unresolved.isEmpty() ? QString()
                                                                                  : m_choice.proxy->unresolved);
        else if (!m_choice.problem.isEmpty())
            qCWarning(lcSettings).noquote() << "no upstream proxy:" << m_choice.problem;
        m_refresh.start(m_choice.proxy && !m_choice.proxy->unresolved.isEmpty() ? kRetryMs : kRefreshMs);
        m_server.publish(topic(), {{QStringLiteral("changed"), true}});
        for (const std::function<void()> &waiting : std::exchange(m_waiting, {}))
            waiting();
    };
    if (!choice.proxy || !QHostAddress(QString::fromStdString(choice.proxy->host)).isNull()) {
        if (choice.proxy)
            network::resolveUpstream(*choice.proxy); // a literal: no lookup
        return inForce(std::move(choice));
    }
    // Off the proxy's thread, and without blocking the daemon's.
    QHostInfo::lookupHost(QString::fromStdString(choice.proxy->host), this,
                          [choice = std::move(choice), inForce](const QHostInfo &info) mutable {
                              proxy::UpstreamProxy &proxy = *choice.proxy;
                              for (const QHostAddress &address : info.addresses())
                                  proxy.addresses.push_back(address);
                              if (proxy.addresses.empty())
                                  proxy.unresolved = QStringLiteral("the upstream proxy %1 cannot be found: %2")
                                                         .arg(proxy.authority(), info.errorString());
                              inForce(std::move(choice));
                          });
}

QMap<QString, QString> SettingsService::buildArguments() const
{
    QMap<QString, QString> arguments;
    const std::optional<proxy::UpstreamProxy> &proxy = m_choice.proxy;
    if (!proxy)
        return arguments;
    const QString scheme = proxy->kind == proxy::UpstreamProxy::Kind::Http     ? QStringLiteral("http")
                           : proxy->kind == proxy::UpstreamProxy::Kind::Socks5 ? QStringLiteral("socks5")
                                                                               : QStringLiteral("socks5h");
    const QString url = scheme + QStringLiteral("://") + proxy->authority();
    for (const char *name : {"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"})
        arguments.insert(QLatin1String(name), url);
    if (!proxy->noProxy.text().isEmpty())
        for (const char *name : {"NO_PROXY", "no_proxy"})
            arguments.insert(QLatin1String(name), proxy->noProxy.text());
    return arguments;
}

QJsonObject SettingsService::describe() const
{
    QJsonValue upstream = QJsonValue::Null;
    if (const std::optional<proxy::UpstreamProxy> &proxy = m_choice.proxy) {
        QJsonArray addresses;
        for (const QHostAddress &address : proxy->addresses)
            addresses.append(address.toString());
        upstream = QJsonObject{
            {QStringLiteral("url"), proxy->display()},          {QStringLiteral("source"), m_choice.source},
            {QStringLiteral("noProxy"), proxy->noProxy.text()}, {QStringLiteral("password"), m_passwordUsed},
            {QStringLiteral("addresses"), addresses},           {QStringLiteral("problem"), proxy->unresolved}};
    }
    return {{QStringLiteral("upstreamProxy"), upstream},
            {QStringLiteral("file"), QJsonObject{{QStringLiteral("path"), SettingsFile::path()},
                                                 {QStringLiteral("upstreamProxy"), m_file.upstreamProxy},
                                                 {QStringLiteral("noProxy"), m_file.noProxy}}},
            {QStringLiteral("problem"), m_fileProblem.isEmpty() ? m_choice.problem : m_fileProblem}};
}

void SettingsService::set(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString key = params.value(QLatin1String("key")).toString();
    QString value = params.value(QLatin1String("value")).toString();
    if (key == kPasswordKey) {
        if (value.isEmpty())
            return reply.complete(invalid(QStringLiteral("the password is empty: nothing was stored")));
        QByteArray bytes = value.toUtf8();
        secrets::wipe(value);
        return storePassword(std::move(bytes), reply);
    }
    if (key != kUpstreamKey && key != kNoProxyKey)
        return reply.complete(invalid(QStringLiteral("unknown setting '%1'; the settings are %2, %3 and %4")
                                          .arg(key, kUpstreamKey, kNoProxyKey, kPasswordKey)));
    Result<SettingsFile> file = currentFile();
    if (!file)
        return reply.complete(invalid(file.error().text()));
    QString error;
    QByteArray password;
    if (key == kNoProxyKey) {
        file->noProxy = value.trimmed();
    } else {
        Result<proxy::UpstreamProxy> parsed = proxy::parseUpstreamProxy(value);
        if (!parsed)
            return reply.complete(invalid(parsed.error().text()));
        // The file keeps the URL; a password in it goes to the keychain instead.
        password = QByteArray::fromStdString(parsed->password);
        parsed->password.clear();
        file->upstreamProxy = parsed->display();
    }
    if (!file->save(&error))
        return reply.fail(QLatin1String(api::errors::kInternal), error);
    if (!password.isEmpty())
        return storePassword(std::move(password), reply);
    apply([this, reply] { reply.succeed(describe()); });
}

void SettingsService::storePassword(QByteArray password, const api::PendingReply &reply)
{
    const auto stored = [this, reply](secrets::SecretResult result) {
        secrets::wipe(result.value);
        if (!result.ok() && result.error != secrets::SecretError::NotFound)
            return reply.fail(QLatin1String(api::errors::kKeychainError), result.message);
        apply([this, reply] { reply.succeed(describe()); });
    };
    if (password.isEmpty())
        return m_store->removeKeyMaterial(QLatin1String(network::kUpstreamPasswordKey), stored);
    m_store->setKeyMaterial(QLatin1String(network::kUpstreamPasswordKey), std::move(password), stored);
}

void SettingsService::unset(const QJsonObject &params, const api::PendingReply &reply)
{
    const QString key = params.value(QLatin1String("key")).toString();
    if (key == kPasswordKey)
        return storePassword({}, reply);
    if (key != kUpstreamKey && key != kNoProxyKey)
        return reply.complete(invalid(QStringLiteral("unknown setting '%1'").arg(key)));
    Result<SettingsFile> file = currentFile();
    if (!file)
        return reply.complete(invalid(file.error().text()));
    QString error;
    (key == kUpstreamKey ? file->upstreamProxy : file->noProxy).clear();
    if (!file->save(&error))
        return reply.fail(QLatin1String(api::errors::kInternal), error);
    apply([this, reply] { reply.succeed(describe()); });
}

} // namespace paddock::sandbox
