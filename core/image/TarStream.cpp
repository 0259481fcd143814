// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/TarStream.h"

#include <QList>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include <unistd.h>
#include <zlib.h>

namespace paddock::image {
namespace {

constexpr qint64 kBlock = 512;
/** A pax or GNU extension header holds names and a few numbers: more is not a real archive. */
constexpr qint64 kMaxExtension = 1024 * 1024;

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
    bool skip(qint64 size) override
    {
        // A file is skipped by seeking: indexing an archive of large layers reads only headers.
        if (size > m_end - m_position) {
            m_error = QStringLiteral("the archive ends early");
            return false;
        }
        m_position += size;
        return true;
    }

private:
    int m_fd;
    qint64 m_position;
    qint64 m_end;
    QString m_error;
};

/** A number field: octal text, or GNU's base-256 form (first byte's high bit set); nullopt when neither. */
std::optional<qint64> numberField(const char *field, int size)
{
    const auto byte = static_cast<unsigned char>(field[0]);
    if (byte & 0x80) {
        if (byte != 0x80)
            return std::nullopt; // negative, or more than 63 bits
        qint64 value = 0;
        for (int i = 1; i < size; ++i) {
            if (value > (std::numeric_limits<qint64>::max() >> 8))
                return std::nullopt;
            value = (value << 8) | static_cast<unsigned char>(field[i]);
        }
        return value;
    }
    qint64 value = 0;
    int i = 0;
    while (i < size && field[i] == ' ')
        ++i;
    bool digits = false;
    for (; i < size && field[i] >= '0' && field[i] <= '7'; ++i) {
        if (value > (std::numeric_limits<qint64>::max() >> 3))
            return std::nullopt;
        value = value * 8 + (field[i] - '0');
        digits = true;
    }
    for (; i < size; ++i) {
        if (field[i] != ' ' && field[i] != '\0')
            return std::nullopt;
    }
    return digits ? value : 0;
}

QByteArray textField(const char *field, int size)
{
    const void *nul = std::memchr(field, '\0', size_t(size));
    return QByteArray(field, nul ? int(static_cast<const char *>(nul) - field) : size);
}

bool checksumMatches(const char *header)
{
    const std::optional<qint64> stored = numberField(header + 148, 8);
    qint64 unsignedSum = 0;
    qint64 signedSum = 0;
    for (int i = 0; i < kBlock; ++i) {
        const bool inField = i >= 148 && i < 156;
        unsignedSum += inField ? ' ' : static_cast<unsigned char>(header[i]);
        signedSum += inField ? ' ' : static_cast<signed char>(header[i]);
    }
    return stored && (*stored == unsignedSum || *stored == signedSum);
}

TarMember::Type typeOf(char flag)
{
    switch (flag) {
    case '0':
    case '\0':
    case '7':
        return TarMember::Type::File;
    case '1':
        return TarMember::Type::HardLink;
    case '2':
        return TarMember::Type::SymLink;
    case '3':
        return TarMember::Type::CharDevice;
    case '4':
        return TarMember::Type::BlockDevice;
    case '5':
        return TarMember::Type::Directory;
    case '6':
        return TarMember::Type::Fifo;
    default:
        return TarMember::Type::Other;
    }
}

/** Pax records "LENGTH key=value\n"; false when one is malformed. */
bool parsePax(const QByteArray &text, QByteArray *path, QByteArray *linkPath, std::optional<qint64> *size)
{
    qsizetype position = 0;
    while (position < text.size()) {
        const qsizetype space = text.indexOf(' ', position);
        if (space < 0)
            return false;
        bool ok = false;
        const qint64 length = text.mid(position, space - position).toLongLong(&ok);
        if (!ok || length <= space - position || position + length > text.size() ||
            text.at(position + length - 1) != '\n')
            return false;
        const QByteArray record = text.mid(space + 1, length - (space - position) - 2);
        const qsizetype equals = record.indexOf('=');
        if (equals < 0)
            return false;
        const QByteArray key = record.left(equals);
        const QByteArray value = record.mid(equals + 1);
        if (key == "path")
            *path = value;
        else if (key == "linkpath")
            *linkPath = value;
        else if (key == "size") {
            const qint64 number = value.toLongLong(&ok);
            if (!ok || number < 0)
                return false;
            *size = number;
        }
        position += length;
    }
    return true;
}

} // namespace

bool ByteSource::skip(qint64 size)
{
    char buffer[64 * 1024];
    while (size > 0) {
        const qint64 n = read(buffer, std::min<qint64>(size, sizeof buffer));
        if (n <= 0)
            return false;
        size -= n;
    }
    return true;
}

std::unique_ptr<ByteSource> fileRange(int fd, qint64 offset, qint64 size)
{
    return std::make_unique<FileRange>(fd, offset, size);
}

struct LayerStream::Inflater
{
    z_stream stream{};
    QByteArray input = QByteArray(64 * 1024, Qt::Uninitialized);
    bool finished = false;
    ~Inflater() { inflateEnd(&stream); }
};

LayerStream::LayerStream(std::unique_ptr<ByteSource> source, qint64 maxBytes)
    : m_source(std::move(source)), m_maxBytes(maxBytes)
{}

LayerStream::~LayerStream() = default;

QString LayerStream::digest() const
{
    return QString::fromLatin1(m_hash.result().toHex());
}

qint64 LayerStream::readRaw(char *data, qint64 size)
{
    if (!m_peeked.isEmpty()) {
        const qint64 n = std::min<qint64>(size, m_peeked.size());
        std::memcpy(data, m_peeked.constData(), size_t(n));
        m_peeked.remove(0, n);
        return n;
    }
    const qint64 n = m_source->read(data, size);
    if (n < 0)
        m_error = m_source->error();
    return n;
}

qint64 LayerStream::inflate(char *data, qint64 size)
{
    Inflater &z = *m_inflater;
    z.stream.next_out = reinterpret_cast<Bytef *>(data);
    z.stream.avail_out = uInt(std::min<qint64>(size, 1 << 30));
    while (z.stream.avail_out == uInt(std::min<qint64>(size, 1 << 30)) && !z.finished) {
        if (z.stream.avail_in == 0) {
            const qint64 n = readRaw(z.input.data(), z.input.size());
            if (n < 0)
                return -1;
            if (n == 0) {
                m_error = QStringLiteral("the compressed layer ends early");
                return -1;
            }
            z.stream.next_in = reinterpret_cast<Bytef *>(z.input.data());
            z.stream.avail_in = uInt(n);
        }
        const int status = ::inflate(&z.stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END)
            z.finished = true;
        else if (status != Z_OK) {
            m_error = QStringLiteral("the compressed layer is damaged (%1)")
                          .arg(QString::fromLatin1(z.stream.msg ? z.stream.msg : "zlib error"));
            return -1;
        }
    }
    return qint64(reinterpret_cast<char *>(z.stream.next_out) - data);
}

qint64 LayerStream::read(char *data, qint64 size)
{
    if (!m_started) {
        m_started = true;
        QByteArray head(4, Qt::Uninitialized);
        qint64 got = 0;
        while (got < head.size()) {
            const qint64 n = m_source->read(head.data() + got, head.size() - got);
            if (n < 0) {
                m_error = m_source->error();
                return -1;
            }
            if (n == 0)
                break;
            got += n;
        }
        head.truncate(got);
        m_peeked = head;
        if (head.startsWith("\x28\xb5\x2f\xfd")) {
            m_error = QStringLiteral("the layer is compressed with zstd, which Paddock does not read yet; "
                                     "save the image with gzip or uncompressed layers");
            return -1;
        }
        m_gzip = head.startsWith("\x1f\x8b");
        if (m_gzip) {
            m_inflater = std::make_unique<Inflater>();
            if (inflateInit2(&m_inflater->stream, 16 + MAX_WBITS) != Z_OK) {
                m_error = QStringLiteral("cannot start decompressing the layer");
                return -1;
            }
        }
    }
    if (m_produced >= m_maxBytes) {
        m_error = QStringLiteral("the layer is larger than %1 bytes once unpacked").arg(m_maxBytes);
        return -1;
    }
    const qint64 wanted = std::min(size, m_maxBytes - m_produced);
    const qint64 n = m_gzip ? inflate(data, wanted) : readRaw(data, wanted);
    if (n > 0) {
        m_hash.addData(QByteArrayView(data, n));
        m_produced += n;
    }
    return n;
}

bool TarReader::readExactly(char *data, qint64 size)
{
    qint64 done = 0;
    while (done < size) {
        const qint64 n = m_source.read(data + done, size - done);
        if (n <= 0) {
            m_error = n < 0 ? m_source.error() : QStringLiteral("the archive ends in the middle of a member");
            return false;
        }
        done += n;
    }
    return true;
}

bool TarReader::skip(qint64 size)
{
    if (size > 0 && !m_source.skip(size)) {
        const QString why = m_source.error();
        m_error = why.isEmpty() ? QStringLiteral("the archive ends in the middle of a member") : why;
        return false;
    }
    return true;
}

bool TarReader::readExtension(qint64 size, QByteArray *text)
{
    if (size > kMaxExtension) {
        m_error = QStringLiteral("an extension header holds %1 bytes, more than a name needs").arg(size);
        return false;
    }
    text->resize(size);
    const qint64 padded = (size + kBlock - 1) / kBlock * kBlock;
    return readExactly(text->data(), size) && skip(padded - size);
}

qint64 TarReader::readData(char *data, qint64 size)
{
    const qint64 wanted = std::min(size, m_remaining);
    if (wanted <= 0)
        return 0;
    if (!readExactly(data, wanted))
        return -1;
    m_remaining -= wanted;
    return wanted;
}

std::optional<TarMember> TarReader::next()
{
    if (!skip(m_remaining + m_padding))
        return std::nullopt;
    m_remaining = m_padding = 0;
    QByteArray longName;
    QByteArray longLink;
    QByteArray paxPath;
    QByteArray paxLink;
    std::optional<qint64> paxSize;
    for (int extensions = 0;; ++extensions) {
        char header[kBlock];
        if (!readExactly(header, kBlock))
            return std::nullopt;
        if (std::all_of(header, header + kBlock, [](char c) { return c == 0; }))
            return std::nullopt; // the end marker
        if (std::memcmp(header + 257, "ustar", 5) != 0 || !checksumMatches(header)) {
            m_error = QStringLiteral("the archive is damaged: a header has no ustar magic or a bad checksum");
            return std::nullopt;
        }
        const std::optional<qint64> size = numberField(header + 124, 12);
        const std::optional<qint64> mode = numberField(header + 100, 8);
        if (!size || !mode || extensions > 8) {
            m_error = QStringLiteral("the archive is damaged: a header's numbers cannot be read");
            return std::nullopt;
        }
        const char flag = header[156];
        if (flag == 'x' || flag == 'g' || flag == 'L' || flag == 'K') {
            QByteArray text;
            if (!readExtension(*size, &text))
                return std::nullopt;
            if (flag == 'x' && !parsePax(text, &paxPath, &paxLink, &paxSize)) {
                m_error = QStringLiteral("the archive is damaged: a pax header is malformed");
                return std::nullopt;
            }
            if (flag == 'L')
                longName = textField(text.constData(), int(text.size()));
            if (flag == 'K')
                longLink = textField(text.constData(), int(text.size()));
            continue;
        }
        TarMember member;
        member.typeFlag = flag;
        member.type = typeOf(flag);
        member.mode = quint32(*mode & 07777);
        member.mtime = numberField(header + 136, 12).value_or(0);
        QByteArray name = textField(header, 100);
        // The prefix field is POSIX ustar's ("ustar\0"); GNU's old format keeps times there.
        if (std::memcmp(header + 257, "ustar\0", 6) == 0) {
            const QByteArray prefix = textField(header + 345, 155);
            if (!prefix.isEmpty())
                name = prefix + '/' + name;
        }
        member.path = !paxPath.isEmpty() ? paxPath : !longName.isEmpty() ? longName : name;
        member.linkPath = !paxLink.isEmpty() ? paxLink : !longLink.isEmpty() ? longLink : textField(header + 157, 100);
        while (member.path.size() > 1 && member.path.endsWith('/'))
            member.path.chop(1);
        member.size = paxSize.value_or(*size);
        const bool hasData = member.type == TarMember::Type::File || member.type == TarMember::Type::Other;
        m_remaining = hasData ? member.size : 0;
        m_padding = hasData ? (kBlock - member.size % kBlock) % kBlock : 0;
        if (!hasData)
            member.size = 0;
        return member;
    }
}

} // namespace paddock::image
