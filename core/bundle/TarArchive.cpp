// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/TarArchive.h"

#include <QSet>
#include <QStringList>

#include <cstring>
#include <limits>
#include <optional>

namespace paddock::bundle {

namespace {

constexpr qsizetype kBlock = 512;

// Offsets and sizes of the ustar header fields (POSIX.1-1988).
struct Field
{
    qsizetype offset;
    qsizetype size;
};
constexpr Field kName{0, 100};
constexpr Field kMode{100, 8};
constexpr Field kUid{108, 8};
constexpr Field kGid{116, 8};
constexpr Field kSize{124, 12};
constexpr Field kMtime{136, 12};
constexpr Field kChecksum{148, 8};
constexpr qsizetype kTypeflag = 156;
constexpr Field kMagic{257, 6};
constexpr Field kVersion{263, 2};
constexpr Field kUname{265, 32};
constexpr Field kGname{297, 32};
constexpr Field kPrefix{345, 155};

/** A header field up to its first NUL (fields filled to the brim have none). */
QByteArray fieldBytes(const char *header, Field field)
{
    const char *begin = header + field.offset;
    const void *nul = std::memchr(begin, '\0', size_t(field.size));
    return QByteArray(begin, nul ? static_cast<const char *>(nul) - begin : field.size);
}

/** An octal number field; nullopt for anything else (including GNU's base-256 form). */
std::optional<qint64> octalField(const char *header, Field field)
{
    const QByteArray text = fieldBytes(header, field).trimmed();
    if (text.isEmpty())
        return 0;
    qint64 value = 0;
    for (const char c : text) {
        if (c < '0' || c > '7')
            return std::nullopt;
        if (value > (std::numeric_limits<qint64>::max() >> 3))
            return std::nullopt;
        value = value * 8 + (c - '0');
    }
    return value;
}

/** The header checksum: every byte summed as unsigned, the checksum field counted as spaces. */
qint64 headerChecksum(const char *header)
{
    qint64 sum = 0;
    for (qsizetype i = 0; i < kBlock; ++i) {
        const bool inChecksum = i >= kChecksum.offset && i < kChecksum.offset + kChecksum.size;
        sum += inChecksum ? ' ' : static_cast<unsigned char>(header[i]);
    }
    return sum;
}

bool isZeroBlock(const char *block)
{
    for (qsizetype i = 0; i < kBlock; ++i) {
        if (block[i] != 0)
            return false;
    }
    return true;
}

QString describeType(char type)
{
    switch (type) {
    case '1':
        return QStringLiteral("a hard link");
    case '2':
        return QStringLiteral("a symbolic link");
    case '3':
        return QStringLiteral("a character device");
    case '4':
        return QStringLiteral("a block device");
    case '6':
        return QStringLiteral("a FIFO");
    case 'x':
    case 'g':
        return QStringLiteral("a pax extended header");
    case 'L':
    case 'K':
        return QStringLiteral("a GNU long-name header");
    default:
        return QStringLiteral("an entry of unknown type '%1'")
            .arg(QLatin1Char(type >= 0x20 && type < 0x7f ? type : '?'));
    }
}

/** Quoted for a message: the path as far as it can be shown safely. */
QString quoted(const QString &path)
{
    QString shown;
    for (const QChar c : path)
        shown += c.isPrint() ? c : QChar(u'?');
    if (shown.size() > 200)
        shown = shown.left(200) + QStringLiteral("...");
    return u'\'' + shown + u'\'';
}

void putField(char *header, Field field, const QByteArray &value)
{
    std::memcpy(header + field.offset, value.constData(), size_t(std::min(value.size(), field.size)));
}

void putOctal(char *header, Field field, qint64 value)
{
    // size-1 digits, zero-padded, then a NUL: the form every tar reads.
    putField(header, field, QByteArray::number(value, 8).rightJustified(field.size - 1, '0'));
}

} // namespace

QString checkEntryPath(const QString &path, int maxDepth)
{
    if (path.isEmpty())
        return QStringLiteral("an entry has an empty name");
    if (path.startsWith(QLatin1Char('/')))
        return QStringLiteral("entry %1 has an absolute path").arg(quoted(path));
    for (const QChar c : path) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return QStringLiteral("entry %1 has a control character in its name").arg(quoted(path));
    }
    const QStringList parts = path.split(QLatin1Char('/'));
    if (parts.size() > maxDepth)
        return QStringLiteral("entry %1 is nested deeper than %2 levels").arg(quoted(path)).arg(maxDepth);
    for (const QString &part : parts) {
        if (part == QLatin1String(".."))
            return QStringLiteral("entry %1 leads outside the archive's folder ('..')").arg(quoted(path));
        if (part.isEmpty() || part == QLatin1String("."))
            return QStringLiteral("entry %1 has an empty or '.' component").arg(quoted(path));
    }
    return {};
}

namespace {

/** What an entry's header says, once checked. */
struct EntryHeader
{
    QString path;
    char type = '0';
    qint64 size = 0;
};

// The ustar header at @p position: magic, checksum, a UTF-8 name that is a safe path, a file or
// folder type, and a readable size within the entry limit.
std::optional<EntryHeader> readHeader(const char *header, qsizetype position, const TarLimits &limits, QString *error)
{
    const auto fail = [error](const QString &message) {
        *error = message;
        return std::nullopt;
    };
    if (fieldBytes(header, kMagic).left(5) != "ustar")
        return fail(position == 0 ? QStringLiteral("not a Paddock bundle: the file is not a tar (ustar) archive")
                                  : QStringLiteral("the archive is damaged: no tar header at byte %1").arg(position));
    const std::optional<qint64> stored = octalField(header, kChecksum);
    if (!stored || *stored != headerChecksum(header))
        return fail(QStringLiteral("the archive is damaged: bad header checksum at byte %1").arg(position));

    QByteArray rawName = fieldBytes(header, kName);
    const QByteArray prefix = fieldBytes(header, kPrefix);
    if (!prefix.isEmpty())
        rawName = prefix + '/' + rawName;
    EntryHeader entry;
    entry.path = QString::fromUtf8(rawName);
    if (entry.path.toUtf8() != rawName)
        return fail(QStringLiteral("an entry's name is not valid UTF-8 (header at byte %1)").arg(position));
    entry.type = header[kTypeflag];
    if (entry.type == '5' && entry.path.endsWith(QLatin1Char('/')))
        entry.path.chop(1);
    if (entry.type != '0' && entry.type != '\0' && entry.type != '5')
        return fail(QStringLiteral("entry %1 is %2; a bundle holds only files and folders")
                        .arg(quoted(entry.path), describeType(entry.type)));
    if (const QString problem = checkEntryPath(entry.path, limits.maxDepth); !problem.isEmpty())
        return fail(problem);

    const std::optional<qint64> size = octalField(header, kSize);
    if (!size)
        return fail(QStringLiteral("entry %1 has an unreadable size").arg(quoted(entry.path)));
    if (entry.type == '5' && *size != 0)
        return fail(QStringLiteral("folder entry %1 has a size").arg(quoted(entry.path)));
    if (*size > limits.maxEntrySize)
        return fail(QStringLiteral("entry %1 is too large (%2 bytes; at most %3)")
                        .arg(quoted(entry.path))
                        .arg(*size)
                        .arg(limits.maxEntrySize));
    entry.size = *size;
    return entry;
}

/** The paths read so far: no entry may replace another, sit under a file, or be a file where a folder is. */
class EntryTree
{
public:
    /** Adds @p path; an error sentence when it clashes with what is there. */
    QString add(const QString &path, bool isDirectory)
    {
        if (m_files.contains(path) || (!isDirectory && m_directories.contains(path)))
            return QStringLiteral("entry %1 appears twice").arg(quoted(path));
        for (qsizetype slash = path.indexOf(QLatin1Char('/')); slash > 0;
             slash = path.indexOf(QLatin1Char('/'), slash + 1)) {
            const QString parent = path.left(slash);
            if (m_files.contains(parent))
                return QStringLiteral("entry %1 lies under the file %2").arg(quoted(path), quoted(parent));
            m_directories.insert(parent);
        }
        (isDirectory ? m_directories : m_files).insert(path);
        return {};
    }

private:
    QSet<QString> m_files;
    QSet<QString> m_directories;
};

} // namespace

TarReadResult readTar(const QByteArray &archive, const TarLimits &limits)
{
    TarReadResult result;
    const auto fail = [&result](const QString &message) {
        result.entries.clear();
        result.error = message;
        return result;
    };
    EntryTree tree;
    qint64 total = 0;
    qsizetype position = 0;
    for (;;) {
        if (archive.size() - position < kBlock)
            return fail(position == 0 ? QStringLiteral("the file is empty or too short to be an archive")
                                      : QStringLiteral("the archive is truncated: it ends without an end-of-archive "
                                                       "marker"));
        const char *header = archive.constData() + position;
        if (isZeroBlock(header))
            break; // the end marker; what follows is padding
        QString error;
        const std::optional<EntryHeader> read = readHeader(header, position, limits, &error);
        if (!read)
            return fail(error);
        const QString &path = read->path;
        total += read->size;
        if (total > limits.maxTotalSize)
            return fail(QStringLiteral("the archive holds more than %1 bytes (at entry %2)")
                            .arg(limits.maxTotalSize)
                            .arg(quoted(path)));
        if (result.entries.size() >= limits.maxEntries)
            return fail(QStringLiteral("the archive holds more than %1 entries").arg(limits.maxEntries));
        const bool isDirectory = read->type == '5';
        if (const QString clash = tree.add(path, isDirectory); !clash.isEmpty())
            return fail(clash);

        position += kBlock;
        const qint64 padded = (read->size + kBlock - 1) / kBlock * kBlock;
        if (archive.size() - position < read->size)
            return fail(QStringLiteral("the archive is truncated inside entry %1").arg(quoted(path)));
        TarEntry entry;
        entry.path = path;
        entry.type = isDirectory ? TarEntry::Type::Directory : TarEntry::Type::File;
        const std::optional<qint64> mode = octalField(header, kMode);
        entry.executable = !isDirectory && mode && (*mode & 0100);
        if (!isDirectory)
            entry.data = archive.mid(position, qsizetype(read->size));
        result.entries.append(std::move(entry));
        position += std::min<qint64>(padded, archive.size() - position);
    }
    return result;
}

QByteArray writeTar(const QList<TarEntry> &entries, QString *error)
{
    QByteArray archive;
    for (const TarEntry &entry : entries) {
        if (const QString problem = checkEntryPath(entry.path, TarLimits().maxDepth); !problem.isEmpty()) {
            *error = problem;
            return {};
        }
        const bool isDirectory = entry.type == TarEntry::Type::Directory;
        QByteArray name = entry.path.toUtf8();
        if (isDirectory)
            name += '/';
        QByteArray prefix;
        if (name.size() > kName.size) {
            // Split at a '/' so that the prefix fits 155 bytes and the rest 100.
            qsizetype split = -1;
            for (qsizetype at = name.indexOf('/'); at > 0 && at <= kPrefix.size; at = name.indexOf('/', at + 1)) {
                const qsizetype rest = name.size() - at - 1;
                if (rest > 0 && rest <= kName.size && !(isDirectory && rest == 1)) {
                    split = at;
                    break;
                }
            }
            if (split < 0) {
                *error = QStringLiteral("the path %1 is too long for a bundle").arg(quoted(entry.path));
                return {};
            }
            prefix = name.left(split);
            name = name.mid(split + 1);
        }
        char header[kBlock];
        std::memset(header, 0, sizeof header);
        putField(header, kName, name);
        putOctal(header, kMode, isDirectory || entry.executable ? 0755 : 0644);
        putOctal(header, kUid, 0);
        putOctal(header, kGid, 0);
        putOctal(header, kSize, isDirectory ? 0 : entry.data.size());
        putOctal(header, kMtime, 0);
        header[kTypeflag] = isDirectory ? '5' : '0';
        putField(header, kMagic, QByteArray("ustar", 6));
        putField(header, kVersion, "00");
        putField(header, kUname, "root");
        putField(header, kGname, "root");
        putField(header, kPrefix, prefix);
        // Six octal digits, a NUL and a space: the historical form.
        putField(header, kChecksum, QByteArray::number(headerChecksum(header), 8).rightJustified(6, '0') + '\0' + ' ');
        archive.append(header, kBlock);
        if (!isDirectory) {
            archive.append(entry.data);
            archive.append(QByteArray((kBlock - entry.data.size() % kBlock) % kBlock, '\0'));
        }
    }
    archive.append(QByteArray(2 * kBlock, '\0'));
    return archive;
}

} // namespace paddock::bundle
