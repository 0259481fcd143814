// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

namespace paddock::runtime::docker {

/** @brief Where an image build stands, reported as the engine's progress stream arrives. */
struct BuildProgress
{
    int step = 0;        ///< the Dockerfile instruction being run, from 1; 0 before the first
    int totalSteps = 0;  ///< instructions in the Dockerfile, once known
    int percent = 0;     ///< finished instructions over all of them; 100 once the image is built
    QString instruction; ///< e.g. "RUN make", for the current step
    QString output;      ///< the text this message added to the build log
};

/**
 * @brief Reads the JSON-lines stream of POST /build: `{"stream": "..."}` text (with
 * "Step N/M : INSTRUCTION" lines), `{"aux": {"ID": ...}}` for the image id and
 * `{"error": ..., "errorDetail": {...}}` for a failure.
 */
class BuildProgressParser
{
public:
    using Callback = std::function<void(const BuildProgress &progress)>;

    explicit BuildProgressParser(Callback callback = {});

    /** Feeds response bytes in any chunking. */
    void feed(const char *data, size_t size);
    void feed(const QByteArray &data) { feed(data.constData(), size_t(data.size())); }
    /** The stream ended: parses a last unterminated line and, on success, reports 100%. */
    void finish();

    bool failed() const { return !m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString imageId() const { return m_imageId; }
    const BuildProgress &progress() const { return m_progress; }
    /** Everything the build printed. */
    const QString &log() const { return m_log; }

private:
    void parseLine(const QByteArray &line);
    void handleText(const QString &text);

    Callback m_callback;
    QByteArray m_pending;
    QString m_textLine; // a "stream" line not yet ended by a newline
    BuildProgress m_progress;
    QString m_error;
    QString m_imageId;
    QString m_log;
};

} // namespace paddock::runtime::docker
