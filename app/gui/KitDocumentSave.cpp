// SPDX-License-Identifier: GPL-3.0-or-later
// KitDocument: what changed since the kit was opened, and saving it.
#include "KitDocument.h"

#include "common/AtomicFile.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace paddock::gui {

QList<KitTextChange> KitDocument::changes() const
{
    // A longest-common-subsequence diff of lines: spec.yaml files are a few hundred lines.
    const QList<QByteArray> a = m_original.split('\n');
    const QList<QByteArray> b = m_text.split('\n');
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    QList<QList<int>> lcs(n + 1, QList<int>(m + 1, 0));
    for (qsizetype i = n - 1; i >= 0; --i)
        for (qsizetype j = m - 1; j >= 0; --j)
            lcs[i][j] = a.at(i) == b.at(j) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    QList<KitTextChange> result;
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a.at(i) == b.at(j)) {
            ++i;
            ++j;
        } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
            // A changed line reads as its old version, then its new one.
            result << KitTextChange{KitTextChange::Kind::Removed, int(i + 1), QString::fromUtf8(a.at(i))};
            ++i;
        } else {
            result << KitTextChange{KitTextChange::Kind::Added, int(j + 1), QString::fromUtf8(b.at(j))};
            ++j;
        }
    }
    return result;
}

bool KitDocument::save(QString *error)
{
    QString ignored;
    QString &message = error ? *error : ignored;
    if (!isModified())
        return true;
    if (m_filePath.isEmpty()) {
        message = QStringLiteral("the kit has no file to save to");
        return false;
    }
    if (errorCount() > 0) {
        for (const KitFieldDiagnostic &d : m_diagnostics) {
            if (d.diagnostic.isError() && m_v3) {
                message = QStringLiteral("not saved, the descriptor would not decode: %1").arg(d.diagnostic.toString());
                break;
            }
            if (d.diagnostic.isError()) {
                message = QStringLiteral("the kit has errors (line %1: %2); fix them before saving")
                              .arg(d.diagnostic.line)
                              .arg(d.diagnostic.message);
                break;
            }
        }
        return false;
    }
    // Someone else's edit since it was opened must not be overwritten silently.
    QFile current(m_filePath);
    if (!current.open(QIODevice::ReadOnly) || current.readAll() != m_original) {
        message = QStringLiteral("%1 changed on disk since it was opened, so it was not saved; reload it and redo "
                                 "the change")
                      .arg(m_filePath);
        return false;
    }
    current.close();
    const QString target = QFileInfo(m_filePath).canonicalFilePath();
    if (!writeFileAtomically(target.isEmpty() ? m_filePath : target, m_text, &message))
        return false;
    m_original = m_text;
    return true;
}

} // namespace paddock::gui
