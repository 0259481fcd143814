// SPDX-License-Identifier: GPL-3.0-or-later
#include "network/UpstreamSettings.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "common/QuotedString.h"
#include "common/YamlDecode.h"
#include "policy/IpAddress.h"

#include <QDir>
#include <QFile>
#include <QHostInfo>
#include <QProcess>
#include <QStandardPaths>

#include <functional>

Q_LOGGING_CATEGORY(lcNetworkSettings, "paddock.network.settings")

namespace paddock::network {
namespace {

using yaml::DecodeError;

SettingsFile decode(const YAML::Node &root)
{
    SettingsFile settings;
    if (!root || root.IsNull())
        return settings;
    if (!root.IsMap())
        throw DecodeError{root.Mark(), QStringLiteral("expected a mapping of settings")};
    for (const auto &entry : root) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        QString *target = key == "upstreamProxy" ? &settings.upstreamProxy
                          : key == "noProxy"     ? &settings.noProxy
                                                 : nullptr;
        if (!target)
            throw DecodeError{entry.first.Mark(),
                              QStringLiteral("unknown setting; expected 'upstreamProxy' or 'noProxy'")};
        if (!entry.second.IsScalar())
            throw DecodeError{entry.second.Mark(),
                              QStringLiteral("'%1' takes one string").arg(QString::fromStdString(key))};
        *target = QString::fromStdString(entry.second.Scalar()).trimmed();
        if (target == &settings.upstreamProxy && !target->isEmpty()) {
            const Result<proxy::UpstreamProxy> proxy = proxy::parseUpstreamProxy(*target);
            if (!proxy)
                throw DecodeError{entry.second.Mark(), proxy.error().text()};
            // A file is no place for a password: the keychain holds it.
            if (!proxy->password.empty())
                throw DecodeError{
                    entry.second.Mark(),
                    QStringLiteral("the URL holds a password; keep it in the keychain instead: paddock "
                                   "settings set upstream-proxy URL-WITHOUT-IT, then paddock settings set "
                                   "upstream-proxy-password")};
        }
    }
    return settings;
}

/** GSettings' text form of a string ('…') or a string array (['…', '…']), unquoted. */
QStringList gsettingsStrings(const QString &text)
{
    QStringList values;
    const QString trimmed = text.trimmed();
    qsizetype at = 0;
    while ((at = trimmed.indexOf(QLatin1Char('\''), at)) >= 0) {
        const qsizetype end = trimmed.indexOf(QLatin1Char('\''), at + 1);
        if (end < 0)
            break;
        values << trimmed.mid(at + 1, end - at - 1);
        at = end + 1;
    }
    return values;
}

QString gsettings(const QString &schema, const QString &key)
{
    QProcess process;
    process.start(QStringLiteral("gsettings"), {QStringLiteral("get"), schema, key});
    if (!process.waitForFinished(1000) || process.exitCode() != 0) {
        process.kill();
        return {};
    }
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}

/** The first set variable of @p names, and its name. */
std::pair<QString, QString> firstOf(const QProcessEnvironment &environment, std::initializer_list<const char *> names)
{
    for (const char *name : names) {
        const QString value = environment.value(QLatin1String(name)).trimmed();
        if (!value.isEmpty())
            return {QLatin1String(name), value};
    }
    return {};
}

} // namespace

QString SettingsFile::path()
{
    return paths::configDir() + QStringLiteral("/settings.yaml");
}

std::variant<SettingsFile, FileError> SettingsFile::load(const QString &path)
{
    SettingsFile settings;
    if (const std::optional<FileError> problem = loadFile(
            path, &settings,
            [](const QByteArray &text, const QString &file) { return yaml::decodeText(text, file, decode); },
            lcNetworkSettings()))
        return *problem;
    return settings;
}

bool SettingsFile::save(QString *error, const QString &path) const
{
    QByteArray text =
        "# Paddock's network settings (paddock settings). The upstream proxy's password is in the keychain.\n";
    if (!upstreamProxy.isEmpty())
        text += "upstreamProxy: " + doubleQuoted(upstreamProxy, ControlEscape::Yaml).toUtf8() + '\n';
    if (!noProxy.isEmpty())
        text += "noProxy: " + doubleQuoted(noProxy, ControlEscape::Yaml).toUtf8() + '\n';
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = QStringLiteral("%1 cannot be created").arg(QFileInfo(path).absolutePath());
        return false;
    }
    return writeFileAtomically(path, text, error, 0600);
}

DesktopProxy DesktopProxy::read()
{
    DesktopProxy desktop;
    if (QStandardPaths::findExecutable(QStringLiteral("gsettings")).isEmpty())
        return desktop;
    const QString base = QStringLiteral("org.gnome.system.proxy");
    const QStringList mode = gsettingsStrings(gsettings(base, QStringLiteral("mode")));
    if (mode.value(0) == QLatin1String("auto")) {
        const QString pac = gsettingsStrings(gsettings(base, QStringLiteral("autoconfig-url"))).value(0);
        desktop.problem = QStringLiteral("the desktop's proxy is configured automatically (%1), which Paddock cannot "
                                         "read; set it with `paddock settings set upstream-proxy URL`")
                              .arg(pac.isEmpty() ? QStringLiteral("WPAD") : pac);
        return desktop;
    }
    if (mode.value(0) != QLatin1String("manual"))
        return desktop;
    for (const auto &[scheme, schema] : {std::pair{"http", "https"}, {"http", "http"}, {"socks5h", "socks"}}) {
        const QString child = base + QLatin1Char('.') + QLatin1String(schema);
        const QString host = gsettingsStrings(gsettings(child, QStringLiteral("host"))).value(0);
        const int port = gsettings(child, QStringLiteral("port")).section(QLatin1Char(' '), -1).toInt();
        if (host.isEmpty() || port <= 0)
            continue;
        desktop.url = QStringLiteral("%1://%2:%3").arg(QLatin1String(scheme), host).arg(port);
        break;
    }
    desktop.noProxy = gsettingsStrings(gsettings(base, QStringLiteral("ignore-hosts"))).join(QLatin1Char(','));
    return desktop;
}

UpstreamChoice chooseUpstream(const SettingsFile &file, const QProcessEnvironment &environment,
                              const std::function<DesktopProxy()> &desktop)
{
    UpstreamChoice choice;
    QString url = file.upstreamProxy;
    QString noProxy = file.noProxy;
    QString source = QStringLiteral("the settings");
    if (url.isEmpty()) {
        // As curl reads them: http_proxy only in lower case (a CGI's HTTP_PROXY is a request header).
        std::tie(source, url) =
            firstOf(environment, {"HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "http_proxy"});
        if (noProxy.isEmpty())
            noProxy = firstOf(environment, {"NO_PROXY", "no_proxy"}).second;
    }
    if (url.isEmpty() && desktop) {
        const DesktopProxy fromDesktop = desktop();
        choice.problem = fromDesktop.problem;
        url = fromDesktop.url;
        source = QStringLiteral("GNOME's proxy settings");
        if (noProxy.isEmpty())
            noProxy = fromDesktop.noProxy;
    }
    if (url.isEmpty())
        return choice;
    Result<proxy::UpstreamProxy> proxy = proxy::parseUpstreamProxy(url);
    if (!proxy) {
        choice.problem = QStringLiteral("%1: %2").arg(source, proxy.error().text());
        return choice;
    }
    proxy->noProxy = proxy::NoProxy(noProxy);
    proxy->source = source;
    // What the rebinding guard calls non-public is what no company proxy can reach: one list.
    proxy->isLocal = [](const QHostAddress &address) {
        return policy::IpAddress::fromHostAddress(address).isNonPublic();
    };
    choice.proxy = std::move(proxy).value();
    choice.source = source;
    return choice;
}

void resolveUpstream(proxy::UpstreamProxy &proxy)
{
    proxy.addresses.clear();
    proxy.unresolved.clear();
    const QString host = QString::fromStdString(proxy.host);
    if (const QHostAddress literal(host); !literal.isNull()) {
        proxy.addresses.push_back(literal);
        return;
    }
    const QHostInfo info = QHostInfo::fromName(host);
    for (const QHostAddress &address : info.addresses())
        proxy.addresses.push_back(address);
    if (proxy.addresses.empty())
        proxy.unresolved = QStringLiteral("the upstream proxy %1 cannot be found: %2")
                               .arg(proxy.authority(), info.error() == QHostInfo::NoError ? QStringLiteral("no address")
                                                                                          : info.errorString());
}

} // namespace paddock::network
