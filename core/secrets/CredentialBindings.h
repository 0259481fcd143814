// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/FileError.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace paddock::secrets {

/** @brief The user's approval for the secret of one service to be sent to these domains. */
struct Binding
{
    QString service;
    QStringList domains; ///< normalised: lower case, no trailing dot; "*.example.com" allowed
};

/** @brief Why credentials.yaml could not be used, with the position of the problem. */
using BindingsError = FileError;

/** @brief Whether a kit's credential may be used as the kit asks, and if not, what is new. */
struct Coverage
{
    bool covered = false;
    bool bound = false;     ///< the service has a binding at all
    QStringList newDomains; ///< requested but not approved, in the kit's order

    /** Empty when covered; otherwise one sentence naming the service and the new domains. */
    QString explanation(const QString &service) const;
};

/**
 * @brief `credentials.yaml`: which service's secret may be injected on which domains.
 *
 * The file has the shape `sbx` uses, so one written by either tool is read by the other:
 * @code
 * bindings:
 *   anthropic:
 *     apiKey:
 *       domains: [api.anthropic.com]
 * @endcode
 * Fields Paddock does not know (at any level) are kept when the file is rewritten;
 * comments are not (yaml-cpp does not carry them). Every change reads the file afresh
 * first, so a hand edit is never lost, and is written atomically. A broken file is
 * reported with its line and column and refuses changes until it is fixed.
 *
 * An approved "*.example.com" covers every name below example.com, not example.com itself.
 */
class CredentialBindings
{
public:
    /** Uses `paths::configDir()/credentials.yaml`. */
    CredentialBindings();
    explicit CredentialBindings(const QString &path);
    static QString defaultPath();
    QString path() const { return m_path; }

    /** Reads the file; a missing file has no bindings. */
    std::optional<BindingsError> load();
    /** The bindings as last loaded or changed, sorted by service. */
    QList<Binding> bindings() const { return m_bindings; }
    std::optional<Binding> binding(const QString &service) const;

    /** Whether the secret of @p service may be sent to every one of @p domains. */
    Coverage coverage(const QString &service, const QStringList &domains) const;

    /** Adds @p domains to the binding of @p service (creating it). */
    bool approve(const QString &service, const QStringList &domains, QString *error = nullptr);
    /** Removes the binding of @p service; false with @p error when there is none. */
    bool revoke(const QString &service, QString *error = nullptr);

    /** Decodes credentials.yaml text; @p file is used in errors. */
    static std::variant<QList<Binding>, BindingsError> parse(const QByteArray &text, const QString &file);
    /** Lower case, surrounding space and a trailing dot removed. */
    static QString normaliseDomain(const QString &domain);

private:
    bool change(const QString &service, const QStringList &add, bool removeService, QString *error);

    QString m_path;
    QList<Binding> m_bindings;
};

} // namespace paddock::secrets
