// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFile>
#include <QLoggingCategory>
#include <QString>

#include <optional>
#include <variant>

namespace paddock {

/** @brief Why a settings file could not be used: where, and what was expected. */
struct FileError
{
    QString file;
    int line = 0;   ///< 1-based; 0 when the problem has no position (the file cannot be read)
    int column = 0; ///< 1-based; 0 when unknown
    QString message;

    /** A position counted from 0, as parsers give it (-1: none), made 1-based. */
    static FileError atZeroBased(const QString &file, int line, int column, const QString &message);
    /** "FILE:LINE:COLUMN: error: MESSAGE", the shape compilers use. */
    QString toString() const;
};

/**
 * Reads the file @p path with @p parse (text, path → std::variant<Value, FileError>) into
 * @p value: a missing file gives an empty Value, an unreadable or invalid one a FileError
 * (the latter also logged to @p category) and leaves @p value as it was.
 */
template<typename Value, typename Parse>
std::optional<FileError> loadFile(const QString &path, Value *value, Parse &&parse, const QLoggingCategory &category)
{
    QFile file(path);
    if (!file.exists()) {
        *value = Value();
        return std::nullopt;
    }
    if (!file.open(QIODevice::ReadOnly))
        return FileError{path, 0, 0, QStringLiteral("cannot read the file: %1").arg(file.errorString())};
    auto parsed = parse(file.readAll(), path);
    if (auto *error = std::get_if<FileError>(&parsed)) {
        qCWarning(category).noquote() << error->toString();
        return *error;
    }
    *value = std::get<Value>(std::move(parsed));
    return std::nullopt;
}

} // namespace paddock
