// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/PublicSuffixList.h"

#include <QFile>
#include <QLoggingCategory>
#include <QStringList>
#include <QUrl>

#include <algorithm>

Q_LOGGING_CATEGORY(lcPublicSuffix, "paddock.policy.publicsuffix")

namespace paddock::policy {

const PublicSuffixList &PublicSuffixList::system()
{
    static const PublicSuffixList list([] {
        const QString fromEnvironment = qEnvironmentVariable("PADDOCK_PUBLIC_SUFFIX_LIST");
        return fromEnvironment.isEmpty() ? QStringLiteral("/usr/share/publicsuffix/public_suffix_list.dat")
                                         : fromEnvironment;
    }());
    return list;
}

PublicSuffixList::PublicSuffixList(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qCWarning(lcPublicSuffix).noquote()
            << "the public suffix list" << path << "cannot be read; only top-level domains count as public suffixes";
        return;
    }
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1String("//")))
            continue;
        QString rule = line.section(QLatin1Char(' '), 0, 0);
        QSet<QString> *into = &m_exact;
        if (rule.startsWith(QLatin1Char('!'))) {
            into = &m_exceptions;
            rule = rule.mid(1);
        } else if (rule.startsWith(QLatin1String("*."))) {
            into = &m_wildcards;
            rule = rule.mid(2);
        }
        const QString ascii = QString::fromLatin1(QUrl::toAce(rule)).toLower();
        if (!ascii.isEmpty())
            into->insert(ascii);
    }
    m_loaded = true;
}

bool PublicSuffixList::isPublicSuffix(const QString &domain) const
{
    if (domain.isEmpty())
        return true;
    // A single label is a top-level domain: the list's implicit `*` rule.
    if (!domain.contains(QLatin1Char('.')))
        return true;
    if (m_exceptions.contains(domain))
        return false;
    if (m_exact.contains(domain))
        return true;
    return m_wildcards.contains(domain.section(QLatin1Char('.'), 1));
}

QString PublicSuffixList::registrableDomain(const QString &host) const
{
    const QStringList labels = host.toLower().split(QLatin1Char('.'), Qt::SkipEmptyParts);
    const qsizetype n = labels.size();
    qsizetype suffixLabels = 1; // the implicit rule `*`
    bool exception = false;
    for (qsizetype k = 1; k <= n && !exception; ++k) {
        const QString suffix = labels.mid(n - k).join(QLatin1Char('.'));
        if (m_exceptions.contains(suffix)) {
            suffixLabels = k - 1;
            exception = true;
        } else if (m_exact.contains(suffix) ||
                   (k >= 2 && m_wildcards.contains(labels.mid(n - k + 1).join(QLatin1Char('.'))))) {
            suffixLabels = std::max(suffixLabels, k);
        }
    }
    if (suffixLabels + 1 > n)
        return {};
    return labels.mid(n - suffixLabels - 1).join(QLatin1Char('.'));
}

} // namespace paddock::policy
