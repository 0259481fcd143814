// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/TarStream.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace paddock::image {
namespace {

class FileRange : public ByteSource
{
public:
    FileRange(int fd, qint64 offset, qint64 size) : m_fd(fd), m_position(offset), m_end(offset + size) {}
    qint64 read(char *data, qint64 size) override
    {
        const qint64 wanted = std::min(size, m_end - m_position);
        if (wanted <= 0)
            return 0;
        for (;;) {
            const ssize_t n = ::pread(m_fd, data, size_t(wanted), m_position);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                m_error = QString::fromLocal8Bit(std::strerror(errno));
                return -1;
            }
            if (n == 0) {
                m_error = QStringLiteral("the archive ends early");
                return -1;
            }
            m_position += n;
            return n;
        }
    }
    QString error() const override { return m_error; }
    qint64 skip(qint64 size) override
    {
        // A file is skipped by seeking: indexing an archive of large layers reads only headers.
        const qint64 skipped = std::clamp<qint64>(size, 0, m_end - m_position);
        m_position += skipped;
        return skipped;
    }

private:
    int m_fd;
    qint64 m_position;
    qint64 m_end;
    QString m_error;
};

/**
 * @brief Hands a ByteSource to libarchive through its read and skip callbacks, and says why
 * libarchive stopped: the source's own error, the source's end, or the damage libarchive saw.
 */
class SourceFeed
{
public:
    explicit SourceFeed(ByteSource &source) : m_source(source) {}

    /** Opens @p handle on the source; libarchive's status. */
    int open(archive *handle)
    {
        archive_read_set_callback_data(handle, this);
        archive_read_set_read_callback(handle, &SourceFeed::readCallback);
        archive_read_set_skip_callback(handle, &SourceFeed::skipCallback);
        return archive_read_open1(handle);
    }

    bool ended() const { return m_ended; }

    /** Why @p handle failed: @p endedEarly when the source ran out, else @p damaged with libarchive's reason. */
    QString failure(archive *handle, const QString &endedEarly, const QString &damaged) const
    {
        if (!m_source.error().isEmpty())
            return m_source.error();
        if (m_ended)
            return endedEarly;
        const char *reason = archive_error_string(handle);
        return damaged.arg(QString::fromUtf8(reason ? reason : "unknown error"));
    }

private:
    static la_ssize_t readCallback(archive *, void *self, const void **buffer)
    {
        auto *feed = static_cast<SourceFeed *>(self);
        const qint64 n = feed->m_source.read(feed->m_buffer.data(), feed->m_buffer.size());
        feed->m_ended = n == 0;
        *buffer = feed->m_buffer.constData();
        return n < 0 ? ARCHIVE_FATAL : la_ssize_t(n);
    }

    static la_int64_t skipCallback(archive *, void *self, la_int64_t request)
    {
        return static_cast<SourceFeed *>(self)->m_source.skip(request);
    }

    ByteSource &m_source;
    QByteArray m_buffer = QByteArray(64 * 1024, Qt::Uninitialized);
    bool m_ended = false;
};

TarMember::Type typeOf(archive_entry *entry)
{
    if (archive_entry_hardlink(entry))
        return TarMember::Type::HardLink;
    switch (archive_entry_filetype(entry)) {
    case AE_IFREG:
        return TarMember::Type::File;
    case AE_IFDIR:
        return TarMember::Type::Directory;
    case AE_IFLNK:
        return TarMember::Type::SymLink;
    case AE_IFCHR:
        return TarMember::Type::CharDevice;
    case AE_IFBLK:
        return TarMember::Type::BlockDevice;
    case AE_IFIFO:
        return TarMember::Type::Fifo;
    default:
        return TarMember::Type::Other;
    }
}

QByteArray bytesOf(const char *text)
{
    return text ? QByteArray(text) : QByteArray();
}

TarMember memberOf(archive_entry *entry)
{
    TarMember member;
    member.type = typeOf(entry);
    member.path = bytesOf(archive_entry_pathname(entry));
    while (member.path.size() > 1 && member.path.endsWith('/'))
        member.path.chop(1);
    member.linkPath = bytesOf(member.type == TarMember::Type::HardLink ? archive_entry_hardlink(entry)
                                                                       : archive_entry_symlink(entry));
    member.mode = quint32(archive_entry_mode(entry) & 07777);
    member.size = member.type == TarMember::Type::File ? qint64(archive_entry_size(entry)) : 0;
    member.mtime = qint64(archive_entry_mtime(entry));
    return member;
}

} // namespace

qint64 ByteSource::skip(qint64)
{
    return 0;
}

std::unique_ptr<ByteSource> fileRange(int fd, qint64 offset, qint64 size)
{
    return std::make_unique<FileRange>(fd, offset, size);
}

struct LayerStream::Decoder
{
    explicit Decoder(ByteSource &source) : feed(source) {}
    ~Decoder() { archive_read_free(handle); }
    Decoder(const Decoder &) = delete;
    Decoder &operator=(const Decoder &) = delete;

    archive *handle = archive_read_new();
    SourceFeed feed;
    bool empty = false; ///< the layer has no byte at all
};

LayerStream::LayerStream(std::unique_ptr<ByteSource> source, qint64 maxBytes)
    : m_source(std::move(source)), m_maxBytes(maxBytes)
{}

LayerStream::~LayerStream() = default;

QString LayerStream::digest() const
{
    return QString::fromLatin1(m_hash.result().toHex());
}

bool LayerStream::start()
{
    m_decoder = std::make_unique<Decoder>(*m_source);
    archive *handle = m_decoder->handle;
    // Only decompressors libarchive carries itself (ARCHIVE_OK): with ARCHIVE_WARN it would run an
    // outside program on the layer. Anything else is read as it is ("raw"), then as a tar.
    if (!handle || archive_read_support_filter_gzip(handle) != ARCHIVE_OK ||
        archive_read_support_filter_zstd(handle) != ARCHIVE_OK ||
        archive_read_support_filter_xz(handle) != ARCHIVE_OK || archive_read_support_format_raw(handle) != ARCHIVE_OK ||
        archive_read_support_format_empty(handle) != ARCHIVE_OK) {
        m_error = QStringLiteral("this system's libarchive cannot decompress gzip, zstd and xz by itself");
        return false;
    }
    archive_entry *entry = nullptr;
    int status = m_decoder->feed.open(handle);
    if (status == ARCHIVE_OK)
        status = archive_read_next_header(handle, &entry);
    m_decoder->empty = status == ARCHIVE_EOF;
    if (status != ARCHIVE_OK && status != ARCHIVE_EOF) {
        m_error = m_decoder->feed.failure(handle, QStringLiteral("the compressed layer ends early"),
                                          QStringLiteral("the compressed layer is damaged (%1)"));
        return false;
    }
    return true;
}

qint64 LayerStream::read(char *data, qint64 size)
{
    if (!m_error.isEmpty() || (!m_decoder && !start()))
        return -1;
    if (m_produced >= m_maxBytes) {
        m_error = QStringLiteral("the layer is larger than %1 bytes once unpacked").arg(m_maxBytes);
        return -1;
    }
    if (m_decoder->empty)
        return 0;
    const qint64 wanted = std::min(size, m_maxBytes - m_produced);
    const la_ssize_t n = archive_read_data(m_decoder->handle, data, size_t(wanted));
    if (n < 0) {
        m_error = m_decoder->feed.failure(m_decoder->handle, QStringLiteral("the compressed layer ends early"),
                                          QStringLiteral("the compressed layer is damaged (%1)"));
        return -1;
    }
    m_hash.addData(QByteArrayView(data, n));
    m_produced += n;
    return n;
}

struct TarReader::Archive
{
    explicit Archive(ByteSource &source) : feed(source) {}
    ~Archive() { archive_read_free(handle); }
    Archive(const Archive &) = delete;
    Archive &operator=(const Archive &) = delete;

    archive *handle = archive_read_new();
    SourceFeed feed;
};

TarReader::TarReader(ByteSource &source) : m_archive(std::make_unique<Archive>(source)) {}

TarReader::~TarReader() = default;

void TarReader::fail()
{
    // Until libarchive has taken the stream for a tar, it is not one.
    const bool isTar = (archive_format(m_archive->handle) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_TAR;
    m_error = m_archive->feed.failure(m_archive->handle, QStringLiteral("the archive ends in the middle of a member"),
                                      isTar ? QStringLiteral("the archive is damaged (%1)")
                                            : QStringLiteral("it is not a tar archive (%1)"));
}

bool TarReader::open()
{
    // The tar format alone, no decompressor: what is read here is a tar as it is.
    m_opened = true;
    archive *handle = m_archive->handle;
    if (!handle || archive_read_support_format_tar(handle) != ARCHIVE_OK ||
        m_archive->feed.open(handle) != ARCHIVE_OK) {
        fail();
        return false;
    }
    return true;
}

std::optional<TarMember> TarReader::next()
{
    if (!m_error.isEmpty())
        return std::nullopt;
    archive *handle = m_archive->handle;
    if (!m_opened && !open())
        return std::nullopt;
    archive_entry *entry = nullptr;
    const int status = archive_read_next_header(handle, &entry);
    if (status == ARCHIVE_EOF) {
        // libarchive takes a stream that stops after a member as complete: Paddock does not.
        if (archive_filter_bytes(handle, 0) == archive_read_header_position(handle))
            m_error = QStringLiteral("the archive ends in the middle of a member");
        return std::nullopt;
    }
    // ARCHIVE_WARN too (a malformed pax record, a name that cannot be read): the member is not
    // what its headers say.
    if (status != ARCHIVE_OK) {
        fail();
        return std::nullopt;
    }
    TarMember member = memberOf(entry);
    if (archive_entry_sparse_count(entry) > 0) {
        m_error = QStringLiteral("member '%1' is a sparse file, which Paddock does not read")
                      .arg(QString::fromUtf8(member.path.left(200)));
        return std::nullopt;
    }
    m_dataOffset = archive_filter_bytes(handle, 0);
    return member;
}

qint64 TarReader::readData(char *data, qint64 size)
{
    if (!m_error.isEmpty())
        return -1;
    const la_ssize_t n = archive_read_data(m_archive->handle, data, size_t(size));
    if (n < 0) {
        fail();
        return -1;
    }
    return n;
}

} // namespace paddock::image
