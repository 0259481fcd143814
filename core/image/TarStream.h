// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QCryptographicHash>
#include <QString>

#include <memory>
#include <optional>

namespace paddock::image {

/** @brief Bytes read in order, from a part of a file or through a decompressor. */
class ByteSource
{
public:
    virtual ~ByteSource() = default;
    /** Up to @p size bytes into @p data: how many, 0 at the end, -1 on an error (error()). */
    virtual qint64 read(char *data, qint64 size) = 0;
    virtual QString error() const = 0;
    /** Passes over @p size bytes; false (error()) when they are not there. */
    virtual bool skip(qint64 size);
};

/** The bytes [@p offset, @p offset + @p size) of the open file @p fd (not owned). */
std::unique_ptr<ByteSource> fileRange(int fd, qint64 offset, qint64 size);

/**
 * @p source as it is when it is not compressed, else inflated (gzip; zstd is refused with a
 * sentence), at most @p maxBytes in all: a small archive that inflates without end is stopped
 * there. Every byte it gives is also hashed with SHA-256 (digest()), which names a layer.
 */
class LayerStream : public ByteSource
{
public:
    LayerStream(std::unique_ptr<ByteSource> source, qint64 maxBytes);
    ~LayerStream() override;
    qint64 read(char *data, qint64 size) override;
    QString error() const override { return m_error; }
    /** The SHA-256 of what was read so far, as lower-case hex. */
    QString digest() const;
    qint64 produced() const { return m_produced; }

private:
    qint64 readRaw(char *data, qint64 size);
    qint64 inflate(char *data, qint64 size);

    std::unique_ptr<ByteSource> m_source;
    qint64 m_maxBytes;
    qint64 m_produced = 0;
    QCryptographicHash m_hash{QCryptographicHash::Sha256};
    QByteArray m_peeked; ///< the first bytes, read to tell the format
    bool m_started = false;
    bool m_gzip = false;
    struct Inflater;
    std::unique_ptr<Inflater> m_inflater;
    QString m_error;
};

/** @brief One member of a tar stream, with what pax and GNU extension headers said of it. */
struct TarMember
{
    enum class Type {
        File,
        HardLink,
        SymLink,
        CharDevice,
        BlockDevice,
        Directory,
        Fifo,
        Other
    };
    QByteArray path;     ///< as written, up to any trailing '/'
    QByteArray linkPath; ///< a link's target
    Type type = Type::Other;
    char typeFlag = 0;
    quint32 mode = 0;
    qint64 size = 0; ///< of its data
    qint64 mtime = 0;
};

/**
 * @brief Reads a tar stream (ustar, with pax `path`/`linkpath`/`size` records and GNU long
 * names) member by member, treating it as hostile: headers are checked (magic, checksum,
 * numbers), extension headers are bounded, and the data of a member can be read or skipped.
 */
class TarReader
{
public:
    explicit TarReader(ByteSource &source) : m_source(source) {}
    /**
     * The next member, skipping what remains of the current one; nullopt at the end of the
     * archive, or with error() set when it is damaged.
     */
    std::optional<TarMember> next();
    /** Up to @p size bytes of the current member's data; 0 at its end, -1 on an error. */
    qint64 readData(char *data, qint64 size);
    QString error() const { return m_error; }

private:
    bool readExactly(char *data, qint64 size);
    bool skip(qint64 size);
    bool readExtension(qint64 size, QByteArray *text);

    ByteSource &m_source;
    qint64 m_remaining = 0; ///< data of the current member not read yet
    qint64 m_padding = 0;   ///< then its padding to a whole block
    QString m_error;
};

} // namespace paddock::image
