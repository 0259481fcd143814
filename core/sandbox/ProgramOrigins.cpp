// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/ProgramOrigins.h"

#include <QDir>
#include <QFile>

#include <optional>

#include <sys/stat.h>

namespace paddock::sandbox {
namespace {

/** A root file @p path of the sandbox, as its upper layer on the host holds it; nullopt when it does not. */
std::optional<qint64> upperChangedNs(const QString &upperDir, const std::string &path)
{
    struct stat status = {};
    const QByteArray upper = QFile::encodeName(upperDir + QString::fromStdString(path));
    if (::lstat(upper.constData(), &status) != 0)
        return std::nullopt;
    return qint64(status.st_ctim.tv_sec) * 1000000000LL + status.st_ctim.tv_nsec;
}

} // namespace

ProgramOrigins::Layout ProgramOrigins::layoutOf(const runtime::SandboxInfo &info)
{
    Layout layout;
    if (!info.workspace.isEmpty())
        layout.names.append({QDir::cleanPath(info.workspace), QStringLiteral("the workspace")});
    if (!info.spec.workspace.isEmpty())
        layout.names.append({QDir::cleanPath(info.spec.workspace), QStringLiteral("the workspace")});
    layout.names.append({QDir::cleanPath(info.spec.sandboxHome), QStringLiteral("its home folder")});
    layout.upperDir = info.rootUpper;
    layout.rootParts = info.rootParts;
    if (info.createdAt.isValid())
        layout.baseUntilNs = info.createdAt.toMSecsSinceEpoch() * 1000000LL;
    return layout;
}

void ProgramOrigins::set(const QString &sandbox, const Layout &layout)
{
    const std::lock_guard lock(m_mutex);
    m_layouts.insert(sandbox, std::make_shared<const Layout>(layout));
}

void ProgramOrigins::forget(const QString &sandbox)
{
    const std::lock_guard lock(m_mutex);
    m_layouts.remove(sandbox);
}

FileOrigin ProgramOrigins::originOf(const Layout &layout, const FileIdentity &file, std::string *where)
{
    using Place = FileIdentity::Place;
    switch (file.place) {
    case Place::Unknown:
        return FileOrigin::Unknown;
    case Place::ReadOnly:
        return FileOrigin::Base;
    case Place::Elsewhere:
        *where = "a file not at its path";
        return FileOrigin::Written;
    case Place::Mount: {
        // An overlay of the root's own (the kernel's, one per host directory) is the root.
        if (!layout.upperDir.isEmpty() && layout.rootParts.contains(QString::fromStdString(file.mountPoint)))
            break;
        *where = file.mountPoint;
        for (const auto &[point, name] : layout.names) {
            if (point.toStdString() == file.mountPoint)
                *where = name.toStdString();
        }
        return FileOrigin::Written;
    }
    case Place::Root:
        break;
    }
    // Its writable root: what changed since it was made is its own.
    if (!layout.upperDir.isEmpty()) {
        const std::optional<qint64> changed = upperChangedNs(layout.upperDir, file.path);
        if (!changed || (layout.baseUntilNs > 0 && *changed <= layout.baseUntilNs))
            return FileOrigin::Base; // the base's, or setup.install's before the sandbox was made
        *where = "its own root";
        return FileOrigin::Written;
    }
    if (layout.baseUntilNs <= 0)
        return FileOrigin::Unknown;
    if (file.changedNs > layout.baseUntilNs) {
        *where = "its own root";
        return FileOrigin::Written;
    }
    return FileOrigin::Base;
}

void ProgramOrigins::classify(const QString &sandbox, ClientProgram &program) const
{
    std::shared_ptr<const Layout> layout;
    {
        const std::lock_guard lock(m_mutex);
        layout = m_layouts.value(sandbox);
    }
    if (!layout)
        return; // not known (yet): every origin stays unknown, and no program rule allows it
    std::string where;
    program.exeOrigin = originOf(*layout, program.exeFile, &where);
    if (!program.scriptFile.path.empty()) {
        std::string scriptWhere;
        program.scriptOrigin = originOf(*layout, program.scriptFile, &scriptWhere);
        if (where.empty())
            where = scriptWhere;
    }
    program.writtenWhere = where;
}

} // namespace paddock::sandbox
