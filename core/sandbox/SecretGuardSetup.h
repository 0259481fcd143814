// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/InterceptionConfig.h"
#include "proxy/SecretGuard.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <array>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

namespace paddock::sandbox {

/**
 * @brief The secret values of a workspace, read on the host (never through the sandbox).
 *
 * - `.env` and `.env.*` files: each `KEY=VALUE` line (`export` and quotes allowed) is a value
 *   named KEY. Values shorter than proxy::guard::MinValueBytes, numbers and words such as
 *   `true` or `production` are left out, and said so in @ref skipped.
 * - `*.pem` and `id_*` files (not `*.pub`) holding a `PRIVATE KEY` block: a line from the middle
 *   of the block's base64, which any copy of the key contains, named "private key".
 *
 * The folder is walked without following a link (each directory and file opened with
 * O_NOFOLLOW relative to its parent), to a depth of 6, over at most 20,000 entries, skipping
 * `.git` and `node_modules`; at most 64 files of at most 64 KiB each are read.
 */
struct WorkspaceSecrets
{
    std::vector<proxy::guard::Value> values;
    QStringList skipped;  ///< "FILE NAME: why"
    QByteArray signature; ///< each file's path, size and times: what a re-read compares
    QStringList files;    ///< the files read, relative to the workspace

    static WorkspaceSecrets read(const QString &workspace);
};

/** The values of one `.env` text (exposed for tests); skipped ones named in @p skipped. */
std::vector<proxy::guard::Value> parseEnvValues(const QByteArray &text, const QString &file, QStringList *skipped);

/**
 * @brief The guard of one sandbox, kept current: its mode and allowed values from its record
 * (SandboxRecord: read again whenever the file changes, so `paddock guard` applies to the next
 * request), the workspace's files (re-walked before a request when the last walk is more than
 * two seconds old, and read again when one changed), and the keys Paddock injects for it.
 * Thread-safe: the proxy's connection threads call current().
 */
class SandboxSecretValues
{
public:
    SandboxSecretValues(QString sandbox, std::vector<proxy::InjectRule> rules);
    proxy::guard::GuardState current();

private:
    /** The record file's times, size and inode (all -1 without one): a change reads it again. */
    using RecordStamp = std::array<qint64, 4>;
    void readRecord(const RecordStamp &stamp);

    QString m_sandbox;
    std::vector<proxy::InjectRule> m_rules;
    QByteArray m_recordPath; ///< SandboxRecord::pathFor(m_sandbox), encoded: stat() before every request
    std::mutex m_mutex;
    RecordStamp m_recordStamp{-2, -2, -2, -2}; ///< not read yet
    proxy::guard::Mode m_mode = proxy::guard::Mode::Off;
    QString m_workspace;
    QStringList m_allowed; ///< "FILE\tNAME"
    std::chrono::steady_clock::time_point m_walked;
    QByteArray m_signature;
    std::shared_ptr<const proxy::guard::Patterns> m_patterns;
};

/** How a value is allowed for a sandbox: "FILE\tNAME". */
QString allowedValueKey(const QString &file, const QString &name);

/**
 * The guard of sandbox @p sandbox's intercepted connections (CredentialInjection::applyTo()), with
 * @p rules' keys among its values; null for a sandbox with no record of its workspace.
 */
std::shared_ptr<const proxy::guard::GuardConfig> secretGuardOf(const QString &sandbox,
                                                               const std::vector<proxy::InjectRule> &rules);

} // namespace paddock::sandbox
