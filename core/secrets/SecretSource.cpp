// SPDX-License-Identifier: GPL-3.0-or-later
// SecretSource as a value: read, checked and written in its JSON form (SecretSources.h). The
// running of a source and the files it is kept in are SecretSources.cpp's.
#include "secrets/SecretSources.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

namespace paddock::secrets {

QString SecretSource::kindToken() const
{
    return kind == Kind::Command ? QStringLiteral("command") : QStringLiteral("reference");
}

QString SecretSource::describe() const
{
    return kind == Kind::Command ? command : reference;
}

QString SecretSource::refreshText() const
{
    if (!refreshSeconds)
        return QStringLiteral("on-demand");
    const qint64 s = *refreshSeconds;
    if (s % 86400 == 0)
        return QStringLiteral("%1d").arg(s / 86400);
    if (s % 3600 == 0)
        return QStringLiteral("%1h").arg(s / 3600);
    if (s % 60 == 0)
        return QStringLiteral("%1m").arg(s / 60);
    return QStringLiteral("%1s").arg(s);
}

QString SecretSource::program() const
{
    if (kind == Kind::Reference)
        return QStringLiteral("op read");
    if (shell)
        return command.left(60);
    const QStringList words = QProcess::splitCommand(command);
    return words.isEmpty() ? command.left(60) : QFileInfo(words.constFirst()).fileName();
}

QString SecretSource::validate() const
{
    const QString &text = kind == Kind::Command ? command : reference;
    if (text.trimmed().isEmpty())
        return kind == Kind::Command ? QStringLiteral("the command is empty")
                                     : QStringLiteral("the reference is empty");
    if (text.size() > kMaxCommandChars)
        return QStringLiteral("the %1 is longer than %2 characters").arg(kindToken()).arg(kMaxCommandChars);
    if (text.contains(QChar(0)) || text.contains(QLatin1Char('\n')))
        return QStringLiteral("the %1 holds a line break or a NUL character").arg(kindToken());
    if (kind == Kind::Reference && !reference.startsWith(QLatin1String("op://")))
        return QStringLiteral("a reference starts with op://, as in op://vault/item/field");
    if (refreshSeconds && *refreshSeconds <= 0)
        return QStringLiteral("the refresh interval must be positive");
    return QString();
}

QStringList SecretSource::argv(QString *error) const
{
    if (const QString problem = validate(); !problem.isEmpty()) {
        *error = problem;
        return {};
    }
    if (kind == Kind::Reference) {
        const QString op = QStandardPaths::findExecutable(QStringLiteral("op"));
        if (op.isEmpty()) {
            *error = QStringLiteral("the 1Password CLI `op` is not on PATH; install it or store the key with "
                                    "`paddock secret set`");
            return {};
        }
        return {op, QStringLiteral("read"), reference};
    }
    if (shell)
        return {QStringLiteral("/bin/sh"), QStringLiteral("-c"), command};
    QStringList words = QProcess::splitCommand(command);
    if (words.isEmpty())
        *error = QStringLiteral("the command `%1` has no program to run").arg(command);
    return words;
}

QJsonObject SecretSource::toJson() const
{
    QJsonObject object{{QStringLiteral("kind"), kindToken()}, {QStringLiteral("refresh"), refreshText()}};
    if (kind == Kind::Command) {
        object.insert(QStringLiteral("command"), command);
        if (shell)
            object.insert(QStringLiteral("shell"), true);
    } else {
        object.insert(QStringLiteral("reference"), reference);
    }
    return object;
}

std::optional<SecretSource> SecretSource::fromJson(const QJsonObject &object, QString *error)
{
    SecretSource source;
    const QString kind = object.value(QLatin1String("kind")).toString();
    if (kind == QLatin1String("command")) {
        source.kind = Kind::Command;
        source.command = object.value(QLatin1String("command")).toString();
        source.shell = object.value(QLatin1String("shell")).toBool();
    } else if (kind == QLatin1String("reference")) {
        source.kind = Kind::Reference;
        source.reference = object.value(QLatin1String("reference")).toString();
    } else {
        *error = QStringLiteral("unknown kind of source \"%1\"").arg(kind.left(40));
        return std::nullopt;
    }
    bool ok = false;
    source.refreshSeconds = parseRefresh(object.value(QLatin1String("refresh")).toString(), &ok);
    if (!ok) {
        *error = QStringLiteral("the refresh interval is not a duration such as 30s, 10m, 2h or on-demand");
        return std::nullopt;
    }
    if (const QString problem = source.validate(); !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    return source;
}

std::optional<qint64> parseRefresh(const QString &text, bool *ok)
{
    *ok = false;
    if (text == QLatin1String("on-demand")) {
        *ok = true;
        return std::nullopt;
    }
    static const QRegularExpression pattern(QStringLiteral("^([1-9][0-9]{0,6})([smhd])$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return SecretSource::kDefaultRefreshSeconds;
    const qint64 count = match.captured(1).toLongLong();
    const QChar unit = match.captured(2).at(0);
    const qint64 scale = unit == QLatin1Char('s')   ? 1
                         : unit == QLatin1Char('m') ? 60
                         : unit == QLatin1Char('h') ? 3600
                                                    : 86400;
    *ok = true;
    return count * scale;
}

} // namespace paddock::secrets
