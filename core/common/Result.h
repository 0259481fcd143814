// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace paddock {

/**
 * @brief What went wrong, in one sentence a person can read, and what to do about it when
 * Paddock knows.
 *
 * `message` never ends in a full stop and never holds a secret; `fix` is a separate sentence
 * ("run paddock policy allow …") so a caller can show it on its own line or drop it.
 */
struct Error
{
    QString message;
    QString fix;

    /** The message, then the fix after "; " when there is one. */
    QString text() const { return fix.isEmpty() ? message : message + QStringLiteral("; ") + fix; }
};

/** Makes an Error: `return fail(tr("…"), tr("…"));` reads as what it does. */
inline Error fail(QString message, QString fix = {})
{
    return Error{std::move(message), std::move(fix)};
}

/**
 * @brief A value, or the Error that stopped it: the one way core reports a failure to its
 * caller (see the README's contributor section).
 *
 * Construct from a T for success and from an Error (usually `fail(…)`) for failure. Reading
 * value() of a failure, or error() of a success, is a programming error (asserted).
 */
template<typename T>
class [[nodiscard]] Result
{
    static_assert(!std::is_same_v<T, Error>, "a Result holds a value or an Error, not an Error as its value");

public:
    Result(T value) : m_state(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_state(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const &
    {
        Q_ASSERT(ok());
        return std::get<0>(m_state);
    }
    T &value() &
    {
        Q_ASSERT(ok());
        return std::get<0>(m_state);
    }
    T &&value() &&
    {
        Q_ASSERT(ok());
        return std::get<0>(std::move(m_state));
    }
    const T &operator*() const & { return value(); }
    T &&operator*() && { return std::move(*this).value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    /** The value, or @p fallback on failure. */
    T valueOr(T fallback) const & { return ok() ? value() : std::move(fallback); }
    /** The value as an optional: for callers that only ask whether there is one. */
    std::optional<T> toOptional() const & { return ok() ? std::optional<T>(value()) : std::nullopt; }

    const Error &error() const
    {
        Q_ASSERT(!ok());
        return std::get<1>(m_state);
    }
    /** error().text(), or an empty string on success: for messages written either way. */
    QString errorText() const { return ok() ? QString() : error().text(); }

private:
    std::variant<T, Error> m_state;
};

/** @brief Success with nothing to return (`return {};`), or the Error that stopped it. */
template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }

    const Error &error() const
    {
        Q_ASSERT(!ok());
        return *m_error;
    }
    /** error().text(), or an empty string on success. */
    QString errorText() const { return ok() ? QString() : error().text(); }

private:
    std::optional<Error> m_error;
};

} // namespace paddock
