// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/StreamRelay.h"

#include "runtime/docker/StreamDemuxer.h"
#include "runtime/session/RawIo.h"

#include <cerrno>

#include <poll.h>
#include <unistd.h>

namespace paddock::runtime::docker {

using session::writeAll;

bool relayStream(HijackedConnection &stream, const ProcessIo &io, bool forwardInput, bool endInput, bool tty,
                 QString *error)
{
    StreamDemuxer demuxer([&io](StreamDemuxer::Stream which, const char *data, size_t size) {
        writeAll(which == StreamDemuxer::Stream::Stderr ? io.err : io.out, data, size);
    });
    bool inputOpen = forwardInput;
    char buffer[16384];
    for (;;) {
        const qint64 n = stream.read(buffer, sizeof buffer, 0);
        if (n == 0)
            return true;
        if (n == -1) {
            *error = QStringLiteral("the connection to the engine broke off");
            return false;
        }
        if (n > 0) {
            if (tty)
                writeAll(io.out, buffer, size_t(n));
            else if (!demuxer.feed(buffer, size_t(n))) {
                *error = QStringLiteral("the engine's output is not in the multiplexed format");
                return false;
            }
            continue;
        }
        pollfd fds[2] = {{stream.socketDescriptor(), POLLIN, 0}, {io.in, POLLIN, 0}};
        // Over TLS the socket can be readable with nothing to decrypt yet: poll briefly instead.
        const int ready = ::poll(fds, inputOpen ? 2 : 1, stream.isEncrypted() ? 50 : -1);
        if (ready < 0 && errno != EINTR) {
            *error = QStringLiteral("cannot wait for the container's output");
            return false;
        }
        if (inputOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t got = ::read(io.in, buffer, sizeof buffer);
            if (got > 0) {
                stream.write(QByteArray(buffer, qsizetype(got)));
            } else if (got == 0 || errno != EINTR) {
                inputOpen = false;
                if (endInput && !stream.isEncrypted())
                    stream.closeWrite();
            }
        }
    }
}

} // namespace paddock::runtime::docker
