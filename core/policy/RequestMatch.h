// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include "common/RequestTarget.h"
#include "common/Result.h"

#include <optional>
#include <string_view>

namespace paddock::policy {

/// @brief The part of a rule that looks inside HTTP requests: which methods, which paths.
///
/// Empty (the usual case) means the rule is about the host alone. A rule with a method or a
/// path is decided per request, and only where Paddock sees the requests: plain HTTP, and
/// HTTPS to hosts whose TLS it terminates (a bound credential). For a tunnel it does not
/// terminate the host part still applies and the rest cannot be enforced, so such a
/// connection is refused rather than let through unchecked (Decision::Basis::RequestsUnseen).
///
/// Paths: a path without `*` is a prefix that ends at a segment (`/gists` covers `/gists` and
/// `/gists/1`, not `/gistsx`); with `*` it is a glob where `*` stays within one segment and
/// `**` crosses segments (`/org/**`). Requests are compared by canonicalPath(): query cut
/// off, escaped letters and digits decoded, `.` and `..` segments resolved.
struct RequestMatch
{
    static constexpr int kMaxPathLength = 512;

    QStringList methods; ///< upper case HTTP tokens; empty: any method
    QString path;        ///< starts with '/'; empty: any path

    bool isEmpty() const { return methods.isEmpty() && path.isEmpty(); }
    /// "POST /gists", "GET,HEAD /org/**", "POST", "/docs": how rules show it.
    QString toString() const;
    /// Whether a request with @p method and @p path (as canonicalPath() gives it) is covered.
    bool matches(QStringView method, QStringView path) const;

    /// Reads a `--method` value (one method or a comma list; `*` or empty for any) and a
    /// `--path` value, or what is wrong with them.
    static Result<RequestMatch> parse(QStringView methods, QStringView path);

    friend bool operator==(const RequestMatch &, const RequestMatch &) = default;
};

} // namespace paddock::policy
