// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "NameTable.h"

#include <string>
#include <string_view>

namespace paddock::init::dns {

/** @brief What the resolver did with one query, for the caller's report. */
enum class Outcome {
    Answered,   ///< an address of the name's own (or loopback for localhost), or no data for the type
    NoSuchName, ///< not a host name (a label outside letters, digits, '-' and '_'): NXDOMAIN
    Full,       ///< the table of names is full of recent ones: SERVFAIL
    Uncaptured, ///< a host name, where connections cannot be captured (no table): REFUSED
    Malformed,  ///< not a query this resolver reads: FORMERR, or nothing when it is not DNS at all
};

/** @brief A query's question and what became of it. */
struct Result
{
    std::string response; ///< empty: nothing to send back
    std::string name;     ///< the name asked for, lower case, without the trailing dot
    Outcome outcome = Outcome::Malformed;
};

/**
 * Answers the DNS query @p query (one question, class IN): A and AAAA with the name's address
 * from @p table (AAAA only when @p ipv6), `localhost` and names under it with loopback, any
 * other type with no data. Everything is answered here: no query leaves the sandbox. Without
 * a table (the sandbox's connections cannot be captured) a host name is refused (REFUSED), so
 * that the caller can report what was looked up.
 */
Result answer(std::string_view query, NameTable *table, bool ipv6);

} // namespace paddock::init::dns
