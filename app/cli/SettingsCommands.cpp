// SPDX-License-Identifier: GPL-3.0-or-later
// `paddock settings`: the upstream (corporate) proxy and the hosts that go around it, kept by
// the daemon (sandbox/SettingsService.h) and in force when the command returns.
#include "Cli.h"
#include "CliSupport.h"
#include "SecretCliSupport.h"

#include "secrets/Masking.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace paddock::cli {
namespace {

const QString kUpstream = QStringLiteral("upstream-proxy");
const QString kNoProxy = QStringLiteral("no-proxy");
const QString kPassword = QStringLiteral("upstream-proxy-password");
const QString kUpstreamCa = QStringLiteral("upstream-ca");
constexpr int kSettingsTimeoutMs = 30000;

QString keysText()
{
    return QStringLiteral("%1, %2, %3 or %4").arg(kUpstream, kNoProxy, kPassword, kUpstreamCa);
}

void printSettings(const QJsonObject &settings)
{
    const QJsonValue upstream = settings.value(QLatin1String("upstreamProxy"));
    if (!upstream.isObject()) {
        out() << "Upstream proxy:  none: connections go straight out\n";
    } else {
        const QJsonObject proxy = upstream.toObject();
        out() << "Upstream proxy:  " << proxy.value(QLatin1String("url")).toString() << " (from "
              << proxy.value(QLatin1String("source")).toString()
              << (proxy.value(QLatin1String("password")).toBool() ? QStringLiteral(", with a password)")
                                                                  : QStringLiteral(")"))
              << '\n';
        QStringList addresses;
        for (const QJsonValue &address : proxy.value(QLatin1String("addresses")).toArray())
            addresses << address.toString();
        if (!addresses.isEmpty())
            out() << "  at:            " << addresses.join(QStringLiteral(", ")) << '\n';
        const QString noProxy = proxy.value(QLatin1String("noProxy")).toString();
        out() << "  not for:       " << (noProxy.isEmpty() ? QStringLiteral("-") : noProxy)
              << " (and this computer's own networks)\n";
        if (const QString problem = proxy.value(QLatin1String("problem")).toString(); !problem.isEmpty())
            out() << "  problem:       " << problem << '\n';
    }
    if (const QString problem = settings.value(QLatin1String("problem")).toString(); !problem.isEmpty())
        out() << "Problem:         " << problem << '\n';
    out() << "Settings file:   " << settings.value(QLatin1String("file"))[QLatin1String("path")].toString() << '\n';
}

int report(const Invocation &call, const QJsonObject &settings)
{
    if (call.parser.isSet(QStringLiteral("json")))
        out() << QJsonDocument(settings).toJson(QJsonDocument::Indented);
    else
        printSettings(settings);
    return ExitOk;
}

int runList(const Invocation &call)
{
    int code = ExitOk;
    const std::optional<QJsonObject> settings =
        callDaemon(call, QStringLiteral("settings.get"), {}, &code, kSettingsTimeoutMs);
    return settings ? report(call, *settings) : code;
}

/** `upstream-ca FILE`: the authority a TLS-inspecting proxy signs with, as `ca trust` adds one. */
int trustUpstreamAuthority(const Invocation &call)
{
    if (call.positional.size() != 2)
        return usageError(call.commandPath, QStringLiteral("upstream-ca takes a FILE"));
    const int code = trustAuthority(call.positional.at(1));
    if (code == ExitOk)
        out() << "Trusted upstream and in sandboxes started from now on; `paddock ca trusted` lists it, `paddock ca "
                 "untrust` removes it.\n";
    return code;
}

int runSet(const Invocation &call)
{
    const QString key = call.positional.constFirst();
    if (key == kUpstreamCa)
        return trustUpstreamAuthority(call);
    QJsonObject params{{QStringLiteral("key"), key}};
    if (key == kPassword) {
        if (call.positional.size() > 1)
            return usageError(call.commandPath,
                              QStringLiteral("the password is read from the terminal or standard input, never "
                                             "from the command line"));
        SecretReadResult input = isTerminal(0)
                                     ? readHiddenLine(0, QStringLiteral("Password of the upstream proxy (not shown): "))
                                     : readAllInput(0);
        if (!input.error.isEmpty())
            return failure(input.error);
        QString value = QString::fromUtf8(input.value);
        secrets::wipe(input.value);
        params.insert(QStringLiteral("value"), value);
        secrets::wipe(value);
    } else if (call.positional.size() != 2) {
        return usageError(call.commandPath, QStringLiteral("%1 takes one VALUE").arg(key));
    } else {
        params.insert(QStringLiteral("value"), call.positional.at(1));
    }
    int code = ExitOk;
    const std::optional<QJsonObject> settings =
        callDaemon(call, QStringLiteral("settings.set"), params, &code, kSettingsTimeoutMs);
    return settings ? report(call, *settings) : code;
}

int runUnset(const Invocation &call)
{
    const QString key = call.positional.constFirst();
    if (key == kUpstreamCa)
        return usageError(call.commandPath, QStringLiteral("remove an authority with `paddock ca untrust`"));
    int code = ExitOk;
    const std::optional<QJsonObject> settings =
        callDaemon(call, QStringLiteral("settings.unset"), {{QStringLiteral("key"), key}}, &code, kSettingsTimeoutMs);
    return settings ? report(call, *settings) : code;
}

} // namespace

Command settingsCommand()
{
    Command settings;
    settings.name = QStringLiteral("settings");
    settings.summary = QStringLiteral("The upstream (corporate) proxy connections out go through.");
    settings.description =
        QStringLiteral("Paddock's own connections out (what the policy allows, and `secret test`) go through an\n"
                       "upstream proxy when one is set: in the settings, else in the environment the daemon\n"
                       "started with (HTTPS_PROXY, ALL_PROXY, http_proxy and NO_PROXY, as curl reads them), else\n"
                       "in GNOME's proxy settings. The policy decides first: a refused destination never reaches\n"
                       "it. Hosts in no-proxy, and this computer's own networks, are reached directly.");

    Command list =
        leaf(QStringLiteral("ls"), QStringLiteral("Show the upstream proxy in force and where it comes from."),
             QStringLiteral("Shows the upstream proxy in force (never its password), where it comes\n"
                            "from, the hosts that go around it, and any problem with it."),
             runList);
    list.maxPositional = 0;
    list.options = {jsonOption(QStringLiteral("the settings"))};

    Command set = leaf(
        QStringLiteral("set"), QStringLiteral("Set the upstream proxy, the hosts around it, its password or its CA."),
        QStringLiteral("upstream-proxy URL     http://[USER@]HOST[:PORT], socks5://… or socks5h://… (port\n"
                       "                       1080 when left out, as curl). A password in the URL goes\n"
                       "                       to the keychain, not the settings file.\n"
                       "no-proxy LIST          hosts reached directly: names (and the names under them),\n"
                       "                       addresses and ranges (10.0.0.0/8), comma-separated; * for all.\n"
                       "upstream-proxy-password  read from the terminal (not shown) or standard input, and\n"
                       "                       kept in the keychain.\n"
                       "upstream-ca FILE       the CA a TLS-inspecting proxy signs with: trusted by the proxy\n"
                       "                       and by sandboxes started from now on (as `paddock ca trust`)."),
        runSet);
    set.positionalSyntax = QStringLiteral("KEY [VALUE]");
    set.positionalHelp = {{QStringLiteral("KEY"), keysText()}};
    set.minPositional = 1;
    set.maxPositional = 2;
    set.options = {jsonOption(QStringLiteral("the settings"))};

    Command unset = leaf(QStringLiteral("unset"), QStringLiteral("Remove a setting."),
                         QStringLiteral("Removes upstream-proxy, no-proxy or upstream-proxy-password: the\n"
                                        "environment's or the desktop's proxy applies again, if any."),
                         runUnset);
    unset.positionalSyntax = QStringLiteral("KEY");
    unset.minPositional = 1;
    unset.maxPositional = 1;
    unset.options = {jsonOption(QStringLiteral("the settings"))};

    settings.subcommands = {list, set, unset};
    return settings;
}

} // namespace paddock::cli
