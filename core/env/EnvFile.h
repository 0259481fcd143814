// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/FileError.h"
#include "kit/KitShares.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

/**
 * An environment file, `sbxenv.yaml` (schemaVersion "1", the format of Docker Sandboxes'
 * `sbx env`): one sandbox with its kit, workspace, variables, ports, credential bindings and
 * the commands run on this computer around it. Read strictly: an unknown field is an error at
 * its line and column. Paddock's own parts (shared folders, companion services, the backend)
 * are under `x-paddock:`, which sbx ignores.
 */
namespace paddock::env {

/** The largest environment file read, and the largest host command in it. */
inline constexpr qint64 kMaxFileBytes = 256 * 1024;
inline constexpr int kMaxCommandBytes = 16 * 1024;

/** @brief A command run on this computer (not in the sandbox) at one point of the lifecycle. */
struct HostCommand
{
    QString phase;   ///< initialize (before the sandbox is made), postCreate, preRemove
    QString name;    ///< as written; may be empty
    QString command; ///< the exact text, run with `sh -c` in the file's folder
    QString file;    ///< the file that gave it (absolute)
    int line = 0;    ///< where in that file
};

/** @brief One entry of `kits:`: where the kit is, and the values of its arguments. */
struct KitEntry
{
    QString source;
    QMap<QString, QString> args;
};

struct PortEntry
{
    int sandbox = 0;
    int host = 0; ///< 0: not given
};

/** @brief `bindings.SERVICE.KIND.domains`: where a stored key may be sent. */
struct BindingEntry
{
    QString service;
    QString kind; ///< apiKey or oauth
    QStringList domains;
};

/** @brief `x-paddock.services[]`: a companion service on the Docker engine (see `paddock service`). */
struct ServiceEntry
{
    QString name;
    QString image;
    QList<int> ports;
    QMap<QString, QString> env;
    QStringList volumes;
    QStringList command; ///< replaces the image's command when not empty
};

/** @brief The environment one file, or a user file with a project file over it, describes. */
struct Environment
{
    QStringList files; ///< the files read, lowest first
    QString file;      ///< the project's file (the last one)
    QString name;      ///< the sandbox's name
    QString agent;
    QList<KitEntry> kits;
    QString workspace; ///< absolute, from the folder of the file that gave it
    QMap<QString, QString> env;
    QList<PortEntry> ports;
    QList<BindingEntry> bindings;
    QMap<QString, QString> sandboxOptions;
    QList<HostCommand> hostCommands; ///< initialize, postCreate, preRemove, in order
    // x-paddock
    QString kit;                     ///< the Paddock kit (a library name or a folder)
    QString backend;                 ///< bwrap or docker; empty: the daemon's choice
    QList<kit::SharedFolder> mounts; ///< parsed from the folder of the file that gave them
    QList<ServiceEntry> services;
    QSet<QString> given; ///< the top-level (and x-paddock.*) keys set

    /** The host commands of @p phase. */
    QList<HostCommand> commandsOf(const QString &phase) const;
};

/** Reads @p text, the file @p path (absolute), strictly. */
std::variant<Environment, FileError> parseEnvironment(const QByteArray &text, const QString &path);

/**
 * @p upper over @p lower, as sbx merges a user's `~/.sbxenv.yaml` beneath a project's file: a
 * field @p upper sets replaces @p lower's, except `env`, `bindings` and `sandboxOptions`, which
 * are merged name by name, and `lifecycle`, merged phase by phase.
 */
Environment mergeEnvironments(const Environment &lower, const Environment &upper);

/**
 * Reads @p projectFile, with @p userFile beneath it when that is not empty and exists; checks
 * that what must be there (schemaVersion, name, a kit, a workspace) is.
 */
std::variant<Environment, FileError> loadEnvironment(const QString &projectFile, const QString &userFile);

/** `~/.sbxenv.yaml`. */
QString userEnvironmentFile();

} // namespace paddock::env
