// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/BuildContext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <archive.h>
#include <archive_entry.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>

namespace paddock::runtime::docker {

namespace {

// --- .dockerignore -----------------------------------------------------------------------

QString cleanPattern(QString pattern)
{
    pattern = QDir::cleanPath(pattern);
    while (pattern.startsWith(QLatin1Char('/')))
        pattern.remove(0, 1);
    return pattern == QLatin1String(".") ? QString() : pattern;
}

QString patternToRegex(const QString &pattern)
{
    QString regex = QStringLiteral("^");
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (c == QLatin1Char('*')) {
            if (i + 1 < pattern.size() && pattern.at(i + 1) == QLatin1Char('*')) {
                ++i;
                if (i + 1 < pattern.size() && pattern.at(i + 1) == QLatin1Char('/')) {
                    ++i;
                    regex += QStringLiteral("(.*/)?"); // "**/" is zero or more directories
                } else {
                    regex += QStringLiteral(".*");
                }
            } else {
                regex += QStringLiteral("[^/]*");
            }
        } else if (c == QLatin1Char('?')) {
            regex += QStringLiteral("[^/]");
        } else if (c == QLatin1Char('[')) {
            const qsizetype close = pattern.indexOf(QLatin1Char(']'), i + 1);
            if (close < 0) {
                regex += QStringLiteral("\\[");
                continue;
            }
            QString cls = pattern.mid(i + 1, close - i - 1);
            if (cls.startsWith(QLatin1Char('^')) || cls.startsWith(QLatin1Char('!')))
                cls = QStringLiteral("^") + cls.mid(1);
            regex += QLatin1Char('[') + cls + QLatin1Char(']');
            i = close;
        } else if (c == QLatin1Char('\\') && i + 1 < pattern.size()) {
            regex += QRegularExpression::escape(pattern.at(++i));
        } else {
            regex += QRegularExpression::escape(c);
        }
    }
    return regex + QLatin1Char('$');
}

// --- tar ---------------------------------------------------------------------------------

la_ssize_t appendTo(archive *, void *output, const void *buffer, size_t length)
{
    static_cast<QByteArray *>(output)->append(static_cast<const char *>(buffer), qsizetype(length));
    return la_ssize_t(length);
}

Error localError(const QString &message)
{
    return Error{Error::Kind::Local, 0, message};
}

/**
 * @brief Walks a context directory into a tar written by libarchive: restricted pax (ustar
 * headers, with a pax record only where ustar cannot hold a name), every member root's.
 */
class ContextWriter
{
public:
    ContextWriter(QString root, DockerIgnore ignore, QStringList forced, const BuildContextOptions &options)
        : m_root(std::move(root)), m_ignore(std::move(ignore)), m_forced(std::move(forced)), m_options(options)
    {
        m_open = m_writer && archive_write_set_format_pax_restricted(m_writer.get()) == ARCHIVE_OK &&
                 archive_write_add_filter_none(m_writer.get()) == ARCHIVE_OK &&
                 archive_write_set_bytes_in_last_block(m_writer.get(), 1) == ARCHIVE_OK &&
                 archive_write_open(m_writer.get(), &m_tar, nullptr, &appendTo, nullptr) == ARCHIVE_OK;
    }

    Status addTree(const QString &relativeDir)
    {
        if (!m_open)
            return localError(QStringLiteral("cannot start writing the build context"));
        const QDir dir(relativeDir.isEmpty() ? m_root : m_root + QLatin1Char('/') + relativeDir);
        const QStringList names =
            dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &name : names) {
            const QString relative = relativeDir.isEmpty() ? name : relativeDir + QLatin1Char('/') + name;
            if (Status status = addPath(relative); !status)
                return status;
        }
        return {};
    }

    /** The Dockerfile given as text, as a member of its own (the walk leaves out a file of that name). */
    Status addText(const QString &relative, const QByteArray &text)
    {
        if (!m_open)
            return localError(QStringLiteral("cannot start writing the build context"));
        if (Status status = count(text.size()); !status)
            return status;
        const std::unique_ptr<archive_entry, decltype(&archive_entry_free)> header(archive_entry_new(),
                                                                                   &archive_entry_free);
        archive_entry_copy_pathname(header.get(), relative.toUtf8().constData());
        archive_entry_set_filetype(header.get(), AE_IFREG);
        archive_entry_set_perm(header.get(), 0644);
        archive_entry_set_size(header.get(), text.size());
        if (archive_write_header(m_writer.get(), header.get()) < ARCHIVE_WARN ||
            archive_write_data(m_writer.get(), text.constData(), size_t(text.size())) != text.size())
            return localError(QStringLiteral("cannot add %1 to the build context: %2").arg(relative, writerError()));
        return {};
    }

    Result<QByteArray> finish()
    {
        if (archive_write_close(m_writer.get()) != ARCHIVE_OK)
            return localError(QStringLiteral("cannot finish the build context: %1").arg(writerError()));
        return std::move(m_tar);
    }

private:
    Status addPath(const QString &relative)
    {
        if (!m_options.dockerfileText.isEmpty() && relative == m_options.dockerfile)
            return {}; // given as text instead
        const bool excluded = m_ignore.excludes(relative) && !m_forced.contains(relative);
        struct stat st
        {};
        const QByteArray path = QFile::encodeName(m_root + QLatin1Char('/') + relative);
        if (::lstat(path.constData(), &st) != 0)
            return localError(QStringLiteral("cannot read %1: %2")
                                  .arg(QString::fromLocal8Bit(path), QString::fromLocal8Bit(std::strerror(errno))));
        if (S_ISDIR(st.st_mode)) {
            // An excluded directory is entered only when a "!" line may bring something back.
            if (excluded && !m_ignore.hasExceptions() && !forcedUnder(relative))
                return {};
            if (!excluded) {
                if (Status status = addMember(relative, st, {}); !status)
                    return status;
            }
            return addTree(relative);
        }
        if (excluded)
            return {};
        if (S_ISLNK(st.st_mode)) {
            QByteArray target(PATH_MAX, '\0');
            const ssize_t n = ::readlink(path.constData(), target.data(), size_t(target.size()));
            if (n < 0)
                return localError(QStringLiteral("cannot read the link %1").arg(QString::fromLocal8Bit(path)));
            target.truncate(n);
            if (m_options.confined && leavesContext(relative, QFile::decodeName(target)))
                return localError(QStringLiteral("%1 in the build context %2 is a link to %3, outside it: a build "
                                                 "context keeps its links inside (copy the file in instead)")
                                      .arg(relative, m_root, QFile::decodeName(target)));
            return addMember(relative, st, target);
        }
        if (S_ISREG(st.st_mode))
            return addMember(relative, st, {});
        // Sockets, fifos and devices have no place in an image build.
        return {};
    }

    /** Whether the link @p relative, pointing at @p target, names something outside the context. */
    static bool leavesContext(const QString &relative, const QString &target)
    {
        if (QDir::isAbsolutePath(target))
            return true;
        const qsizetype slash = relative.lastIndexOf(QLatin1Char('/'));
        const QString from = slash < 0 ? QString() : relative.left(slash + 1);
        const QString resolved = QDir::cleanPath(from + target);
        return resolved == QLatin1String("..") || resolved.startsWith(QLatin1String("../"));
    }

    /** Counts @p bytes against the bound, before they are read. */
    Status count(qint64 bytes)
    {
        m_bytes += bytes;
        if (m_options.maxBytes > 0 && m_bytes > m_options.maxBytes)
            return localError(
                QStringLiteral("the build context %1 holds more than %2 MiB: move what the image does not need out "
                               "of it, or list it in .dockerignore")
                    .arg(m_root)
                    .arg(m_options.maxBytes >> 20));
        return {};
    }

    /** One member: @p st's type, mode, size and time, owned by root; a file's data read as it is written. */
    Status addMember(const QString &relative, const struct stat &st, const QByteArray &linkTarget)
    {
        QFile file(m_root + QLatin1Char('/') + relative);
        if (S_ISREG(st.st_mode)) {
            if (Status status = count(st.st_size); !status)
                return status;
        }
        if (S_ISREG(st.st_mode) && !file.open(QIODevice::ReadOnly))
            return localError(QStringLiteral("cannot read %1: %2").arg(file.fileName(), file.errorString()));
        const std::unique_ptr<archive_entry, decltype(&archive_entry_free)> header(archive_entry_new(),
                                                                                   &archive_entry_free);
        archive_entry_copy_pathname(header.get(), relative.toUtf8().constData());
        archive_entry_set_filetype(header.get(), st.st_mode & S_IFMT);
        archive_entry_set_perm(header.get(), st.st_mode & 07777);
        archive_entry_set_size(header.get(), S_ISREG(st.st_mode) ? file.size() : 0);
        // Context files belong to root in the image.
        archive_entry_set_uid(header.get(), 0);
        archive_entry_set_gid(header.get(), 0);
        archive_entry_set_mtime(header.get(), std::max<time_t>(0, st.st_mtim.tv_sec), 0);
        if (S_ISLNK(st.st_mode))
            archive_entry_copy_symlink(header.get(), linkTarget.constData());
        // ARCHIVE_WARN still writes the member: a name outside the locale's charset goes as raw bytes,
        // as the docker CLI sends it.
        if (archive_write_header(m_writer.get(), header.get()) < ARCHIVE_WARN)
            return localError(QStringLiteral("cannot add %1 to the build context: %2").arg(relative, writerError()));
        if (!S_ISREG(st.st_mode))
            return {};
        // The size written in the header is what goes in, even if the file changes meanwhile.
        QByteArray chunk;
        for (qint64 left = file.size(); left > 0; left -= chunk.size()) {
            chunk = file.read(std::min<qint64>(left, 1 << 20));
            if (chunk.isEmpty() ||
                archive_write_data(m_writer.get(), chunk.constData(), size_t(chunk.size())) != chunk.size())
                return localError(QStringLiteral("cannot add %1 to the build context: %2")
                                      .arg(relative, chunk.isEmpty() ? file.errorString() : writerError()));
        }
        return {};
    }

    QString writerError() const
    {
        const char *reason = archive_error_string(m_writer.get());
        return QString::fromUtf8(reason ? reason : "unknown error");
    }

    bool forcedUnder(const QString &dir) const
    {
        for (const QString &forced : m_forced)
            if (forced.startsWith(dir + QLatin1Char('/')))
                return true;
        return false;
    }

    QString m_root;
    DockerIgnore m_ignore;
    QStringList m_forced;
    BuildContextOptions m_options;
    qint64 m_bytes = 0;
    QByteArray m_tar;
    std::unique_ptr<archive, decltype(&archive_write_free)> m_writer{archive_write_new(), &archive_write_free};
    bool m_open = false;
};

} // namespace

DockerIgnore DockerIgnore::parse(const QString &text)
{
    DockerIgnore ignore;
    for (QString line : text.split(QLatin1Char('\n'))) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        Pattern pattern;
        if (line.startsWith(QLatin1Char('!'))) {
            pattern.exception = true;
            line = line.mid(1).trimmed();
        }
        line = cleanPattern(line);
        if (line.isEmpty())
            continue;
        pattern.regex = QRegularExpression(patternToRegex(line));
        if (!pattern.regex.isValid())
            continue;
        pattern.components = int(line.count(QLatin1Char('/'))) + 1;
        ignore.m_hasExceptions = ignore.m_hasExceptions || pattern.exception;
        ignore.m_patterns.append(std::move(pattern));
    }
    return ignore;
}

DockerIgnore DockerIgnore::load(const QString &contextDir)
{
    QFile file(contextDir + QStringLiteral("/.dockerignore"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return parse(QString::fromUtf8(file.readAll()));
}

bool DockerIgnore::excludes(const QString &relativePath) const
{
    const QStringList components = relativePath.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    bool excluded = false;
    for (const Pattern &pattern : m_patterns) {
        bool match = pattern.regex.match(relativePath).hasMatch();
        // A pattern naming a directory covers what is inside it.
        if (!match && pattern.components < components.size())
            match = pattern.regex.match(components.first(pattern.components).join(QLatin1Char('/'))).hasMatch();
        if (match)
            excluded = !pattern.exception;
    }
    return excluded;
}

Result<QByteArray> makeBuildContext(const QString &contextDir, const QString &dockerfile)
{
    BuildContextOptions options;
    options.dockerfile = dockerfile;
    return makeBuildContext(contextDir, options);
}

Result<QByteArray> makeBuildContext(const QString &contextDir, const BuildContextOptions &options)
{
    const QString &dockerfile = options.dockerfile;
    const QFileInfo root(contextDir);
    if (!root.isDir())
        return Error{Error::Kind::Local, 0, QStringLiteral("the build context %1 is not a directory").arg(contextDir)};
    const QString dockerfilePath = QDir::cleanPath(dockerfile);
    if (dockerfilePath.startsWith(QLatin1String("../")) || QDir::isAbsolutePath(dockerfilePath))
        return Error{
            Error::Kind::Local, 0,
            QStringLiteral("the Dockerfile %1 must be inside the build context %2").arg(dockerfile, contextDir)};
    if (options.dockerfileText.isEmpty() &&
        !QFileInfo(root.absoluteFilePath() + QLatin1Char('/') + dockerfilePath).isFile())
        return Error{Error::Kind::Local, 0,
                     QStringLiteral("there is no %1 in the build context %2").arg(dockerfilePath, contextDir)};
    BuildContextOptions cleaned = options;
    cleaned.dockerfile = dockerfilePath;
    ContextWriter writer(root.absoluteFilePath(), DockerIgnore::load(root.absoluteFilePath()),
                         {dockerfilePath, QStringLiteral(".dockerignore")}, cleaned);
    if (!options.dockerfileText.isEmpty()) {
        if (Status status = writer.addText(dockerfilePath, options.dockerfileText); !status)
            return status.error();
    }
    if (Status status = writer.addTree(QString()); !status)
        return status.error();
    return writer.finish();
}

} // namespace paddock::runtime::docker
