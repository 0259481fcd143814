// SPDX-License-Identifier: GPL-3.0-or-later
// A stand-in for the network (a mock, since no hostile name server or privileged port can be
// had here): the network as those would make it, for paddockd in the attack tests
// (LD_PRELOAD). Nothing here is part of Paddock: the daemon resolves and connects
// as it always does, and this library answers in its place.
//
//   PADDOCK_TEST_DNS="NAME=ADDRESS;..."   NAME resolves to ADDRESS (v4 or v6), as a name server
//                                         under an attacker's control would answer
//   PADDOCK_TEST_DNS_SLOW="SUFFIX=MS"     a name ending in SUFFIX takes MS milliseconds to fail,
//                                         as a name server that does not answer
//   PADDOCK_TEST_CONNECT="PORT=PORT2"     a connection to 127.0.0.1:PORT goes to 127.0.0.1:PORT2
//                                         (an ordinary user cannot listen on port 443)
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace {

/** The value of @p key in the `K=V;K=V` list of variable @p variable, if listed. */
bool lookUp(const char *variable, std::string_view key, std::string *value, bool suffix = false)
{
    const char *list = std::getenv(variable);
    if (!list)
        return false;
    std::string_view rest(list);
    while (!rest.empty()) {
        const size_t end = rest.find(';');
        const std::string_view entry = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        const size_t equals = entry.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string_view name = entry.substr(0, equals);
        const bool matches =
            suffix ? key.size() >= name.size() && key.substr(key.size() - name.size()) == name : key == name;
        if (matches) {
            value->assign(entry.substr(equals + 1));
            return true;
        }
    }
    return false;
}

template<typename Function>
Function real(const char *name)
{
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

} // namespace

extern "C" int getaddrinfo(const char *node, const char *service, const addrinfo *hints, addrinfo **result)
{
    using Function = int (*)(const char *, const char *, const addrinfo *, addrinfo **);
    static const Function next = real<Function>("getaddrinfo");
    std::string value;
    if (node && lookUp("PADDOCK_TEST_DNS_SLOW", node, &value, true)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(value.c_str())));
        return EAI_AGAIN;
    }
    if (node && lookUp("PADDOCK_TEST_DNS", node, &value)) {
        addrinfo numeric = hints ? *hints : addrinfo{};
        numeric.ai_flags |= AI_NUMERICHOST;
        return next(value.c_str(), service, &numeric, result);
    }
    return next(node, service, hints, result);
}

extern "C" int connect(int fd, const sockaddr *address, socklen_t length)
{
    using Function = int (*)(int, const sockaddr *, socklen_t);
    static const Function next = real<Function>("connect");
    if (address && address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
        sockaddr_in target;
        std::memcpy(&target, address, sizeof target);
        std::string value;
        if (target.sin_addr.s_addr == htonl(INADDR_LOOPBACK) &&
            lookUp("PADDOCK_TEST_CONNECT", std::to_string(ntohs(target.sin_port)), &value)) {
            target.sin_port = htons(uint16_t(std::atoi(value.c_str())));
            return next(fd, reinterpret_cast<const sockaddr *>(&target), sizeof target);
        }
    }
    return next(fd, address, length);
}
