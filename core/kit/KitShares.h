// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

/**
 * How a shared folder and a variable are written (`--mount`, `--env`, `paddock kit share`, the
 * wizard, kit-settings.yaml). Whether one may be shared is the daemon's to decide
 * (sandbox/SharedFolders.h).
 */
namespace paddock::kit {

/** @brief A host folder (or file) the sandbox sees at a path of its own, read-only or read-write. */
struct SharedFolder
{
    QString hostPath;   ///< absolute; canonical once checked
    QString insidePath; ///< absolute, clean
    bool writable = true;

    /**
     * Reads `HOST[:INSIDE][:ro|rw]` as `docker run -v` does: INSIDE defaults to HOST, the mode to
     * rw. A relative HOST is taken from @p baseDir; `~` at its start is the home folder. Nullopt
     * with @p error naming what is wrong.
     */
    static std::optional<SharedFolder> parse(const QString &text, const QString &baseDir, QString *error);
    /** `HOST:INSIDE:ro|rw`, the form parse() reads. */
    QString toString() const;
    QJsonObject toJson() const;
    static SharedFolder fromJson(const QJsonObject &object);

    bool operator==(const SharedFolder &) const = default;
};

QJsonArray toJson(const QList<SharedFolder> &folders);
QList<SharedFolder> sharedFoldersFromJson(const QJsonArray &array);

/** @brief `NAME=VALUE` or `NAME` read from the command line: the value, if any, as given. */
struct VariableArgument
{
    QString name;
    std::optional<QString> value;
};

/**
 * The place of the sandbox's own that the cleaned inside path @p inside is, or is in: "/" itself,
 * `/proc`, `/sys`, `/dev` or `/run/paddock` (Paddock's pieces); empty when it is none of them.
 * What shares and volumes may not cover, whatever the sandbox's workspace and home are.
 */
QString reservedInsidePlace(const QString &inside);

/**
 * Why @p path cannot be where a volume is mounted, or nullopt: it must be absolute, without `.`
 * or `..` parts, and not over a place of the sandbox's own (reservedInsidePlace()). The home and
 * the workspace are checked when a sandbox is made (sandbox/SharedFolders.h).
 */
std::optional<QString> volumePathProblem(const QString &path);

/** Reads `NAME=VALUE` or `NAME`; nullopt with @p error when the name is not a variable name. */
std::optional<VariableArgument> parseVariable(const QString &text, QString *error);

} // namespace paddock::kit
