// SPDX-License-Identifier: GPL-3.0-or-later
#include "secrets/CredentialBindings.h"

#include "common/AtomicFile.h"
#include "common/Paths.h"
#include "common/YamlDecode.h"
#include "secrets/SecretId.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcBindings, "paddock.secrets.bindings")

namespace paddock::secrets {
namespace {

using yaml::DecodeError;
using yaml::errorAt;

bool isUsableDomain(const QString &domain)
{
    if (domain.isEmpty() || domain.size() > 253)
        return false;
    const QString rest = domain.startsWith(QLatin1String("*.")) ? domain.mid(2) : domain;
    if (rest.isEmpty())
        return false;
    for (const QChar c : rest) {
        const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                        (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') ||
                        c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char(':') ||
                        c == QLatin1Char('[') || c == QLatin1Char(']');
        if (!ok)
            return false;
    }
    return true;
}

bool covers(const QString &approved, const QString &requested)
{
    if (approved == requested)
        return true;
    if (approved.startsWith(QLatin1String("*.")))
        return requested.endsWith(approved.mid(1)) && requested.size() > approved.size() - 1;
    return false;
}

QStringList decodeDomains(const YAML::Node &serviceNode)
{
    QStringList domains;
    if (!serviceNode.IsMap())
        throw DecodeError{serviceNode.Mark(), QStringLiteral("expected a mapping with 'apiKey'")};
    const YAML::Node apiKey = serviceNode["apiKey"];
    if (!apiKey || apiKey.IsNull())
        return domains;
    if (!apiKey.IsMap())
        throw DecodeError{apiKey.Mark(), QStringLiteral("'apiKey' must be a mapping with 'domains'")};
    const YAML::Node list = apiKey["domains"];
    if (!list || list.IsNull())
        return domains;
    if (!list.IsSequence())
        throw DecodeError{list.Mark(), QStringLiteral("'domains' must be a list of domain names")};
    for (const YAML::Node &item : list) {
        if (!item.IsScalar())
            throw DecodeError{item.Mark(), QStringLiteral("expected a domain name")};
        const QString domain = CredentialBindings::normaliseDomain(QString::fromStdString(item.Scalar()));
        if (!isUsableDomain(domain))
            throw DecodeError{item.Mark(), QStringLiteral("\"%1\" is not a domain name").arg(domain)};
        if (!domains.contains(domain))
            domains.append(domain);
    }
    return domains;
}

QList<Binding> decode(const YAML::Node &root)
{
    QList<Binding> bindings;
    if (!root || root.IsNull())
        return bindings;
    if (!root.IsMap())
        throw DecodeError{root.Mark(), QStringLiteral("expected a mapping with 'bindings'")};
    const YAML::Node map = root["bindings"];
    if (!map || map.IsNull())
        return bindings;
    if (!map.IsMap())
        throw DecodeError{map.Mark(), QStringLiteral("'bindings' must map service names to their domains")};
    for (const auto &entry : map) {
        if (!entry.first.IsScalar())
            throw DecodeError{entry.first.Mark(), QStringLiteral("expected a service name")};
        const QString service = QString::fromStdString(entry.first.Scalar());
        if (!isValidName(service))
            throw DecodeError{entry.first.Mark(), QStringLiteral("\"%1\" is not a service name").arg(service)};
        bindings.append(Binding{service, decodeDomains(entry.second)});
    }
    std::sort(bindings.begin(), bindings.end(),
              [](const Binding &a, const Binding &b) { return a.service < b.service; });
    return bindings;
}

} // namespace

QString Coverage::explanation(const QString &service) const
{
    if (covered)
        return QString();
    if (!bound && newDomains.isEmpty())
        return QStringLiteral("%1 is not approved for use").arg(service);
    if (!bound)
        return QStringLiteral("%1 is not approved for use; the kit sends it to %2")
            .arg(service, newDomains.join(QStringLiteral(", ")));
    return QStringLiteral("%1 is not approved for %2").arg(service, newDomains.join(QStringLiteral(", ")));
}

CredentialBindings::CredentialBindings() : CredentialBindings(defaultPath()) {}

CredentialBindings::CredentialBindings(const QString &path) : m_path(path) {}

QString CredentialBindings::defaultPath()
{
    return paths::configDir() + QStringLiteral("/credentials.yaml");
}

QString CredentialBindings::normaliseDomain(const QString &domain)
{
    QString result = domain.trimmed().toLower();
    if (result.endsWith(QLatin1Char('.')))
        result.chop(1);
    return result;
}

std::variant<QList<Binding>, BindingsError> CredentialBindings::parse(const QByteArray &text, const QString &file)
{
    return yaml::decodeText(text, file, decode);
}

std::optional<BindingsError> CredentialBindings::load()
{
    return loadFile(m_path, &m_bindings, &CredentialBindings::parse, lcBindings());
}

std::optional<Binding> CredentialBindings::binding(const QString &service) const
{
    for (const Binding &b : m_bindings)
        if (b.service == service)
            return b;
    return std::nullopt;
}

Coverage CredentialBindings::coverage(const QString &service, const QStringList &domains) const
{
    Coverage result;
    const std::optional<Binding> bound = binding(service);
    result.bound = bound.has_value();
    for (const QString &raw : domains) {
        const QString domain = normaliseDomain(raw);
        const bool approved = bound && std::any_of(bound->domains.cbegin(), bound->domains.cend(),
                                                   [&](const QString &a) { return covers(a, domain); });
        if (!approved && !result.newDomains.contains(domain))
            result.newDomains.append(domain);
    }
    result.covered = result.bound && result.newDomains.isEmpty();
    return result;
}

bool CredentialBindings::approve(const QString &service, const QStringList &domains, QString *error)
{
    QStringList normalised;
    for (const QString &raw : domains) {
        const QString domain = normaliseDomain(raw);
        if (!isUsableDomain(domain)) {
            if (error)
                *error = QStringLiteral("\"%1\" is not a domain name").arg(raw);
            return false;
        }
        if (!normalised.contains(domain))
            normalised.append(domain);
    }
    return change(service, normalised, false, error);
}

bool CredentialBindings::revoke(const QString &service, QString *error)
{
    return change(service, {}, true, error);
}

bool CredentialBindings::change(const QString &service, const QStringList &add, bool removeService, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!isValidName(service))
        return fail(QStringLiteral("\"%1\" is not a service name").arg(service));

    // Read what is on disk now, so a hand edit made since load() is kept.
    QByteArray text;
    if (QFile file(m_path); file.exists()) {
        if (!file.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1: %2").arg(m_path, file.errorString()));
        text = file.readAll();
    }
    YAML::Node root;
    try {
        root = YAML::Load(text.toStdString());
        decode(root);
    } catch (const DecodeError &e) {
        return fail(QStringLiteral("%1 cannot be used (%2); fix it first")
                        .arg(QFileInfo(m_path).fileName(), errorAt(m_path, e.mark, e.message).toString()));
    } catch (const YAML::Exception &e) {
        return fail(
            QStringLiteral("%1 cannot be used (%2); fix it first")
                .arg(QFileInfo(m_path).fileName(), errorAt(m_path, e.mark, QString::fromStdString(e.msg)).toString()));
    }
    if (!root || root.IsNull())
        root = YAML::Node(YAML::NodeType::Map);
    if (!root["bindings"] || root["bindings"].IsNull())
        root["bindings"] = YAML::Node(YAML::NodeType::Map);
    YAML::Node map = root["bindings"];
    const std::string key = service.toStdString();

    if (removeService) {
        if (!map[key])
            return fail(QStringLiteral("%1 has no binding").arg(service));
        map.remove(key);
    } else {
        YAML::Node serviceNode = map[key];
        if (!serviceNode || serviceNode.IsNull())
            serviceNode = YAML::Node(YAML::NodeType::Map);
        if (!serviceNode["apiKey"] || serviceNode["apiKey"].IsNull())
            serviceNode["apiKey"] = YAML::Node(YAML::NodeType::Map);
        YAML::Node apiKey = serviceNode["apiKey"];
        QStringList existing = decodeDomains(serviceNode);
        YAML::Node list(YAML::NodeType::Sequence);
        for (const QString &domain : add)
            if (!existing.contains(domain))
                existing.append(domain);
        for (const QString &domain : existing)
            list.push_back(domain.toStdString());
        apiKey["domains"] = list;
        map[key] = serviceNode;
    }

    YAML::Emitter out;
    out << root;
    QByteArray contents(out.c_str(), qsizetype(out.size()));
    contents.append('\n');
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return fail(QStringLiteral("cannot create the directory of %1").arg(m_path));
    QString writeError;
    if (!writeFileAtomically(m_path, contents, &writeError, 0600))
        return fail(writeError);
    m_bindings = decode(root);
    qCInfo(lcBindings) << (removeService ? "revoked" : "approved") << service << add;
    return true;
}

} // namespace paddock::secrets
