// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitShares.h"

#include <QDir>
#include <QRegularExpression>

namespace paddock::kit {
namespace {

QString expandHome(const QString &path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

} // namespace

std::optional<SharedFolder> SharedFolder::parse(const QString &text, const QString &baseDir, QString *error)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    SharedFolder folder;
    qsizetype count = parts.size();
    if (count >= 2 && (parts.last() == QLatin1String("ro") || parts.last() == QLatin1String("rw"))) {
        folder.writable = parts.last() == QLatin1String("rw");
        --count;
    }
    if (count < 1 || count > 2 || parts.first().isEmpty() || (count == 2 && parts.at(1).isEmpty())) {
        *error = QStringLiteral("'%1' is not HOST[:INSIDE][:ro|rw] (a path may not contain ':')").arg(text);
        return std::nullopt;
    }
    const QString host = expandHome(parts.first());
    folder.hostPath = QDir::cleanPath(QDir::isAbsolutePath(host) ? host : QDir(baseDir).absoluteFilePath(host));
    const QString inside = count == 2 ? parts.at(1) : folder.hostPath;
    if (!QDir::isAbsolutePath(inside)) {
        *error = QStringLiteral("the path inside, '%1', must be absolute").arg(inside);
        return std::nullopt;
    }
    folder.insidePath = QDir::cleanPath(inside);
    return folder;
}

QString SharedFolder::toString() const
{
    return hostPath + QLatin1Char(':') + insidePath + (writable ? QStringLiteral(":rw") : QStringLiteral(":ro"));
}

QJsonObject SharedFolder::toJson() const
{
    return {{QStringLiteral("host"), hostPath},
            {QStringLiteral("inside"), insidePath},
            {QStringLiteral("mode"), writable ? QStringLiteral("rw") : QStringLiteral("ro")}};
}

SharedFolder SharedFolder::fromJson(const QJsonObject &object)
{
    return {object.value(QLatin1String("host")).toString(), object.value(QLatin1String("inside")).toString(),
            object.value(QLatin1String("mode")).toString() != QLatin1String("ro")};
}

QJsonArray toJson(const QList<SharedFolder> &folders)
{
    QJsonArray array;
    for (const SharedFolder &folder : folders)
        array.append(folder.toJson());
    return array;
}

QList<SharedFolder> sharedFoldersFromJson(const QJsonArray &array)
{
    QList<SharedFolder> folders;
    for (const QJsonValue &value : array)
        folders.append(SharedFolder::fromJson(value.toObject()));
    return folders;
}

std::optional<VariableArgument> parseVariable(const QString &text, QString *error)
{
    static const QRegularExpression name(QStringLiteral("\\A[A-Za-z_][A-Za-z0-9_]*\\z"));
    const qsizetype equals = text.indexOf(QLatin1Char('='));
    VariableArgument variable;
    variable.name = equals < 0 ? text : text.left(equals);
    if (equals >= 0)
        variable.value = text.mid(equals + 1);
    if (!name.match(variable.name).hasMatch()) {
        *error = QStringLiteral("'%1' is not NAME=VALUE or NAME (a name is letters, digits and '_', not starting "
                                "with a digit)")
                     .arg(text);
        return std::nullopt;
    }
    return variable;
}

QString reservedInsidePlace(const QString &inside)
{
    if (inside == QLatin1String("/"))
        return inside;
    for (const char *system : {"/proc", "/sys", "/dev", "/run/paddock"}) {
        const QString place = QLatin1String(system);
        if (inside == place || inside.startsWith(place + QLatin1Char('/')))
            return place;
    }
    return {};
}

std::optional<QString> volumePathProblem(const QString &path)
{
    if (!path.startsWith(QLatin1Char('/')))
        return QStringLiteral("the volume path '%1' is not absolute: write the full path inside, such as /data")
            .arg(path);
    for (const QString &part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part == QLatin1String(".") || part == QLatin1String(".."))
            return QStringLiteral("the volume path '%1' has a '%2' part: write it without . and ..").arg(path, part);
    }
    const QString cleaned = QDir::cleanPath(path);
    if (const QString place = reservedInsidePlace(cleaned); place == QLatin1String("/"))
        return QStringLiteral("a volume cannot be mounted at /: the sandbox needs its own system");
    else if (!place.isEmpty())
        return QStringLiteral("the volume path %1 is over %2, which is the sandbox's own: choose a path elsewhere")
            .arg(cleaned, place);
    return std::nullopt;
}

} // namespace paddock::kit
