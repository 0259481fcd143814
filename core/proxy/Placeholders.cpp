// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/Placeholders.h"

#include "proxy/GuardedBody.h"
#include "proxy/InjectStream.h"

#include <algorithm>
#include <cstdio>

namespace paddock::proxy::inject {
namespace {

using http::equalsIgnoreCase;

bool startsWithIgnoreCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() && equalsIgnoreCase(text.substr(0, prefix.size()), prefix);
}

/** Replaces every @p from in @p text from @p at on with @p to; whether one was. */
bool replaceAll(std::string &text, std::size_t at, const std::string &from, const std::string &to)
{
    bool any = false;
    while (!from.empty() && (at = text.find(from, at)) != std::string::npos) {
        text.replace(at, from.size(), to);
        at += to.size();
        any = true;
    }
    return any;
}

void appendChunk(std::string_view data, std::string &out)
{
    if (data.empty())
        return;
    char size[24];
    const int length = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    out.append(size, std::size_t(length)).append(data).append("\r\n");
}

} // namespace

QString requestReason(const RequestNote &note)
{
    const QString method = QString::fromStdString(note.method);
    const QString host = QString::fromStdString(note.host.empty() ? std::string("no host") : note.host);
    if (!note.placeholdersReplaced.isEmpty())
        return QStringLiteral("%1 request: placeholder of %2 replaced for %3")
            .arg(method, note.placeholdersReplaced.join(QStringLiteral(", ")), host);
    if (!note.injectedHeaders.isEmpty())
        return QStringLiteral("%1 request: %2 set from the credential for %3")
            .arg(method, note.injectedHeaders.join(QStringLiteral(", ")), note.ruleDomain);
    return QStringLiteral("%1 request for %2 forwarded without a credential").arg(method, host);
}

void wipe(std::vector<Replacement> &replacements)
{
    for (Replacement &replacement : replacements)
        wipe(replacement.value);
    replacements.clear();
}

bool replaceableBody(const http::RequestHead &head)
{
    for (const http::Header &header : head.headers) {
        if (!equalsIgnoreCase(header.name, "content-type"))
            continue;
        const std::string_view type = std::string_view(header.value).substr(0, header.value.find(';'));
        const std::string_view subtype = type.substr(std::min(type.size(), type.find('/') + 1));
        return startsWithIgnoreCase(type, "text/") || equalsIgnoreCase(type, "application/json") ||
               equalsIgnoreCase(type, "application/x-www-form-urlencoded") ||
               (subtype.size() > 5 && equalsIgnoreCase(subtype.substr(subtype.size() - 5), "+json"));
    }
    return false;
}

void replaceInHead(std::string &head, const std::vector<const InjectRule *> &rules,
                   const std::vector<Replacement> &replacements, QStringList &replaced)
{
    std::string out;
    std::size_t at = head.find("\r\n") + 2; // the request line stays as sent
    out.append(head, 0, at);
    while (at < head.size()) {
        const std::size_t eol = head.find("\r\n", at);
        std::string line = head.substr(at, (eol == std::string::npos ? head.size() : eol) - at);
        at = eol == std::string::npos ? head.size() : eol + 2;
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) {
            const std::string_view name = std::string_view(line).substr(0, colon);
            for (std::size_t i = 0; i < rules.size(); ++i) {
                if ((rules[i]->anywhere || equalsIgnoreCase(name, rules[i]->header.toStdString())) &&
                    replaceAll(line, colon + 1, replacements[i].placeholder, replacements[i].value) &&
                    !replaced.contains(rules[i]->credential))
                    replaced << rules[i]->credential;
            }
        }
        out.append(line).append("\r\n");
        wipe(line);
    }
    wipe(head);
    head = std::move(out);
}

QStringList placeholdersElsewhere(std::string_view head, const std::vector<InjectRule> &rules, std::string_view host)
{
    QStringList found;
    for (const InjectRule &rule : rules) {
        if (rule.placeholder.empty() || found.contains(rule.credential) ||
            head.find(rule.placeholder) == std::string_view::npos)
            continue;
        const bool forHost = std::any_of(rules.begin(), rules.end(), [&](const InjectRule &other) {
            return other.credential == rule.credential && domainMatches(other.domain, host);
        });
        if (!forHost)
            found << rule.credential;
    }
    return found;
}

PlaceholderBody::~PlaceholderBody()
{
    reset();
}

void PlaceholderBody::reset()
{
    wipe(m_head);
    wipe(m_pending);
    wipe(m_done);
    wipe(m_replacements);
    m_active = m_streaming = false;
}

void PlaceholderBody::begin(std::string head, std::vector<Replacement> replacements, std::size_t holdBytes)
{
    reset();
    m_head = std::move(head);
    m_replacements = std::move(replacements);
    m_holdBytes = holdBytes;
    m_active = true;
}

void PlaceholderBody::replace(std::string &done, bool final)
{
    std::size_t longest = 0;
    for (const Replacement &replacement : m_replacements) {
        if (replacement.body) {
            replaceAll(m_pending, 0, replacement.placeholder, replacement.value);
            longest = std::max(longest, replacement.placeholder.size());
        }
    }
    // A placeholder may start in the last bytes and end in the next piece: those wait.
    const std::size_t keep = final || longest == 0 ? 0 : std::min(m_pending.size(), longest - 1);
    done.append(m_pending, 0, m_pending.size() - keep);
    m_pending.erase(0, m_pending.size() - keep);
}

void PlaceholderBody::data(std::string_view bytes, std::string &out)
{
    m_pending.append(bytes);
    if (!m_streaming && m_pending.size() + m_done.size() <= m_holdBytes)
        return;
    if (!m_streaming) {
        out.append(guard::reframedHead(m_head, std::nullopt));
        m_streaming = true;
    }
    replace(m_done, false);
    appendChunk(m_done, out);
    wipe(m_done);
}

void PlaceholderBody::end(std::string &out)
{
    replace(m_done, true);
    if (m_streaming) {
        appendChunk(m_done, out);
        out.append("0\r\n\r\n");
    } else {
        out.append(guard::reframedHead(m_head, m_done.size())).append(m_done);
    }
    reset();
}

} // namespace paddock::proxy::inject
