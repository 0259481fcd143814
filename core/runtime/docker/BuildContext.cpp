// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/BuildContext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

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

constexpr int kBlock = 512;

void putField(char *header, int offset, int width, const QByteArray &value)
{
    std::memcpy(header + offset, value.constData(), size_t(std::min<qsizetype>(width, value.size())));
}

void putOctal(char *header, int offset, int width, quint64 value)
{
    // width-1 digits and a NUL, as ustar expects.
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(width - 1, '0');
    putField(header, offset, width - 1, digits);
}

QByteArray paxRecord(const QByteArray &key, const QByteArray &value)
{
    // "<length> key=value\n", where length counts its own digits.
    const qsizetype rest = 1 + key.size() + 1 + value.size() + 1;
    qsizetype length = rest + 1;
    while (QByteArray::number(length).size() + rest != length)
        length = QByteArray::number(length).size() + rest;
    return QByteArray::number(length) + ' ' + key + '=' + value + '\n';
}

void appendPadded(QByteArray &tar, const QByteArray &data)
{
    tar += data;
    const qsizetype pad = (kBlock - data.size() % kBlock) % kBlock;
    tar.append(pad, '\0');
}

struct Entry
{
    QByteArray name;
    char type = '0';
    quint32 mode = 0644;
    quint64 size = 0;
    qint64 mtime = 0;
    QByteArray link;
};

void appendHeader(QByteArray &tar, const Entry &entry)
{
    QByteArray pax;
    if (entry.name.size() > 100)
        pax += paxRecord("path", entry.name);
    if (entry.link.size() > 100)
        pax += paxRecord("linkpath", entry.link);
    if (!pax.isEmpty()) {
        Entry extended;
        extended.name = "PaxHeaders/" + entry.name.right(80);
        extended.type = 'x';
        extended.size = quint64(pax.size());
        extended.mtime = entry.mtime;
        appendHeader(tar, extended);
        appendPadded(tar, pax);
    }
    char header[kBlock] = {};
    putField(header, 0, 100, entry.name.left(100));
    putOctal(header, 100, 8, entry.mode);
    putOctal(header, 108, 8, 0); // uid: context files belong to root in the image
    putOctal(header, 116, 8, 0); // gid
    putOctal(header, 124, 12, entry.size);
    putOctal(header, 136, 12, quint64(std::max<qint64>(0, entry.mtime)));
    header[156] = entry.type;
    putField(header, 157, 100, entry.link.left(100));
    putField(header, 257, 6, QByteArray("ustar", 6));
    putField(header, 263, 2, "00");
    std::memset(header + 148, ' ', 8);
    quint32 sum = 0;
    for (unsigned char byte : header)
        sum += byte;
    putField(header, 148, 7, QByteArray::number(sum, 8).rightJustified(6, '0') + '\0');
    tar.append(header, kBlock);
}

class ContextWriter
{
public:
    ContextWriter(QString root, DockerIgnore ignore, QStringList forced)
        : m_root(std::move(root)), m_ignore(std::move(ignore)), m_forced(std::move(forced))
    {}

    Status addTree(const QString &relativeDir)
    {
        const QDir dir(relativeDir.isEmpty() ? m_root : m_root + QLatin1Char('/') + relativeDir);
        const QStringList names =
            dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &name : names) {
            const QString relative = relativeDir.isEmpty() ? name : relativeDir + QLatin1Char('/') + name;
            const bool excluded = m_ignore.excludes(relative) && !m_forced.contains(relative);
            struct stat st
            {};
            const QByteArray path = QFile::encodeName(m_root + QLatin1Char('/') + relative);
            if (::lstat(path.constData(), &st) != 0)
                return Error{Error::Kind::Local, 0,
                             QStringLiteral("cannot read %1: %2")
                                 .arg(QString::fromLocal8Bit(path), QString::fromLocal8Bit(std::strerror(errno)))};
            if (S_ISDIR(st.st_mode)) {
                // An excluded directory is entered only when a "!" line may bring something back.
                if (excluded && !m_ignore.hasExceptions() && !forcedUnder(relative))
                    continue;
                if (!excluded)
                    appendHeader(m_tar, entryFor(relative + QLatin1Char('/'), '5', st));
                if (Status status = addTree(relative); !status)
                    return status;
                continue;
            }
            if (excluded)
                continue;
            if (S_ISLNK(st.st_mode)) {
                QByteArray target(PATH_MAX, '\0');
                const ssize_t n = ::readlink(path.constData(), target.data(), size_t(target.size()));
                if (n < 0)
                    return Error{Error::Kind::Local, 0,
                                 QStringLiteral("cannot read the link %1").arg(QString::fromLocal8Bit(path))};
                target.truncate(n);
                Entry entry = entryFor(relative, '2', st);
                entry.link = target;
                appendHeader(m_tar, entry);
            } else if (S_ISREG(st.st_mode)) {
                QFile file(QString::fromLocal8Bit(path));
                if (!file.open(QIODevice::ReadOnly))
                    return Error{Error::Kind::Local, 0,
                                 QStringLiteral("cannot read %1: %2").arg(file.fileName(), file.errorString())};
                const QByteArray data = file.readAll();
                Entry entry = entryFor(relative, '0', st);
                entry.size = quint64(data.size());
                appendHeader(m_tar, entry);
                appendPadded(m_tar, data);
            }
            // Sockets, fifos and devices have no place in an image build.
        }
        return {};
    }

    QByteArray finish()
    {
        m_tar.append(2 * kBlock, '\0');
        return std::move(m_tar);
    }

private:
    static Entry entryFor(const QString &name, char type, const struct stat &st)
    {
        Entry entry;
        entry.name = name.toUtf8();
        entry.type = type;
        entry.mode = quint32(st.st_mode & 07777);
        entry.mtime = qint64(st.st_mtim.tv_sec);
        return entry;
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
    QByteArray m_tar;
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
    const QFileInfo root(contextDir);
    if (!root.isDir())
        return Error{Error::Kind::Local, 0, QStringLiteral("the build context %1 is not a directory").arg(contextDir)};
    const QString dockerfilePath = QDir::cleanPath(dockerfile);
    if (dockerfilePath.startsWith(QLatin1String("../")) || QDir::isAbsolutePath(dockerfilePath))
        return Error{
            Error::Kind::Local, 0,
            QStringLiteral("the Dockerfile %1 must be inside the build context %2").arg(dockerfile, contextDir)};
    if (!QFileInfo(root.absoluteFilePath() + QLatin1Char('/') + dockerfilePath).isFile())
        return Error{Error::Kind::Local, 0,
                     QStringLiteral("there is no %1 in the build context %2").arg(dockerfilePath, contextDir)};
    ContextWriter writer(root.absoluteFilePath(), DockerIgnore::load(root.absoluteFilePath()),
                         {dockerfilePath, QStringLiteral(".dockerignore")});
    if (Status status = writer.addTree(QString()); !status)
        return status.error();
    return writer.finish();
}

} // namespace paddock::runtime::docker
