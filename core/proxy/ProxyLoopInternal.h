// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the files of ProxyLoop share (ProxyLoop.cpp, ProxyLoopEndpoints.cpp, ProxyLoopClient.cpp, ProxyLoopHttp.cpp,
// ProxyLoopSocks.cpp, ProxyLoopUpstream.cpp, ProxyLoopTunnel.cpp); nothing else includes it.

#include "proxy/ProxyLoop.h"

#include <QLoggingCategory>

#include <chrono>
#include <cstddef>
#include <string>

Q_DECLARE_LOGGING_CATEGORY(lcProxy)

namespace paddock::proxy::loop {

using Phase = Connection::Phase;
using Kind = ProxyEvent::Kind;

// epoll data: an id and what it names, in the two low bits.
enum Tag : quint64 {
    ClientTag = 0,
    UpstreamTag = 1,
    ListenerTag = 2,
    WakeTag = 3
};
inline quint64 tag(quint64 id, Tag kind)
{
    return id << 2 | kind;
}

// After a last answer, what the client still sends is read and dropped for a moment, so the
// close does not turn into a reset that destroys the answer before the client reads it.
inline constexpr std::chrono::milliseconds DrainTime{2000};
inline constexpr std::size_t DrainLimit = 1024 * 1024;
inline constexpr std::size_t ReadChunk = 16 * 1024;
// How long a refused captured client may take to say what it speaks (ssh, psql and curl do at
// once); one that says nothing by then is answered by its port, or reset.
inline constexpr std::chrono::milliseconds RefusalPeekTime{100};

inline QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace paddock::proxy::loop
