// SPDX-License-Identifier: GPL-3.0-or-later
#include "LocalUpstream.h"

#include <QFile>
#include <QRegularExpression>

namespace paddock::test {

LocalUpstream::~LocalUpstream()
{
    m_process.kill();
    m_process.waitForFinished();
}

bool LocalUpstream::start(const QString &directory)
{
    if (directory.isEmpty()) {
        QFile file(m_root.filePath(QStringLiteral("hello.txt")));
        if (!m_root.isValid() || !file.open(QIODevice::WriteOnly) || file.write(kBody) < 0)
            return false;
    }
    m_process.setWorkingDirectory(directory.isEmpty() ? m_root.path() : directory);
    m_process.start(QStringLiteral("python3"),
                    {QStringLiteral("-u"), QStringLiteral("-m"), QStringLiteral("http.server"),
                     QStringLiteral("--bind"), QStringLiteral("127.0.0.1"), QStringLiteral("0")});
    // "Serving HTTP on 127.0.0.1 port 43215 (http://127.0.0.1:43215/) ..."
    static const QRegularExpression serving(QStringLiteral("port (\\d+)"));
    QByteArray seen;
    while (m_process.waitForReadyRead(20000)) {
        seen += m_process.readAllStandardOutput();
        const QRegularExpressionMatch match = serving.match(QString::fromUtf8(seen));
        if (match.hasMatch()) {
            m_port = match.captured(1).toUShort();
            return true;
        }
    }
    return false;
}

} // namespace paddock::test
