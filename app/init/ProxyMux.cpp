// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProxyMux.h"

#include "proxy/MuxFrame.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::init {
namespace mux = proxy::mux;
namespace {

/** Output towards the desktop held at most: no client is read while it is fuller. */
constexpr std::size_t kMaxOutput = 1024 * 1024;

struct Stream
{
    int fd = -1;
    std::size_t sendCredit = mux::Window; ///< bytes this side may still send the desktop
    std::string toClient;                 ///< from the desktop, not yet written to the client
    bool closing = false;                 ///< the desktop closed it: flush, then close
};

int listenAt(const std::string &path)
{
    sockaddr_un addr{};
    if (path.empty() || path.size() >= sizeof addr.sun_path) {
        std::fprintf(stderr, "paddock-init: the proxy socket path %s is not usable\n", path.c_str());
        return -1;
    }
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    unlink(path.c_str()); // an earlier carrier's socket
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || chmod(path.c_str(), 0666) != 0 ||
        listen(fd, 128) != 0) {
        std::fprintf(stderr, "paddock-init: cannot listen on %s: %s\n", path.c_str(), std::strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

class Mux
{
public:
    Mux(int listener, int portsListener) : m_listener(listener), m_portsListener(portsListener)
    {
        fcntl(STDOUT_FILENO, F_SETFL, fcntl(STDOUT_FILENO, F_GETFL) | O_NONBLOCK);
    }

    int run()
    {
        for (;;) {
            std::vector<pollfd> fds{{STDIN_FILENO, POLLIN, 0},
                                    {STDOUT_FILENO, short(m_out.empty() ? 0 : POLLOUT), 0},
                                    {m_listener, POLLIN, 0},
                                    {m_portsListener, POLLIN, 0}}; // ignored when -1
            std::vector<std::uint32_t> ids;
            for (const auto &[id, stream] : m_streams) {
                short events = 0;
                if (!stream.closing && stream.sendCredit > 0 && m_out.size() < kMaxOutput)
                    events |= POLLIN;
                if (!stream.toClient.empty())
                    events |= POLLOUT;
                fds.push_back({stream.fd, events, 0});
                ids.push_back(id);
            }
            if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
                return 1;
            if ((fds[1].revents & POLLOUT) && !flushOutput())
                return 0;
            if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) && !readInput())
                return 0; // the desktop's end is gone: so is every connection
            if (fds[2].revents & POLLIN)
                acceptAll(m_listener, mux::Type::Open);
            if (fds[3].revents & POLLIN)
                acceptAll(m_portsListener, mux::Type::OpenPort);
            for (std::size_t i = 0; i < ids.size(); ++i) {
                if (fds[i + 4].revents)
                    serve(ids[i], fds[i + 4].revents);
            }
        }
    }

private:
    bool flushOutput()
    {
        const ssize_t n = write(STDOUT_FILENO, m_out.data(), m_out.size());
        if (n < 0)
            return errno == EINTR || errno == EAGAIN;
        m_out.erase(0, std::size_t(n));
        return true;
    }

    bool readInput()
    {
        char buffer[65536];
        const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0)
            return errno == EINTR || errno == EAGAIN;
        if (n == 0)
            return false;
        m_in.feed(buffer, std::size_t(n));
        mux::Frame frame;
        for (;;) {
            const mux::Reader::Next next = m_in.next(&frame);
            if (next == mux::Reader::Next::NeedMore)
                return true;
            if (next == mux::Reader::Next::Broken || !take(frame))
                return false;
        }
    }

    /** One frame from the desktop; false when it breaks the framing's rules. */
    bool take(const mux::Frame &frame)
    {
        if (frame.type == mux::Type::Open || frame.type == mux::Type::OpenPort || frame.id == 0 || frame.id > m_lastId)
            return false;
        const auto it = m_streams.find(frame.id);
        if (it == m_streams.end())
            return true; // closed here while the frame was on its way
        Stream &stream = it->second;
        std::uint32_t credit = 0;
        switch (frame.type) {
        case mux::Type::Data:
            if (stream.toClient.size() + frame.payload.size() > mux::Window)
                return false;
            stream.toClient.append(frame.payload);
            return true;
        case mux::Type::Close:
            stream.closing = true;
            if (stream.toClient.empty())
                drop(frame.id, false);
            return true;
        case mux::Type::Credit:
            if (!mux::creditOf(frame, &credit) || stream.sendCredit + credit > mux::Window)
                return false;
            stream.sendCredit += credit;
            return true;
        case mux::Type::Open:
        case mux::Type::OpenPort:
            break;
        }
        return false;
    }

    void acceptAll(int listener, mux::Type open)
    {
        for (;;) {
            const int client = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (client < 0)
                return;
            if (m_streams.size() >= mux::MaxStreams) {
                close(client);
                continue;
            }
            const std::uint32_t id = ++m_lastId;
            m_streams[id].fd = client;
            mux::append(m_out, open, id);
        }
    }

    void serve(std::uint32_t id, short revents)
    {
        Stream &stream = m_streams.at(id);
        if ((revents & POLLOUT) && !stream.toClient.empty()) {
            const ssize_t n = send(stream.fd, stream.toClient.data(), stream.toClient.size(), MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EINTR)
                return drop(id, true);
            if (n > 0) {
                stream.toClient.erase(0, std::size_t(n));
                mux::appendCredit(m_out, id, std::uint32_t(n));
            }
            if (stream.closing && stream.toClient.empty())
                return drop(id, false);
        }
        if ((revents & (POLLIN | POLLHUP | POLLERR)) && !stream.closing && stream.sendCredit > 0) {
            char buffer[mux::MaxPayload];
            const ssize_t n = recv(stream.fd, buffer, std::min(sizeof buffer, stream.sendCredit), 0);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            if (n <= 0)
                return drop(id, true);
            stream.sendCredit -= std::size_t(n);
            mux::append(m_out, mux::Type::Data, id, std::string_view(buffer, std::size_t(n)));
        }
    }

    void drop(std::uint32_t id, bool tellDesktop)
    {
        const auto it = m_streams.find(id);
        close(it->second.fd);
        m_streams.erase(it);
        if (tellDesktop)
            mux::append(m_out, mux::Type::Close, id);
    }

    int m_listener;
    int m_portsListener;
    mux::Reader m_in;
    std::string m_out;
    std::map<std::uint32_t, Stream> m_streams;
    std::uint32_t m_lastId = 0;
};

} // namespace

int runProxyMux(const std::string &socketPath, const std::string &portsPath)
{
    const int listener = listenAt(socketPath);
    if (listener < 0)
        return 1;
    const int portsListener = portsPath.empty() ? -1 : listenAt(portsPath);
    if (!portsPath.empty() && portsListener < 0)
        return 1;
    const int status = Mux(listener, portsListener).run();
    unlink(socketPath.c_str());
    if (!portsPath.empty())
        unlink(portsPath.c_str());
    return status;
}

} // namespace paddock::init
