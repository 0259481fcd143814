// SPDX-License-Identifier: GPL-3.0-or-later
// Where the upstream proxy comes from: Paddock's settings file (strict, never a password),
// then the environment the daemon started with as curl reads it, then the desktop's.
#include "network/UpstreamSettings.h"

#include <QtTest>

using namespace paddock;
using network::DesktopProxy;
using network::SettingsFile;

namespace {

QProcessEnvironment environment(std::initializer_list<std::pair<const char *, const char *>> variables)
{
    QProcessEnvironment env;
    for (const auto &[name, value] : variables)
        env.insert(QLatin1String(name), QLatin1String(value));
    return env;
}

/** A desktop that says @p url, counting how often it was asked. */
std::function<DesktopProxy()> desktopSaying(const QString &url, int *asked, const QString &problem = {})
{
    return [=] {
        ++*asked;
        DesktopProxy desktop;
        desktop.url = url;
        desktop.noProxy = QStringLiteral("desk.example");
        desktop.problem = problem;
        return desktop;
    };
}

} // namespace

class TestUpstreamSettings : public QObject
{
    Q_OBJECT

private slots:
    void savedFileReadsBack();
    void missingFileIsNoSetting();
    void unknownKeyNamesItsLine();
    void passwordInTheFileIsRefused();
    void brokenUrlNamesItsLine();
    void fileComesFirst();
    void environmentAsCurlReadsIt();
    void desktopIsLast();
    void noneAtAll();
    void localNetworksGoStraightOut();
    void unusableSettingSaysWhere();
};

void TestUpstreamSettings::savedFileReadsBack()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config/settings.yaml"));
    SettingsFile file;
    file.upstreamProxy = QStringLiteral("http://alice@proxy.corp.example:3128");
    file.noProxy = QStringLiteral("localhost, .corp.example, 10.0.0.0/8");
    QString error;
    QVERIFY2(file.save(&error, path), qPrintable(error));
    QCOMPARE(QFileInfo(path).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    const auto loaded = SettingsFile::load(path);
    QVERIFY(std::holds_alternative<SettingsFile>(loaded));
    QCOMPARE(std::get<SettingsFile>(loaded).upstreamProxy, file.upstreamProxy);
    QCOMPARE(std::get<SettingsFile>(loaded).noProxy, file.noProxy);
}

void TestUpstreamSettings::missingFileIsNoSetting()
{
    QTemporaryDir dir;
    const auto loaded = SettingsFile::load(dir.filePath(QStringLiteral("settings.yaml")));
    QVERIFY(std::holds_alternative<SettingsFile>(loaded));
    QVERIFY(std::get<SettingsFile>(loaded).upstreamProxy.isEmpty());
}

static QString loadError(const QByteArray &text)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("settings.yaml"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write");
    file.write(text);
    file.close();
    const auto loaded = SettingsFile::load(path);
    const FileError *error = std::get_if<FileError>(&loaded);
    return error ? error->toString() : QString();
}

void TestUpstreamSettings::unknownKeyNamesItsLine()
{
    const QString error = loadError("noProxy: localhost\nupstreamProxi: http://proxy:3128\n");
    QVERIFY2(error.contains(QStringLiteral(":2:")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("unknown setting")), qPrintable(error));
}

void TestUpstreamSettings::passwordInTheFileIsRefused()
{
    const QString error = loadError("upstreamProxy: http://alice:secret@proxy:3128\n");
    QVERIFY2(error.contains(QStringLiteral("keychain")), qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("secret@")), qPrintable(error));
}

void TestUpstreamSettings::brokenUrlNamesItsLine()
{
    const QString error = loadError("# the proxy\n\nupstreamProxy: https://proxy:3128\n");
    QVERIFY2(error.contains(QStringLiteral(":3:")), qPrintable(error));
}

void TestUpstreamSettings::fileComesFirst()
{
    SettingsFile file;
    file.upstreamProxy = QStringLiteral("http://bob@file-proxy:3128");
    int asked = 0;
    const network::UpstreamChoice choice = network::chooseUpstream(
        file, environment({{"HTTPS_PROXY", "http://env-proxy:8080"}, {"NO_PROXY", "env.example"}}),
        desktopSaying(QStringLiteral("http://desk-proxy:1"), &asked));
    QVERIFY(choice.proxy.has_value());
    QCOMPARE(QString::fromStdString(choice.proxy->host), QStringLiteral("file-proxy"));
    QCOMPARE(choice.source, QStringLiteral("the settings"));
    QCOMPARE(asked, 0);
    // A list of hosts to leave out belongs to the proxy it came with, not to the file's.
    QVERIFY(!choice.proxy->noProxy.matches("env.example", 443, {}));
}

void TestUpstreamSettings::environmentAsCurlReadsIt()
{
    int asked = 0;
    const auto chosen = [&](std::initializer_list<std::pair<const char *, const char *>> variables) {
        return network::chooseUpstream({}, environment(variables), desktopSaying(QStringLiteral("http://d:1"), &asked));
    };
    network::UpstreamChoice choice = chosen({{"https_proxy", "http://lower:1"}, {"HTTPS_PROXY", "http://upper:2"}});
    QCOMPARE(QString::fromStdString(choice.proxy->host), QStringLiteral("upper"));
    QCOMPARE(choice.source, QStringLiteral("HTTPS_PROXY"));
    choice = chosen({{"ALL_PROXY", "socks5h://all:1080"}, {"no_proxy", "corp.test"}});
    QCOMPARE(int(choice.proxy->kind), int(proxy::UpstreamProxy::Kind::Socks5h));
    QVERIFY(choice.proxy->noProxy.matches("db.corp.test", 5432, {}));
    choice = chosen({{"http_proxy", "http://plain:3128"}});
    QCOMPARE(QString::fromStdString(choice.proxy->host), QStringLiteral("plain"));
    // A CGI's HTTP_PROXY is a request header, not a setting: curl ignores it, and so does Paddock.
    asked = 0;
    choice = chosen({{"HTTP_PROXY", "http://header:3128"}});
    QCOMPARE(QString::fromStdString(choice.proxy->host), QStringLiteral("d"));
    QCOMPARE(asked, 1);
}

void TestUpstreamSettings::desktopIsLast()
{
    int asked = 0;
    const network::UpstreamChoice choice = network::chooseUpstream(
        {}, environment({{"PATH", "/usr/bin"}}), desktopSaying(QStringLiteral("http://desk-proxy:8080"), &asked));
    QCOMPARE(asked, 1);
    QCOMPARE(QString::fromStdString(choice.proxy->host), QStringLiteral("desk-proxy"));
    QCOMPARE(choice.source, QStringLiteral("GNOME's proxy settings"));
    QVERIFY(choice.proxy->noProxy.matches("desk.example", 443, {}));
}

void TestUpstreamSettings::noneAtAll()
{
    int asked = 0;
    const network::UpstreamChoice choice = network::chooseUpstream({}, {}, desktopSaying({}, &asked));
    QVERIFY(!choice.proxy.has_value());
    QVERIFY(choice.problem.isEmpty());
}

void TestUpstreamSettings::localNetworksGoStraightOut()
{
    // The chosen proxy calls local what the rebinding guard calls non-public, in every spelling.
    int asked = 0;
    const network::UpstreamChoice choice =
        network::chooseUpstream({}, environment({{"HTTPS_PROXY", "http://proxy:3128"}}), desktopSaying({}, &asked));
    QVERIFY(choice.proxy.has_value());
    for (const char *local : {"127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "100.64.0.1",
                              "::1", "fd12::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.1.2.3"})
        QVERIFY2(!choice.proxy->carries("somewhere", 443, {QHostAddress(QLatin1String(local))}), local);
    QVERIFY(choice.proxy->carries("github.com", 443, {QHostAddress(QStringLiteral("140.82.121.4"))}));
    QVERIFY(choice.proxy->carries("github.com", 443, {}));
}

void TestUpstreamSettings::unusableSettingSaysWhere()
{
    int asked = 0;
    network::UpstreamChoice choice =
        network::chooseUpstream({}, environment({{"HTTPS_PROXY", "https://tls-proxy:443"}}), desktopSaying({}, &asked));
    QVERIFY(!choice.proxy.has_value());
    QVERIFY2(choice.problem.startsWith(QStringLiteral("HTTPS_PROXY: ")), qPrintable(choice.problem));
    // An automatic configuration (PAC) is reported, not guessed at.
    choice = network::chooseUpstream(
        {}, {}, desktopSaying({}, &asked, QStringLiteral("the desktop's proxy is configured automatically")));
    QVERIFY(!choice.proxy.has_value());
    QVERIFY(choice.problem.contains(QStringLiteral("automatically")));
}

QTEST_GUILESS_MAIN(TestUpstreamSettings)
#include "tst_upstream_settings.moc"
