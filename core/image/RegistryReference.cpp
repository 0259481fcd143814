// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/RegistryReference.h"

#include <QRegularExpression>

namespace paddock::image {

namespace {

constexpr qsizetype kMaxReference = 512;

bool validHost(const QString &host)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)"
                       R"(|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$)"));
    return pattern.match(host).hasMatch();
}

bool validRepository(const QString &repository)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$)"));
    return repository.size() <= 255 && pattern.match(repository).hasMatch();
}

bool validTag(const QString &tag)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$)"));
    return pattern.match(tag).hasMatch();
}

bool validDigest(const QString &digest)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^sha256:[a-f0-9]{64}$)"));
    return pattern.match(digest).hasMatch();
}

} // namespace

std::optional<RegistryReference> RegistryReference::parse(const QString &text, QString *error)
{
    const QString input = text.trimmed();
    const auto refuse = [&](const QString &why) {
        *error = QStringLiteral("'%1' is not an image reference: %2").arg(input.left(80), why);
        return std::nullopt;
    };
    if (input.isEmpty() || input.size() > kMaxReference)
        return refuse(QStringLiteral("it is empty or too long"));
    RegistryReference ref;
    QString rest = input;
    if (const qsizetype at = rest.indexOf(QLatin1Char('@')); at >= 0) {
        ref.digest = rest.mid(at + 1);
        rest = rest.left(at);
        if (!validDigest(ref.digest))
            return refuse(QStringLiteral("the digest is not sha256: and 64 hex digits"));
    }
    const qsizetype slash = rest.indexOf(QLatin1Char('/'));
    const QString first = slash < 0 ? QString() : rest.left(slash);
    if (slash >= 0 &&
        (first.contains(QLatin1Char('.')) || first.contains(QLatin1Char(':')) || first == QLatin1String("localhost"))) {
        ref.registry = first;
        rest = rest.mid(slash + 1);
        if (!validHost(ref.registry))
            return refuse(QStringLiteral("'%1' is not a registry host").arg(ref.registry));
    } else {
        ref.registry = QStringLiteral("docker.io");
    }
    if (ref.registry == QLatin1String("index.docker.io") || ref.registry == QLatin1String("registry-1.docker.io"))
        ref.registry = QStringLiteral("docker.io");
    if (const qsizetype colon = rest.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        ref.tag = rest.mid(colon + 1);
        rest = rest.left(colon);
        if (!validTag(ref.tag))
            return refuse(QStringLiteral("'%1' is not a tag").arg(ref.tag.left(40)));
    }
    if (ref.registry == QLatin1String("docker.io") && !rest.contains(QLatin1Char('/')))
        rest.prepend(QStringLiteral("library/"));
    if (!validRepository(rest))
        return refuse(QStringLiteral("'%1' is not a repository (lower-case letters, digits, '.', '_', '-' and '/')")
                          .arg(rest.left(80)));
    ref.repository = rest;
    if (ref.tag.isEmpty() && ref.digest.isEmpty())
        ref.tag = QStringLiteral("latest");
    return ref;
}

QString RegistryReference::endpointHost() const
{
    return registry == QLatin1String("docker.io") ? QStringLiteral("registry-1.docker.io") : registry;
}

QString RegistryReference::fullName() const
{
    QString name = registry + QLatin1Char('/') + repository;
    if (!tag.isEmpty())
        name += QLatin1Char(':') + tag;
    if (!digest.isEmpty())
        name += QLatin1Char('@') + digest;
    return name;
}

bool RegistryReference::isLoopback() const
{
    QString host = registry;
    if (host.startsWith(QLatin1Char('[')))
        host = host.mid(1, host.indexOf(QLatin1Char(']')) - 1);
    else
        host = host.section(QLatin1Char(':'), 0, 0);
    return host == QLatin1String("localhost") || host == QLatin1String("127.0.0.1") || host == QLatin1String("::1");
}

std::optional<AuthChallenge> parseAuthenticate(const QByteArray &header)
{
    const QString text = QString::fromLatin1(header.left(4096)).trimmed();
    qsizetype i = 0;
    while (i < text.size() && !text.at(i).isSpace())
        ++i;
    AuthChallenge challenge;
    challenge.scheme = text.left(i).toLower();
    if (challenge.scheme.isEmpty() || challenge.scheme.contains(QLatin1Char('=')))
        return std::nullopt;
    const auto skipSpace = [&] {
        while (i < text.size() && text.at(i).isSpace())
            ++i;
    };
    while (i < text.size()) {
        skipSpace();
        const qsizetype nameStart = i;
        while (i < text.size() && text.at(i) != QLatin1Char('=') && text.at(i) != QLatin1Char(','))
            ++i;
        const QString name = text.mid(nameStart, i - nameStart).trimmed().toLower();
        if (i >= text.size() || text.at(i) != QLatin1Char('=')) {
            if (!name.isEmpty() && name.contains(QLatin1Char(' ')))
                break; // the next challenge starts: only the first one is read
            ++i;
            continue;
        }
        ++i;
        skipSpace();
        QString value;
        if (i < text.size() && text.at(i) == QLatin1Char('"')) {
            for (++i; i < text.size() && text.at(i) != QLatin1Char('"'); ++i) {
                if (text.at(i) == QLatin1Char('\\') && i + 1 < text.size())
                    ++i;
                value += text.at(i);
            }
            ++i; // the closing quote
        } else {
            const qsizetype start = i;
            while (i < text.size() && text.at(i) != QLatin1Char(','))
                ++i;
            value = text.mid(start, i - start).trimmed();
        }
        if (!name.isEmpty())
            challenge.params.insert(name, value);
        skipSpace();
        if (i < text.size() && text.at(i) == QLatin1Char(','))
            ++i;
    }
    return challenge;
}

} // namespace paddock::image
