// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace paddock::runtime::docker {

/** @brief Why a Docker operation failed, as one sentence a person can act on. */
struct Error
{
    enum class Kind {
        Unreachable, ///< nothing answered at the endpoint
        Engine,      ///< the engine refused the request (its own message)
        NotFound,    ///< HTTP 404: no such image, container or exec
        Conflict,    ///< HTTP 409: name in use, container not running, ...
        Cancelled,   ///< the caller's cancel flag stopped the operation
        Unsupported, ///< endpoint form or API version Paddock cannot use
        Local,       ///< a local file could not be read or written
        Protocol,    ///< the engine answered something unexpected
    };
    Kind kind = Kind::Engine;
    int httpStatus = 0;
    QString message;
};

/** @brief A value or an Error; every DockerClient operation returns one. */
template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const T &value() const { return *m_value; }
    T &value() { return *m_value; }
    const Error &error() const { return *m_error; }
    QString errorMessage() const { return m_error ? m_error->message : QString(); }
    bool is(Error::Kind kind) const { return m_error && m_error->kind == kind; }

private:
    std::optional<T> m_value;
    std::optional<Error> m_error;
};

/** @brief Success or an Error, for operations that return nothing. */
template<>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }
    QString errorMessage() const { return m_error ? m_error->message : QString(); }
    bool is(Error::Kind kind) const { return m_error && m_error->kind == kind; }

private:
    std::optional<Error> m_error;
};

using Status = Result<void>;

} // namespace paddock::runtime::docker
