// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/Result.h"
#include "proxy/SecretGuard.h"

#include <QByteArray>
#include <QString>

#include <openssl/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace paddock::proxy {

/**
 * @brief One credential the proxy adds to requests for a domain.
 *
 * The secret is fetched for each request that needs it and goes into @ref header only. The
 * intercepted connection keeps the forms that went upstream, to mask them in whatever comes
 * back, and wipes them when it ends; the secret appears in no log and no event (only
 * @ref domain and @ref header do).
 */
struct InjectRule
{
    QString domain;                                     ///< lower case; "*.example.com" matches its subdomains
    QString header;                                     ///< e.g. "Authorization": the only header the key goes into
    QString format = QStringLiteral("%s");              ///< the header value, with exactly one %s for the secret
    std::function<QByteArray()> secret;                 ///< empty result: the credential is unavailable (503)
    QString sentinel = QStringLiteral("proxy-managed"); ///< what the sandbox holds, and sees instead of the key
    QString credential; ///< whose key it is (a kit's credential service): rules of another are not alike
    /**
     * A custom secret: not empty, the sandbox sends this placeholder and the proxy replaces it
     * with the secret in @ref header (or in every header with @ref anywhere, and in text, JSON
     * and form bodies with @ref body) of requests to @ref domain; no header is set.
     */
    std::string placeholder;
    bool anywhere = false;
    bool body = false;
};

/** @brief A server certificate the proxy presents to the sandbox for one host, with its key. */
struct TlsLeaf
{
    std::shared_ptr<X509> certificate;
    std::shared_ptr<EVP_PKEY> key;
};

/**
 * @brief What an endpoint needs to terminate TLS for its inject domains.
 *
 * Given by whoever binds credentials to a sandbox; the proxy does not know where the
 * certificates or the secrets come from.
 */
struct InterceptionConfig
{
    /** A certificate for @p host signed by an authority the sandbox trusts. Called per connection. */
    std::function<Result<TlsLeaf>(const QString &host)> leafFor;
    /** PEM bundle upstream servers are verified against (system roots + trusted authorities). */
    QString upstreamCaBundlePath;
    std::vector<InjectRule> rules;
    /** The secret-egress guard on what the sandbox sends; null: none. */
    std::shared_ptr<const guard::GuardConfig> guard;
};

} // namespace paddock::proxy
