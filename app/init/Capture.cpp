// SPDX-License-Identifier: GPL-3.0-or-later
#include "Capture.h"
#include "Netlink.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>

#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nfnetlink_log.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <unistd.h>

namespace paddock::init {
namespace {

using netlink::Message;

// The value of SO_ORIGINAL_DST (linux/netfilter_ipv4.h) and IP6T_SO_ORIGINAL_DST, whose headers
// clash with the C library's.
constexpr int kOriginalDestination = 80;
constexpr char kTable[] = "paddock";
constexpr std::uint32_t kRegister = NFT_REG_1;
// The hook priorities of connection tracking's exemptions, of NAT before routing decisions and
// of filtering (NF_IP_PRI_RAW, NF_IP_PRI_NAT_DST, NF_IP_PRI_FILTER).
constexpr std::int32_t kRawPriority = -300;
constexpr std::int32_t kNatPriority = -100;
constexpr std::int32_t kFilterPriority = 0;

/** Brings loopback up (bubblewrap and Docker do; a bare namespace has it down). */
bool loopbackUp(netlink::Socket &route, std::string *error)
{
    ifinfomsg link{};
    link.ifi_family = AF_UNSPEC;
    link.ifi_index = int(if_nametoindex("lo"));
    link.ifi_flags = IFF_UP;
    link.ifi_change = IFF_UP;
    Message message(RTM_NEWLINK, NLM_F_REQUEST | NLM_F_ACK, &link, sizeof link);
    return route.transact(message.finish(1), 1, error);
}

/**
 * `ip address add 198.18.0.0/32 dev lo` (2001:2::/128 for IPv6): the first address of the
 * resolver's range, which no name is ever given. getaddrinfo with AI_ADDRCONFIG (getent, and
 * many programs) answers only for a family the machine has an address of besides loopback.
 */
bool addressOnLoopback(netlink::Socket &route, int family, std::string *error)
{
    ifaddrmsg entry{};
    entry.ifa_family = std::uint8_t(family);
    entry.ifa_prefixlen = family == AF_INET ? 32 : 128;
    entry.ifa_flags = family == AF_INET6 ? IFA_F_NODAD : 0;
    entry.ifa_scope = RT_SCOPE_UNIVERSE;
    entry.ifa_index = if_nametoindex("lo");
    Message message(RTM_NEWADDR, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE, &entry, sizeof entry);
    if (family == AF_INET) {
        const in_addr address{htonl(0xC6120000)}; // 198.18.0.0
        message.put(IFA_LOCAL, &address, sizeof address);
        message.put(IFA_ADDRESS, &address, sizeof address);
    } else {
        in6_addr address{};
        address.s6_addr[0] = 0x20;
        address.s6_addr[1] = 0x01;
        address.s6_addr[3] = 0x02; // 2001:2::
        message.put(IFA_ADDRESS, &address, sizeof address);
    }
    return route.transact(message.finish(3), 1, error);
}

/** `ip route replace default dev lo src 127.0.0.1` (or ::1). */
bool defaultRouteThroughLoopback(netlink::Socket &route, int family, std::string *error)
{
    rtmsg entry{};
    entry.rtm_family = std::uint8_t(family);
    entry.rtm_table = RT_TABLE_MAIN;
    entry.rtm_protocol = RTPROT_BOOT;
    entry.rtm_scope = family == AF_INET ? RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
    entry.rtm_type = RTN_UNICAST;
    Message message(RTM_NEWROUTE, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE, &entry, sizeof entry);
    message.putU32(RTA_OIF, if_nametoindex("lo"));
    if (family == AF_INET) {
        const in_addr source{htonl(INADDR_LOOPBACK)};
        message.put(RTA_PREFSRC, &source, sizeof source);
    } else {
        message.put(RTA_PREFSRC, &in6addr_loopback, sizeof in6addr_loopback);
    }
    return route.transact(message.finish(2), 1, error);
}

/** An nftables message of @p type for the inet family, asking for an ack. */
Message nftMessage(std::uint16_t type, std::uint16_t flags = NLM_F_CREATE)
{
    nfgenmsg family{};
    family.nfgen_family = NFPROTO_INET;
    family.version = NFNETLINK_V0;
    return Message(std::uint16_t(NFNL_SUBSYS_NFTABLES << 8 | type), std::uint16_t(NLM_F_REQUEST | NLM_F_ACK | flags),
                   &family, sizeof family);
}

std::string batchMarker(std::uint16_t type, std::uint32_t sequence)
{
    nfgenmsg family{};
    family.nfgen_family = AF_UNSPEC;
    family.version = NFNETLINK_V0;
    family.res_id = htons(NFNL_SUBSYS_NFTABLES);
    return Message(type, NLM_F_REQUEST, &family, sizeof family).finish(sequence);
}

/** @brief The expressions of one rule, each an NFTA_LIST_ELEM of NFTA_RULE_EXPRESSIONS. */
class Rule
{
public:
    explicit Rule(const char *chain) : m_message(nftMessage(NFT_MSG_NEWRULE, NLM_F_CREATE | NLM_F_APPEND))
    {
        m_message.putString(NFTA_RULE_TABLE, kTable);
        m_message.putString(NFTA_RULE_CHAIN, chain);
        m_list = m_message.begin(NFTA_RULE_EXPRESSIONS);
    }

    Rule &meta(std::uint32_t key)
    {
        const std::size_t data = open("meta");
        m_message.putBe32(NFTA_META_KEY, key);
        m_message.putBe32(NFTA_META_DREG, kRegister);
        return close(data);
    }
    Rule &compare(std::uint32_t op, const void *value, std::size_t size)
    {
        const std::size_t data = open("cmp");
        m_message.putBe32(NFTA_CMP_SREG, kRegister);
        m_message.putBe32(NFTA_CMP_OP, op);
        const std::size_t nest = m_message.begin(NFTA_CMP_DATA);
        m_message.put(NFTA_DATA_VALUE, value, size);
        m_message.end(nest);
        return close(data);
    }
    Rule &equals(std::uint8_t value) { return compare(NFT_CMP_EQ, &value, 1); }
    Rule &payload(std::uint32_t base, std::uint32_t offset, std::uint32_t length)
    {
        const std::size_t data = open("payload");
        m_message.putBe32(NFTA_PAYLOAD_DREG, kRegister);
        m_message.putBe32(NFTA_PAYLOAD_BASE, base);
        m_message.putBe32(NFTA_PAYLOAD_OFFSET, offset);
        m_message.putBe32(NFTA_PAYLOAD_LEN, length);
        return close(data);
    }
    /** The destination is not loopback (127.0.0.0/8, or ::1); or is, with @p op NFT_CMP_EQ. */
    Rule &notLoopback(int family, std::uint32_t op = NFT_CMP_NEQ)
    {
        meta(NFT_META_NFPROTO).equals(family == AF_INET ? NFPROTO_IPV4 : NFPROTO_IPV6);
        if (family == AF_INET) {
            const std::uint8_t net = 127;
            return payload(NFT_PAYLOAD_NETWORK_HEADER, offsetof(iphdr, daddr), 1).compare(op, &net, 1);
        }
        return payload(NFT_PAYLOAD_NETWORK_HEADER, offsetof(ip6_hdr, ip6_dst), 16).compare(op, &in6addr_loopback, 16);
    }
    /** The TCP source or destination port (@p offset) is not @p port. */
    Rule &tcpPortIsNot(std::size_t offset, std::uint16_t port)
    {
        const std::uint16_t be = htons(port);
        return payload(NFT_PAYLOAD_TRANSPORT_HEADER, std::uint32_t(offset), 2).compare(NFT_CMP_NEQ, &be, sizeof be);
    }
    Rule &notrack()
    {
        const std::size_t data = open("notrack");
        return close(data);
    }
    Rule &redirectTo(std::uint16_t port)
    {
        std::size_t data = open("immediate");
        m_message.putBe32(NFTA_IMMEDIATE_DREG, kRegister);
        const std::size_t nest = m_message.begin(NFTA_IMMEDIATE_DATA);
        const std::uint16_t be = htons(port);
        m_message.put(NFTA_DATA_VALUE, &be, sizeof be);
        m_message.end(nest);
        close(data);
        data = open("redir");
        m_message.putBe32(NFTA_REDIR_REG_PROTO_MIN, kRegister);
        m_message.putBe32(NFTA_REDIR_FLAGS, NF_NAT_RANGE_PROTO_SPECIFIED);
        return close(data);
    }
    Rule &log(std::uint16_t group)
    {
        const std::size_t data = open("log");
        m_message.putBe16(NFTA_LOG_GROUP, group);
        return close(data);
    }
    Rule &reject()
    {
        const std::size_t data = open("reject");
        m_message.putBe32(NFTA_REJECT_TYPE, NFT_REJECT_ICMPX_UNREACH);
        const std::uint8_t code = NFT_REJECT_ICMPX_PORT_UNREACH;
        m_message.put(NFTA_REJECT_ICMP_CODE, &code, 1);
        return close(data);
    }

    std::string finish(std::uint32_t sequence)
    {
        m_message.end(m_list);
        return m_message.finish(sequence);
    }

private:
    std::size_t open(const char *name)
    {
        m_element = m_message.begin(NFTA_LIST_ELEM);
        m_message.putString(NFTA_EXPR_NAME, name);
        return m_message.begin(NFTA_EXPR_DATA);
    }
    Rule &close(std::size_t data)
    {
        m_message.end(data);
        m_message.end(m_element);
        return *this;
    }

    Message m_message;
    std::size_t m_list = 0;
    std::size_t m_element = 0;
};

std::string baseChain(const char *name, const char *type, std::int32_t priority, std::uint32_t sequence)
{
    Message chain = nftMessage(NFT_MSG_NEWCHAIN);
    chain.putString(NFTA_CHAIN_TABLE, kTable);
    chain.putString(NFTA_CHAIN_NAME, name);
    const std::size_t hook = chain.begin(NFTA_CHAIN_HOOK);
    chain.putBe32(NFTA_HOOK_HOOKNUM, NF_INET_LOCAL_OUT);
    chain.putBe32(NFTA_HOOK_PRIORITY, std::uint32_t(priority));
    chain.end(hook);
    chain.putBe32(NFTA_CHAIN_POLICY, NF_ACCEPT);
    chain.putString(NFTA_CHAIN_TYPE, type);
    return chain.finish(sequence);
}

/** The whole table as one batch, and how many of its messages the kernel acknowledges. */
std::string captureBatch(const CaptureSettings &settings, int *acks)
{
    std::uint32_t sequence = 1;
    std::string batch = batchMarker(NFNL_MSG_BATCH_BEGIN, sequence++);
    Message table = nftMessage(NFT_MSG_NEWTABLE);
    table.putString(NFTA_TABLE_NAME, kTable);
    batch += table.finish(sequence++);
    batch += baseChain("untracked", "filter", kRawPriority, sequence++);
    batch += baseChain("capture", "nat", kNatPriority, sequence++);
    batch += baseChain("guard", "filter", kFilterPriority, sequence++);
    *acks = 4;
    const int families[] = {AF_INET, AF_INET6};
    for (int family : families) {
        // TCP within loopback but for capture's port is not tracked: tracked, a new connection
        // may have its source port changed where it meets an old one's reply (NAT's clash
        // handling), and the relay would no longer find the client's socket by its address.
        batch += Rule("untracked")
                     .notLoopback(family, NFT_CMP_EQ)
                     .meta(NFT_META_L4PROTO)
                     .equals(IPPROTO_TCP)
                     .tcpPortIsNot(offsetof(tcphdr, th_sport), settings.capturePort)
                     .tcpPortIsNot(offsetof(tcphdr, th_dport), settings.capturePort)
                     .notrack()
                     .finish(sequence++);
        batch += Rule("capture")
                     .notLoopback(family)
                     .meta(NFT_META_L4PROTO)
                     .equals(IPPROTO_TCP)
                     .redirectTo(settings.capturePort)
                     .finish(sequence++);
        *acks += 2;
    }
    const std::uint16_t dns = htons(53);
    batch += Rule("capture")
                 .meta(NFT_META_L4PROTO)
                 .equals(IPPROTO_UDP)
                 .payload(NFT_PAYLOAD_TRANSPORT_HEADER, offsetof(udphdr, uh_dport), 2)
                 .compare(NFT_CMP_EQ, &dns, sizeof dns)
                 .redirectTo(settings.dnsPort)
                 .finish(sequence++);
    ++*acks;
    for (int family : families) {
        // A datagram is copied to the log before it is refused; anything else is just refused.
        batch += Rule("guard")
                     .notLoopback(family)
                     .meta(NFT_META_L4PROTO)
                     .equals(IPPROTO_UDP)
                     .log(settings.logGroup)
                     .reject()
                     .finish(sequence++);
        batch += Rule("guard").notLoopback(family).reject().finish(sequence++);
        *acks += 2;
    }
    batch += batchMarker(NFNL_MSG_BATCH_END, sequence++);
    return batch;
}

} // namespace

bool hasIpv6Loopback()
{
    std::ifstream interfaces("/proc/net/if_inet6");
    std::string line;
    while (std::getline(interfaces, line)) {
        if (line.rfind("00000000000000000000000000000001", 0) == 0)
            return true;
    }
    return false;
}

bool captureConnections(const CaptureSettings &settings, std::string *error)
{
    netlink::Socket route(NETLINK_ROUTE);
    if (!route.valid()) {
        *error = std::string("cannot open a routing socket: ") + std::strerror(errno);
        return false;
    }
    std::string why;
    if (!loopbackUp(route, &why) || !addressOnLoopback(route, AF_INET, &why) ||
        !defaultRouteThroughLoopback(route, AF_INET, &why)) {
        *error = "cannot route through loopback: " + why;
        return false;
    }
    // Without IPv6 there is nothing to route or capture for it; its rules stay harmless.
    if (hasIpv6Loopback() &&
        (!addressOnLoopback(route, AF_INET6, &why) || !defaultRouteThroughLoopback(route, AF_INET6, &why))) {
        *error = "cannot route IPv6 through loopback: " + why;
        return false;
    }
    netlink::Socket filter(NETLINK_NETFILTER);
    int acks = 0;
    const std::string batch = captureBatch(settings, &acks);
    if (!filter.valid() || !filter.transact(batch, acks, &why)) {
        *error = "cannot set up nftables: " + (filter.valid() ? why : std::string(std::strerror(errno)));
        return false;
    }
    return true;
}

int openRefusedDatagrams(std::uint16_t group, std::string *error)
{
    netlink::Socket socket(NETLINK_NETFILTER);
    if (!socket.valid()) {
        *error = std::string("cannot open a netfilter socket: ") + std::strerror(errno);
        return -1;
    }
    nfgenmsg family{};
    family.nfgen_family = AF_UNSPEC;
    family.version = NFNETLINK_V0;
    family.res_id = htons(group);
    Message bind(std::uint16_t(NFNL_SUBSYS_ULOG << 8 | NFULNL_MSG_CONFIG), NLM_F_REQUEST | NLM_F_ACK, &family,
                 sizeof family);
    const nfulnl_msg_config_cmd command{NFULNL_CFG_CMD_BIND};
    bind.put(NFULA_CFG_CMD, &command, sizeof command);
    nfulnl_msg_config_mode mode{};
    mode.copy_range = htonl(64); // the IP and UDP headers are all that is read
    mode.copy_mode = NFULNL_COPY_PACKET;
    bind.put(NFULA_CFG_MODE, &mode, sizeof mode);
    if (!socket.transact(bind.finish(1), 1, error))
        return -1;
    // It waits as long as the sandbox lives, not the second a question to the kernel may take.
    const timeval forever{0, 0};
    setsockopt(socket.fd(), SOL_SOCKET, SO_RCVTIMEO, &forever, sizeof forever);
    return socket.release();
}

namespace {

/** Source and destination of the IP packet (with its UDP header) @p packet starts with. */
bool parseDatagram(std::string_view packet, RefusedDatagram *datagram)
{
    if (packet.empty())
        return false;
    const int version = std::uint8_t(packet[0]) >> 4;
    std::size_t header = 0;
    if (version == 4 && packet.size() >= sizeof(iphdr)) {
        iphdr ip{};
        std::memcpy(&ip, packet.data(), sizeof ip);
        header = std::size_t(ip.ihl) * 4;
        auto *source = reinterpret_cast<sockaddr_in *>(&datagram->source);
        auto *destination = reinterpret_cast<sockaddr_in *>(&datagram->destination);
        source->sin_family = destination->sin_family = AF_INET;
        source->sin_addr.s_addr = ip.saddr;
        destination->sin_addr.s_addr = ip.daddr;
    } else if (version == 6 && packet.size() >= sizeof(ip6_hdr)) {
        ip6_hdr ip{};
        std::memcpy(&ip, packet.data(), sizeof ip);
        header = sizeof ip;
        auto *source = reinterpret_cast<sockaddr_in6 *>(&datagram->source);
        auto *destination = reinterpret_cast<sockaddr_in6 *>(&datagram->destination);
        source->sin6_family = destination->sin6_family = AF_INET6;
        source->sin6_addr = ip.ip6_src;
        destination->sin6_addr = ip.ip6_dst;
    } else {
        return false;
    }
    udphdr udp{};
    if (packet.size() < header + sizeof udp)
        return false;
    std::memcpy(&udp, packet.data() + header, sizeof udp);
    // The port sits at the same place in sockaddr_in and sockaddr_in6.
    reinterpret_cast<sockaddr_in *>(&datagram->source)->sin_port = udp.uh_sport;
    reinterpret_cast<sockaddr_in *>(&datagram->destination)->sin_port = udp.uh_dport;
    return true;
}

} // namespace

bool readRefusedDatagram(int fd, RefusedDatagram *datagram)
{
    alignas(nlmsghdr) char buffer[4096];
    for (;;) {
        const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
        if (n < 0 && (errno == EINTR || errno == ENOBUFS))
            continue; // ENOBUFS: the kernel dropped some while we were slow; the next one is fine
        if (n <= 0)
            return false;
        int left = int(n);
        for (auto *header = reinterpret_cast<nlmsghdr *>(buffer); NLMSG_OK(header, unsigned(left));
             header = NLMSG_NEXT(header, left)) {
            if ((header->nlmsg_type & 0xff) != NFULNL_MSG_PACKET)
                continue;
            const std::string_view body(static_cast<const char *>(NLMSG_DATA(header)) + NLMSG_ALIGN(sizeof(nfgenmsg)),
                                        header->nlmsg_len - NLMSG_HDRLEN - NLMSG_ALIGN(sizeof(nfgenmsg)));
            for (const auto &[type, payload] : netlink::attributes(body)) {
                *datagram = RefusedDatagram();
                if (type == NFULA_PAYLOAD && parseDatagram(payload, datagram))
                    return true;
            }
        }
    }
}

bool originalDestination(int client, sockaddr_storage *destination)
{
    sockaddr_storage local{};
    socklen_t length = sizeof local;
    if (getsockname(client, reinterpret_cast<sockaddr *>(&local), &length) != 0)
        return false;
    *destination = sockaddr_storage();
    length = sizeof *destination;
    const int level = local.ss_family == AF_INET6 ? SOL_IPV6 : SOL_IP;
    if (getsockopt(client, level, kOriginalDestination, destination, &length) != 0)
        return false;
    // Not redirected: conntrack knows the connection as it was made, to this very listener.
    if (local.ss_family == AF_INET) {
        const auto *to = reinterpret_cast<const sockaddr_in *>(destination);
        const auto *here = reinterpret_cast<const sockaddr_in *>(&local);
        return !(to->sin_addr.s_addr == here->sin_addr.s_addr && to->sin_port == here->sin_port);
    }
    const auto *to = reinterpret_cast<const sockaddr_in6 *>(destination);
    const auto *here = reinterpret_cast<const sockaddr_in6 *>(&local);
    return !(std::memcmp(&to->sin6_addr, &here->sin6_addr, 16) == 0 && to->sin6_port == here->sin6_port);
}

} // namespace paddock::init
