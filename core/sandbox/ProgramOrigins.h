// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"
#include "runtime/Runtime.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <memory>
#include <mutex>

namespace paddock::sandbox {

/**
 * @brief Where the files a sandbox's programs run come from (FileOrigin): the sandbox's
 * read-only base, or somewhere it can write.
 *
 * paddock-init says what each file is and which mount holds it (FileIdentity::Place, from its
 * own view of the sandbox, which nothing inside can change); this adds what only the host
 * knows of the sandbox's root:
 * - a read-only mount is the base: the image's or the host's system, a folder bound read-only;
 * - another writable mount (the workspace, its home, /tmp) holds what the sandbox wrote;
 * - in its writable root, under bubblewrap, a file its own upper layer holds (on the host) and
 *   that changed after the sandbox was made was written inside, by copy, rename or overwrite;
 *   what the kit's setup.install put there before is the base. Under Docker, whose container
 *   layer the user cannot read, a file changed (st_ctime, which no process can set back) since
 *   the container was made was written inside;
 * - a file that is not the one at its path (FileIdentity::Place::Elsewhere) is never the base.
 *
 * Thread-safe: the proxy asks from its thread, the service updates from its own.
 */
class ProgramOrigins
{
public:
    /** What the daemon knows of a sandbox's layout, made from what the runtime reports. */
    struct Layout
    {
        QList<QPair<QString, QString>> names; ///< a writable mount inside, and how a person names it
        QString upperDir;                     ///< bubblewrap: its root's own writes, on the host
        QStringList rootParts;                ///< mounts inside that are parts of its root (upperDir holds theirs)
        qint64 baseUntilNs = 0;               ///< a root file changed after then was written inside
    };

    static Layout layoutOf(const runtime::SandboxInfo &info);
    void set(const QString &sandbox, const Layout &layout);
    void forget(const QString &sandbox);
    /** Sets @p program's exeOrigin, scriptOrigin and writtenWhere, for sandbox @p sandbox. */
    void classify(const QString &sandbox, ClientProgram &program) const;
    /** The origin of @p file in a sandbox of @p layout; @p where says where it was written. */
    static FileOrigin originOf(const Layout &layout, const FileIdentity &file, std::string *where);

private:
    mutable std::mutex m_mutex;
    QHash<QString, std::shared_ptr<const Layout>> m_layouts;
};

} // namespace paddock::sandbox
