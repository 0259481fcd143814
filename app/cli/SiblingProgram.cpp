// SPDX-License-Identifier: GPL-3.0-or-later
#include "SiblingProgram.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

namespace paddock::cli {

void execSibling(const QString &program, const QStringList &arguments, QString *error)
{
    const QString self = QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath();
    const QString path = QFileInfo(self).absolutePath() + QLatin1Char('/') + program;
    std::vector<std::string> words{QFile::encodeName(path).toStdString()};
    for (const QString &argument : arguments)
        words.push_back(QFile::encodeName(argument).toStdString());
    std::vector<char *> argv;
    for (std::string &word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    ::execv(argv.front(), argv.data());
    *error = QStringLiteral("paddock: cannot start %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
}

} // namespace paddock::cli
