// SPDX-License-Identifier: GPL-3.0-or-later
#include "sandbox/WorkspaceReview.h"

#include "common/AtomicFile.h"
#include "runtime/TrustedFiles.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::sandbox {
namespace {

constexpr qint64 kMaxFileBytes = 1024 * 1024;
constexpr qint64 kMaxTotalBytes = 16 * 1024 * 1024;
constexpr int kMaxFiles = 256;

/** @brief One reviewed path as it is on disk, without following any link. */
struct Entry
{
    enum class Type {
        File,
        Link,
        Other
    };
    Type type = Type::Other;
    QByteArray digest;  ///< of the content (a file) or the target (a link)
    QByteArray content; ///< a file's bytes when small enough to keep, else empty with @ref large
    bool large = false;
    QString target;  ///< a link's target, as written
    int mode = 0644; ///< a file's permission bits
};

using Tree = QMap<QString, Entry>;

/** Reads a regular file without following a link at its last step; empty when it cannot. */
std::optional<QByteArray> readPlain(const QString &path, qint64 limit, bool *large)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return std::nullopt;
    struct stat info
    {};
    QByteArray bytes;
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
        *large = info.st_size > limit;
        if (!*large) {
            bytes.resize(qsizetype(info.st_size));
            qint64 done = 0;
            for (ssize_t n;
                 done < info.st_size && (n = ::read(fd, bytes.data() + done, size_t(info.st_size - done))) > 0;)
                done += n;
            bytes.resize(qsizetype(done));
        }
    }
    ::close(fd);
    return bytes;
}

/** @brief Walks the reviewed paths of a workspace, links recorded as links, within bounds. */
class Walker
{
public:
    explicit Walker(const QString &root) : m_root(QDir::cleanPath(root)) {}

    Tree walk()
    {
        for (const QString &relative : runtime::trusted::reviewedPaths())
            visit(relative);
        return m_tree;
    }

private:
    void visit(const QString &relative)
    {
        if (m_tree.size() >= kMaxFiles)
            return;
        // A link anywhere on the way is the entry itself: never followed.
        QString walked;
        for (const QString &part : relative.split(QLatin1Char('/'))) {
            walked += (walked.isEmpty() ? QString() : QStringLiteral("/")) + part;
            struct stat info
            {};
            if (::lstat(QFile::encodeName(m_root + QLatin1Char('/') + walked).constData(), &info) != 0)
                return;
            if (S_ISLNK(info.st_mode))
                return addLink(walked);
        }
        const QString path = m_root + QLatin1Char('/') + relative;
        const QFileInfo info(path);
        if (info.isDir()) {
            const QStringList children =
                QDir(path).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
            for (const QString &child : children)
                visit(relative + QLatin1Char('/') + child);
        } else if (info.isFile()) {
            addFile(relative, path);
        }
    }
    void addLink(const QString &relative)
    {
        Entry entry;
        entry.type = Entry::Type::Link;
        entry.target = QFile::symLinkTarget(m_root + QLatin1Char('/') + relative);
        char buffer[4096];
        const ssize_t n =
            ::readlink(QFile::encodeName(m_root + QLatin1Char('/') + relative).constData(), buffer, sizeof buffer);
        if (n > 0)
            entry.target = QFile::decodeName(QByteArray(buffer, int(n)));
        entry.digest = QCryptographicHash::hash(entry.target.toUtf8(), QCryptographicHash::Sha256);
        m_tree.insert(relative, entry);
    }
    void addFile(const QString &relative, const QString &path)
    {
        Entry entry;
        entry.type = Entry::Type::File;
        const std::optional<QByteArray> bytes =
            readPlain(path, std::min(kMaxFileBytes, kMaxTotalBytes - m_total), &entry.large);
        if (!bytes)
            return;
        entry.content = *bytes;
        struct stat info
        {};
        if (::lstat(QFile::encodeName(path).constData(), &info) == 0)
            entry.mode = int(info.st_mode & 0777);
        m_total += entry.content.size();
        entry.digest = entry.large ? QByteArray("large:") + QByteArray::number(QFileInfo(path).size()) +
                                         QByteArray::number(QFileInfo(path).lastModified().toMSecsSinceEpoch())
                                   : QCryptographicHash::hash(entry.content, QCryptographicHash::Sha256);
        m_tree.insert(relative, entry);
    }

    QString m_root;
    Tree m_tree;
    qint64 m_total = 0;
};

QString whatItIs(const QString &path)
{
    if (path.startsWith(QLatin1String(".git/hooks")))
        return QStringLiteral("git hook");
    if (path == QLatin1String(".git/config"))
        return QStringLiteral("git configuration");
    if (path == QLatin1String(".envrc"))
        return QStringLiteral("direnv script");
    if (path.startsWith(QLatin1String(".vscode")))
        return QStringLiteral("editor tasks and settings");
    if (path.startsWith(QLatin1String(".github/")) || path == QLatin1String(".gitlab-ci.yml"))
        return QStringLiteral("CI workflow");
    if (path == QLatin1String(".pre-commit-config.yaml"))
        return QStringLiteral("pre-commit hooks");
    return QStringLiteral("build file");
}

/** A unified diff of two texts by diff(1), run on copies so no link in the workspace is read. */
QString unifiedDiff(const QString &path, const QByteArray &before, const QByteArray &after)
{
    const QByteArray sample = before.left(8000) + after.left(8000);
    if (sample.contains('\0'))
        return QStringLiteral("binary content changed");
    QTemporaryDir dir;
    QFile a(dir.filePath(QStringLiteral("a"))), b(dir.filePath(QStringLiteral("b")));
    if (!dir.isValid() || !a.open(QIODevice::WriteOnly) || !b.open(QIODevice::WriteOnly))
        return QStringLiteral("changed");
    a.write(before);
    b.write(after);
    a.close();
    b.close();
    QProcess diff;
    diff.start(QStringLiteral("diff"),
               {QStringLiteral("-u"), QStringLiteral("--label"), QStringLiteral("a/") + path, QStringLiteral("--label"),
                QStringLiteral("b/") + path, a.fileName(), b.fileName()});
    if (!diff.waitForFinished(5000))
        return QStringLiteral("changed");
    return QString::fromUtf8(diff.readAllStandardOutput());
}

QString describe(const Entry &entry)
{
    if (entry.type == Entry::Type::Link)
        return QStringLiteral("a link to %1").arg(entry.target);
    return entry.large ? QStringLiteral("a file over 1 MiB") : QString();
}

/** Whether every step of @p relative under @p root is a real folder (the last may be missing). */
bool noLinkOnTheWay(const QString &root, const QString &relative)
{
    QString path = root;
    const QStringList parts = relative.split(QLatin1Char('/'));
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        path += QLatin1Char('/') + parts.at(i);
        struct stat info
        {};
        if (::lstat(QFile::encodeName(path).constData(), &info) == 0 && !S_ISDIR(info.st_mode))
            return false;
    }
    return true;
}

} // namespace

QJsonObject ReviewedChange::toJson() const
{
    const char *names[] = {"added", "modified", "removed"};
    return {{QStringLiteral("path"), path},
            {QStringLiteral("change"), QLatin1String(names[int(kind)])},
            {QStringLiteral("what"), what},
            {QStringLiteral("diff"), diff},
            {QStringLiteral("revertible"), revertible}};
}

WorkspaceReview::WorkspaceReview(QString workspace, QString recordDir)
    : m_workspace(std::move(workspace)), m_recordDir(std::move(recordDir))
{}

Result<void> WorkspaceReview::snapshot()
{
    const Tree tree = Walker(m_workspace).walk();
    QDir(m_recordDir).removeRecursively();
    // The folder itself, even when the workspace holds nothing the host runs: then the empty
    // manifest is the record that a file the session adds is new.
    if (!QDir().mkpath(m_recordDir))
        return fail(QStringLiteral("cannot create %1").arg(m_recordDir));
    QJsonObject manifest;
    for (auto it = tree.cbegin(); it != tree.cend(); ++it) {
        const Entry &entry = it.value();
        QJsonObject item{
            {QStringLiteral("type"), entry.type == Entry::Type::Link ? QStringLiteral("link") : QStringLiteral("file")},
            {QStringLiteral("digest"), QString::fromLatin1(entry.digest.toHex())},
            {QStringLiteral("target"), entry.target},
            {QStringLiteral("large"), entry.large},
            {QStringLiteral("mode"), entry.mode}};
        if (entry.type == Entry::Type::File && !entry.large) {
            const QString copy = m_recordDir + QStringLiteral("/base/") + it.key();
            QString error;
            // Made again at each start: a record a crash lost is replaced by the next one, so
            // none of its files waits for the disk (a git workspace has some twenty of them).
            if (!QDir().mkpath(QFileInfo(copy).absolutePath()) ||
                !writeFileAtomically(copy, entry.content, &error, 0644, Durability::Unsynced))
                return fail(error);
        }
        manifest.insert(it.key(), item);
    }
    QString error;
    if (!writeFileAtomically(m_recordDir + QStringLiteral("/manifest.json"), QJsonDocument(manifest).toJson(), &error,
                             0644, Durability::Unsynced))
        return fail(error);
    return {};
}

Result<QList<ReviewedChange>> WorkspaceReview::review() const
{
    QFile file(m_recordDir + QStringLiteral("/manifest.json"));
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("nothing was recorded for this workspace yet: the record is made when the sandbox "
                                   "starts"));
    const QJsonObject manifest = QJsonDocument::fromJson(file.readAll()).object();
    const Tree now = Walker(m_workspace).walk();
    QList<ReviewedChange> changes;
    auto baseContent = [this](const QString &path) {
        bool large = false;
        return readPlain(m_recordDir + QStringLiteral("/base/") + path, kMaxFileBytes, &large).value_or(QByteArray());
    };
    for (auto it = manifest.begin(); it != manifest.end(); ++it) {
        const QJsonObject before = it.value().toObject();
        const bool link = before.value(QLatin1String("type")).toString() == QLatin1String("link");
        const bool stored = !link && !before.value(QLatin1String("large")).toBool();
        const auto current = now.constFind(it.key());
        if (current == now.cend()) {
            changes.append({it.key(), ReviewedChange::Kind::Removed, whatItIs(it.key()),
                            stored ? unifiedDiff(it.key(), baseContent(it.key()), {}) : QStringLiteral("removed"),
                            stored});
        } else if (QString::fromLatin1(current->digest.toHex()) != before.value(QLatin1String("digest")).toString()) {
            const bool texts = stored && current->type == Entry::Type::File && !current->large;
            changes.append({it.key(), ReviewedChange::Kind::Modified, whatItIs(it.key()),
                            texts ? unifiedDiff(it.key(), baseContent(it.key()), current->content)
                                  : QStringLiteral("now %1").arg(describe(*current)),
                            stored});
        }
    }
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        if (manifest.contains(it.key()))
            continue;
        const bool text = it->type == Entry::Type::File && !it->large;
        changes.append({it.key(), ReviewedChange::Kind::Added, whatItIs(it.key()),
                        text ? unifiedDiff(it.key(), {}, it->content) : QStringLiteral("new: %1").arg(describe(*it)),
                        true});
    }
    return changes;
}

Result<void> WorkspaceReview::revert(const QString &path) const
{
    const Result<QList<ReviewedChange>> changes = review();
    if (!changes)
        return changes.error();
    for (const ReviewedChange &change : *changes) {
        if (change.path != path)
            continue;
        if (!change.revertible || !noLinkOnTheWay(m_workspace, path))
            return fail(
                QStringLiteral("%1 cannot be put back: it was not recorded, or a link now leads to it").arg(path));
        const QString target = m_workspace + QLatin1Char('/') + path;
        if (change.kind == ReviewedChange::Kind::Added) {
            if (::unlink(QFile::encodeName(target).constData()) != 0)
                return fail(
                    QStringLiteral("cannot remove %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
            return {};
        }
        QFile base(m_recordDir + QStringLiteral("/base/") + path);
        QFile manifestFile(m_recordDir + QStringLiteral("/manifest.json"));
        if (!base.open(QIODevice::ReadOnly) || !manifestFile.open(QIODevice::ReadOnly) ||
            !QDir().mkpath(QFileInfo(target).absolutePath())) {
            return fail(QStringLiteral("the record of %1 cannot be read").arg(path));
        }
        const int mode = QJsonDocument::fromJson(manifestFile.readAll())[path][QLatin1String("mode")].toInt(0644);
        // The rename replaces whatever is there now, a link included, without following it.
        QString error;
        if (!writeFileAtomically(target, base.readAll(), &error, mode & 0777))
            return fail(error);
        return {};
    }
    return fail(QStringLiteral("%1 did not change since the sandbox started").arg(path));
}

} // namespace paddock::sandbox
