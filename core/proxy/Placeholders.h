// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "proxy/HttpParser.h"
#include "proxy/InterceptionConfig.h"

#include <QStringList>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * Custom secrets on the decrypted request stream: a placeholder the sandbox sends is replaced by
 * the secret in the headers a rule names, and in bodies that are text, JSON or a form. Pure (no
 * sockets), like the rest of the request side.
 */
namespace paddock::proxy::inject {

struct RequestNote;

/** The event's sentence for a request that went upstream: what was set or replaced in it. */
QString requestReason(const RequestNote &note);

/** @brief One placeholder and the value it stands for, for one request; wiped when done. */
struct Replacement
{
    std::string placeholder;
    std::string value;
    bool body = false;
};

/** Wipes the values of @p replacements. */
void wipe(std::vector<Replacement> &replacements);

/** Whether @p head's Content-Type is text, JSON or a form (application/x-www-form-urlencoded). */
bool replaceableBody(const http::RequestHead &head);

/**
 * Replaces the placeholders of @p rules (parallel to @p replacements) in @p head, a complete
 * request head as it goes upstream, in the header each rule names or in every header with
 * anywhere; never in the request line. The names of the rules whose placeholder was replaced go
 * to @p replaced.
 */
void replaceInHead(std::string &head, const std::vector<const InjectRule *> &rules,
                   const std::vector<Replacement> &replacements, QStringList &replaced);

/** The credentials of the placeholder rules in @p rules that @p head carries although not for @p host. */
QStringList placeholdersElsewhere(std::string_view head, const std::vector<InjectRule> &rules, std::string_view host);

/**
 * @brief A request body in which placeholders are replaced.
 *
 * The head and the body's data are held up to a bound, then sent with the new Content-Length
 * (a chunked body is sent as one chunk). A larger body streams from the bound on, re-sent
 * chunked (the head's Content-Length replaced by Transfer-Encoding: chunked, trailers dropped);
 * the last bytes a placeholder may start in are held back between pieces.
 */
class PlaceholderBody
{
public:
    PlaceholderBody() = default;
    ~PlaceholderBody();
    PlaceholderBody(const PlaceholderBody &) = delete;
    PlaceholderBody &operator=(const PlaceholderBody &) = delete;

    void begin(std::string head, std::vector<Replacement> replacements, std::size_t holdBytes);
    bool active() const { return m_active; }
    /** Body data (a chunk's data, or Content-Length bytes). */
    void data(std::string_view bytes, std::string &out);
    /** The message ended: what is held goes to @p out. */
    void end(std::string &out);

private:
    /** Replaces in m_pending and moves what is final to @p done, keeping a possible start. */
    void replace(std::string &done, bool final);
    void reset();

    bool m_active = false;
    bool m_streaming = false;
    std::size_t m_holdBytes = 0;
    std::string m_head;
    std::string m_pending;
    std::string m_done;
    std::vector<Replacement> m_replacements;
};

} // namespace paddock::proxy::inject
