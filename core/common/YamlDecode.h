// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// For the libraries that link yaml-cpp: strict decoding of a YAML settings file, each
// problem reported with its line and column.

#include "common/FileError.h"

#include <QByteArray>

#include <yaml-cpp/yaml.h>

#include <type_traits>
#include <utility>
#include <variant>

namespace paddock::yaml {

/** Thrown by a decoder at the node it refuses; keeps each check one line. */
struct DecodeError
{
    YAML::Mark mark;
    QString message;
};

/** @p message at @p mark of @p file (yaml-cpp counts from 0 and uses -1 for no position). */
inline FileError errorAt(const QString &file, const YAML::Mark &mark, const QString &message)
{
    return FileError::atZeroBased(file, mark.line, mark.column, message);
}

/**
 * Loads @p text and gives its root to @p decode (YAML::Node → Value); a syntax error or a
 * DecodeError that @p decode throws becomes a FileError in @p file.
 */
template<typename Decode>
std::variant<std::invoke_result_t<Decode, const YAML::Node &>, FileError>
decodeText(const QByteArray &text, const QString &file, Decode &&decode)
{
    try {
        return std::forward<Decode>(decode)(YAML::Load(text.toStdString()));
    } catch (const DecodeError &error) {
        return errorAt(file, error.mark, error.message);
    } catch (const YAML::Exception &error) {
        return errorAt(file, error.mark, QString::fromStdString(error.msg));
    }
}

} // namespace paddock::yaml
