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
    /**
     * Passes over up to @p size bytes without reading them: how many. 0 when the source cannot
     * (a decompressor, or the end): the bytes are then read instead.
     */
    virtual qint64 skip(qint64 size);
};

/** The bytes [@p offset, @p offset + @p size) of the open file @p fd (not owned). */
std::unique_ptr<ByteSource> fileRange(int fd, qint64 offset, qint64 size);

/**
 * @p source as it is when it is not compressed, else decompressed (gzip, zstd or xz, by
 * libarchive), at most @p maxBytes in all: a small archive that inflates without end is stopped
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
    bool start();

    std::unique_ptr<ByteSource> m_source;
    qint64 m_maxBytes;
    qint64 m_produced = 0;
    QCryptographicHash m_hash{QCryptographicHash::Sha256};
    struct Decoder;
    std::unique_ptr<Decoder> m_decoder;
    QString m_error;
};

/** @brief One member of a tar stream, as libarchive reads it (pax and GNU headers applied). */
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
    quint32 mode = 0;
    qint64 size = 0; ///< of a file's data; 0 for any other member
    qint64 mtime = 0;
};

/**
 * @brief Reads an uncompressed tar stream (ustar, pax, GNU) member by member with libarchive,
 * treating it as hostile: a damaged header, a sparse member or an archive without its end
 * marker is an error, and the data of a member can be read or skipped.
 */
class TarReader
{
public:
    explicit TarReader(ByteSource &source);
    ~TarReader();
    /**
     * The next member, skipping what remains of the current one; nullopt at the end of the
     * archive, or with error() set when it is damaged.
     */
    std::optional<TarMember> next();
    /** Up to @p size bytes of the current member's data; 0 at its end, -1 on an error. */
    qint64 readData(char *data, qint64 size);
    /** Where the current member's data starts among the source's bytes. */
    qint64 dataOffset() const { return m_dataOffset; }
    QString error() const { return m_error; }

private:
    bool open();
    void fail();

    struct Archive;
    std::unique_ptr<Archive> m_archive;
    qint64 m_dataOffset = 0;
    bool m_opened = false;
    QString m_error;
};

} // namespace paddock::image
