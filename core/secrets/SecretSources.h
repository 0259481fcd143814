// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "secrets/SecretId.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace paddock::secrets {

/**
 * @brief Where the value of a secret comes from when it is not pasted into the keychain: a
 * command of the user run on the host (`gh auth token`), or a 1Password reference read with
 * `op read`. The command is the user's own, never a kit's or a bundle's: only
 * `paddock secret set --command|--ref` writes it, into the user's configuration.
 */
struct SecretSource
{
    enum class Kind {
        Command,   ///< @c command, split into arguments (or given to /bin/sh -c with @c shell)
        Reference, ///< `op read REFERENCE`
    };

    Kind kind = Kind::Command;
    QString command;    ///< the command line as the user typed it (Command)
    bool shell = false; ///< run through /bin/sh -c instead of split into arguments
    QString reference;  ///< op://vault/item/field (Reference)
    /** How long a value is used before the command runs again; nullopt: on every request. */
    std::optional<qint64> refreshSeconds = kDefaultRefreshSeconds;

    static constexpr qint64 kDefaultRefreshSeconds = 55 * 60;
    static constexpr int kTimeoutMs = 20000;
    /** Longest output kept as a value; a token is a few hundred bytes. */
    static constexpr qsizetype kMaxValueBytes = 64 * 1024;
    /** Longest command line or reference accepted. */
    static constexpr qsizetype kMaxCommandChars = 4096;

    /** "command" or "reference". */
    QString kindToken() const;
    /** What a person reads: the command line, or the reference. */
    QString describe() const;
    /** "55m", "30s", "2h", or "on-demand". */
    QString refreshText() const;
    /** The short name events use: the command's first word ("gh") or "op". */
    QString program() const;
    /** Empty when usable, else one sentence. */
    QString validate() const;
    /**
     * The program and its arguments: @c command split like a shell splits words (no
     * expansion), `/bin/sh -c COMMAND` with @c shell, `op read REFERENCE` for a reference.
     * Empty with @p error set when there is nothing to run.
     */
    QStringList argv(QString *error) const;

    QJsonObject toJson() const;
    static std::optional<SecretSource> fromJson(const QJsonObject &object, QString *error);

    bool operator==(const SecretSource &) const = default;
};

/** Reads "30s", "10m", "2h", "1d" or "on-demand"; @p ok false for anything else. */
std::optional<qint64> parseRefresh(const QString &text, bool *ok);

/** @brief The outcome of running a source once. wipe() @c value when done. */
struct SourceRun
{
    QByteArray value; ///< stdout, trimmed; empty on failure
    QString error;    ///< "gh auth token failed: FIRST STDERR LINE"; empty on success
};

/**
 * Runs @p source on the host, without a shell unless it asks for one, for at most its timeout;
 * stdin is closed, stdout is the value (trimmed), stderr only lends its first line to the error.
 * May be called from any thread; blocks.
 */
SourceRun runSource(const SecretSource &source, int timeoutMs = SecretSource::kTimeoutMs);

/**
 * @brief `secret-sources.json` in the user's configuration folder: the source of each secret
 * that has one, by its keychain key ("global/gh", "sandbox/web/gh"). Every call reads the
 * file afresh; writes are atomic (0600). No value is ever in it.
 */
class SecretSources
{
public:
    explicit SecretSources(const QString &path = defaultPath());
    static QString defaultPath();
    QString path() const { return m_path; }

    /** Every source in the file; nullopt with @p error when the file cannot be used. */
    std::optional<QList<std::pair<SecretId, SecretSource>>> read(QString *error = nullptr) const;
    std::optional<SecretSource> find(const SecretId &id) const;
    bool set(const SecretId &id, const SecretSource &source, QString *error = nullptr) const;
    /** Removes @p id's source; true also when it had none. */
    bool remove(const SecretId &id, QString *error = nullptr) const;

    /** Largest file read. */
    static constexpr qint64 kMaxFileBytes = 1024 * 1024;

private:
    bool write(const QList<std::pair<SecretId, SecretSource>> &sources, QString *error) const;

    QString m_path;
};

/**
 * @brief When each source last ran and how: `paths::stateDir()/secret-sources-state.json`,
 * written by the daemon, read by `secret ls` and the window. Never a value.
 */
struct SourceStatus
{
    QDateTime resolved; ///< UTC, the last run that gave a value
    QDateTime failed;   ///< UTC, the last run that failed
    QString error;      ///< that failure's sentence

    static QString defaultPath();
    /** Every status in the file, by keychain key. */
    static QHash<QString, SourceStatus> readAll(const QString &path = defaultPath());
    /** Records one run of @p id's source (thread safe within one process). */
    static void record(const SecretId &id, bool ok, const QString &error, const QString &path = defaultPath());
};

} // namespace paddock::secrets
