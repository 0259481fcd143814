// SPDX-License-Identifier: GPL-3.0-or-later
#include "Netlink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace paddock::init::netlink {
namespace {

constexpr std::size_t align(std::size_t size)
{
    return (size + 3) & ~std::size_t(3);
}

} // namespace

Message::Message(std::uint16_t type, std::uint16_t flags, const void *familyHeader, std::size_t familySize)
{
    nlmsghdr header{};
    header.nlmsg_type = type;
    header.nlmsg_flags = flags;
    m_bytes.resize(NLMSG_HDRLEN + align(familySize));
    std::memcpy(m_bytes.data(), &header, sizeof header);
    if (familySize > 0)
        std::memcpy(m_bytes.data() + NLMSG_HDRLEN, familyHeader, familySize);
}

void Message::put(std::uint16_t type, const void *data, std::size_t size)
{
    nlattr attribute{};
    attribute.nla_type = type;
    attribute.nla_len = std::uint16_t(NLA_HDRLEN + size);
    const std::size_t at = m_bytes.size();
    m_bytes.resize(at + align(NLA_HDRLEN + size));
    std::memcpy(m_bytes.data() + at, &attribute, sizeof attribute);
    if (size > 0)
        std::memcpy(m_bytes.data() + at + NLA_HDRLEN, data, size);
}

void Message::putString(std::uint16_t type, std::string_view text)
{
    std::string terminated(text);
    put(type, terminated.c_str(), terminated.size() + 1);
}

void Message::putBe32(std::uint16_t type, std::uint32_t value)
{
    const std::uint32_t be = htonl(value);
    put(type, &be, sizeof be);
}

void Message::putBe16(std::uint16_t type, std::uint16_t value)
{
    const std::uint16_t be = htons(value);
    put(type, &be, sizeof be);
}

void Message::putU32(std::uint16_t type, std::uint32_t value)
{
    put(type, &value, sizeof value);
}

std::size_t Message::begin(std::uint16_t type)
{
    const std::size_t at = m_bytes.size();
    nlattr attribute{};
    attribute.nla_type = std::uint16_t(type | NLA_F_NESTED);
    m_bytes.resize(at + NLA_HDRLEN);
    std::memcpy(m_bytes.data() + at, &attribute, sizeof attribute);
    return at;
}

void Message::end(std::size_t nest)
{
    nlattr attribute{};
    std::memcpy(&attribute, m_bytes.data() + nest, sizeof attribute);
    attribute.nla_len = std::uint16_t(m_bytes.size() - nest);
    std::memcpy(m_bytes.data() + nest, &attribute, sizeof attribute);
}

std::string Message::finish(std::uint32_t sequence)
{
    nlmsghdr header{};
    std::memcpy(&header, m_bytes.data(), sizeof header);
    header.nlmsg_len = std::uint32_t(m_bytes.size());
    header.nlmsg_seq = sequence;
    std::memcpy(m_bytes.data(), &header, sizeof header);
    return std::string(m_bytes.data(), m_bytes.size());
}

Socket::Socket(int protocol) : m_fd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol))
{
    if (m_fd < 0)
        return;
    // The kernel answers at once; a second is a kernel that will not answer at all.
    const timeval wait{1, 0};
    setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    sockaddr_nl self{};
    self.nl_family = AF_NETLINK;
    if (bind(m_fd, reinterpret_cast<sockaddr *>(&self), sizeof self) != 0) {
        close(m_fd);
        m_fd = -1;
    }
}

Socket::~Socket()
{
    if (m_fd >= 0)
        close(m_fd);
}

bool Socket::transact(const std::string &messages, int acks, std::string *error)
{
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (sendto(m_fd, messages.data(), messages.size(), 0, reinterpret_cast<sockaddr *>(&kernel), sizeof kernel) !=
        ssize_t(messages.size())) {
        *error = std::string("netlink: ") + std::strerror(errno);
        return false;
    }
    alignas(nlmsghdr) char buffer[8192];
    while (acks > 0) {
        const ssize_t n = recv(m_fd, buffer, sizeof buffer, 0);
        if (n <= 0) {
            *error = std::string("netlink: no answer: ") + std::strerror(n < 0 ? errno : EPROTO);
            return false;
        }
        int left = int(n);
        for (auto *header = reinterpret_cast<nlmsghdr *>(buffer); NLMSG_OK(header, unsigned(left));
             header = NLMSG_NEXT(header, left)) {
            if (header->nlmsg_type != NLMSG_ERROR)
                continue;
            const auto *answer = static_cast<const nlmsgerr *>(NLMSG_DATA(header));
            if (answer->error != 0) {
                *error = std::string("netlink: ") + std::strerror(-answer->error);
                return false;
            }
            --acks;
        }
    }
    return true;
}

bool Socket::query(const std::string &request, std::string *answer)
{
    // Whatever an earlier question left unread (an answer that came late) is not this one's.
    char stale[8192];
    while (recv(m_fd, stale, sizeof stale, MSG_DONTWAIT) > 0) {
    }
    nlmsghdr header{};
    std::memcpy(&header, request.data(), sizeof header);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (sendto(m_fd, request.data(), request.size(), 0, reinterpret_cast<sockaddr *>(&kernel), sizeof kernel) !=
        ssize_t(request.size()))
        return false;
    for (;;) {
        answer->resize(8192);
        const ssize_t n = recv(m_fd, answer->data(), answer->size(), 0);
        if (n <= 0)
            return false;
        answer->resize(std::size_t(n));
        nlmsghdr first{};
        if (answer->size() < sizeof first)
            return false;
        std::memcpy(&first, answer->data(), sizeof first);
        if (first.nlmsg_seq == header.nlmsg_seq)
            return first.nlmsg_type != NLMSG_ERROR;
    }
}

std::vector<std::pair<std::uint16_t, std::string_view>> attributes(std::string_view bytes)
{
    std::vector<std::pair<std::uint16_t, std::string_view>> found;
    while (bytes.size() >= NLA_HDRLEN) {
        nlattr attribute{};
        std::memcpy(&attribute, bytes.data(), sizeof attribute);
        if (attribute.nla_len < NLA_HDRLEN || attribute.nla_len > bytes.size())
            break;
        found.emplace_back(std::uint16_t(attribute.nla_type & NLA_TYPE_MASK),
                           bytes.substr(NLA_HDRLEN, attribute.nla_len - NLA_HDRLEN));
        bytes.remove_prefix(std::min(bytes.size(), align(attribute.nla_len)));
    }
    return found;
}

} // namespace paddock::init::netlink
