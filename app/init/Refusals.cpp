// SPDX-License-Identifier: GPL-3.0-or-later
#include "Refusals.h"
#include "Capture.h"

#include <cstring>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace paddock::init {

bool RefusalReporter::admit(const std::string &key, Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    if (now - m_window >= std::chrono::seconds(1)) {
        m_window = now;
        m_sentInWindow = 0;
    }
    auto &last = m_lastSent[key];
    if (m_sentInWindow >= kPerSecond || (last != Clock::time_point() && now - last < std::chrono::seconds(1)))
        return false;
    // The map stays small: destinations are forgotten once they have been quiet for a minute.
    if (m_lastSent.size() > 4096) {
        for (auto it = m_lastSent.begin(); it != m_lastSent.end();)
            it = now - it->second > std::chrono::minutes(1) ? m_lastSent.erase(it) : std::next(it);
    }
    last = now;
    ++m_sentInWindow;
    return true;
}

void RefusalReporter::report(const ClientProgram &program, const preamble::Destination &to)
{
    if (!admit(to.transport + ' ' + to.host + ' ' + std::to_string(to.port), Clock::now()))
        return;
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (fd < 0 || m_proxySocket.size() >= sizeof address.sun_path) {
        if (fd >= 0)
            close(fd);
        return;
    }
    std::memcpy(address.sun_path, m_proxySocket.c_str(), m_proxySocket.size() + 1);
    if (connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0) {
        const std::string line = preamble::encode(program, preamble::Delivery::Report, to);
        // An empty unix socket takes the whole line at once.
        (void)send(fd, line.data(), line.size(), MSG_NOSIGNAL);
    }
    close(fd);
}

void runDatagramReports(int fd, std::shared_ptr<NameTable> names, std::shared_ptr<RefusalReporter> reporter)
{
    ClientOwnerFinder owners;
    RefusedDatagram datagram;
    while (readRefusedDatagram(fd, &datagram)) {
        preamble::Destination to;
        to.transport = "udp";
        to.host = hostOf(datagram.destination, *names);
        to.port = ntohs(reinterpret_cast<const sockaddr_in &>(datagram.destination).sin_port);
        reporter->report(owners.find(datagram.source, datagram.destination, IPPROTO_UDP), to);
    }
}

} // namespace paddock::init
