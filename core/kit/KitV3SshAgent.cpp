// SPDX-License-Identifier: GPL-3.0-or-later
// ssh-agent@1's configuration rules: its phases, and what a bounded entry may sign (namespaces)
// and log in to (literal lowercase DNS names, optionally with the account).
#include "kit/ArgsSubstitution.h"
#include "kit/KitV3Decoder.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace paddock::kit::detail {

namespace {

QStringList scalars(const YAML::Node &node)
{
    QStringList values;
    if (node && node.IsScalar())
        values << QString::fromStdString(node.Scalar());
    for (std::size_t i = 0; node && node.IsSequence() && i < node.size(); ++i)
        if (node[i].IsScalar())
            values << QString::fromStdString(node[i].Scalar());
    return values;
}

bool printableWithoutSpaces(const QString &value)
{
    return !value.isEmpty() &&
           std::all_of(value.cbegin(), value.cend(), [](QChar c) { return c.unicode() > 0x20 && c.unicode() < 0x7f; });
}

/** `host` or `user@host`: a literal lowercase DNS name, no wildcard, port or address. */
bool isServer(const QString &entry)
{
    static const QRegularExpression name(
        QStringLiteral("^(?:[^@\\s:/]{1,64}@)?(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
                       "(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"));
    static const QRegularExpression address(QStringLiteral("^[0-9.]+$"));
    const QString host = entry.mid(entry.lastIndexOf(QLatin1Char('@')) + 1);
    return name.match(entry).hasMatch() && !address.match(host).hasMatch();
}

} // namespace

QStringList sshAgentPhases(const QJsonObject &config)
{
    const QJsonValue phase = config.value(QLatin1String("phase"));
    if (phase.isString())
        return {phase.toString()};
    QStringList phases;
    for (const QJsonValue &item : phase.toArray())
        phases << item.toString();
    return phases;
}

void V3Decoder::checkSshAgent(const YAML::Node &config, const QString &path)
{
    const QStringList phases = scalars(config["phase"]);
    if (phases.isEmpty())
        error(config["phase"], QStringLiteral("`%1.phase` must name install, runtime or both").arg(path));
    for (const QString &phase : phases)
        if (phase != QLatin1String("install") && phase != QLatin1String("runtime") && !opensArgReference(phase))
            error(config["phase"], QStringLiteral("`%1.phase` must be install or runtime, not %2").arg(path, phase));
    if (QSet<QString>(phases.cbegin(), phases.cend()).size() != phases.size())
        error(config["phase"], QStringLiteral("`%1.phase` names a phase twice").arg(path));
    const bool unrestricted =
        !config["unrestricted"] || QString::fromStdString(config["unrestricted"].Scalar()) != QLatin1String("false");
    const bool bounded = config["sign"] || config["authenticate"];
    if (unrestricted && bounded)
        error(config, QStringLiteral("`%1` is unrestricted (the default) and lists sign or authenticate: set "
                                     "`unrestricted: false` to bound it, or drop the lists")
                          .arg(path));
    if (!unrestricted && !bounded)
        error(config, QStringLiteral("`%1` has `unrestricted: false` and neither sign nor authenticate: name what "
                                     "the agent may sign")
                          .arg(path));
    for (const char *field : {"sign", "authenticate"}) {
        const YAML::Node list = config[field];
        if (!list)
            continue;
        const QStringList values = scalars(list);
        const QString where = path + QLatin1Char('.') + QLatin1String(field);
        if (values.isEmpty())
            error(list, QStringLiteral("`%1` is empty: drop it or name an entry").arg(where));
        if (QSet<QString>(values.cbegin(), values.cend()).size() != values.size())
            error(list, QStringLiteral("`%1` names an entry twice").arg(where));
        for (const QString &value : values) {
            if (opensArgReference(value))
                continue;
            if (qstrcmp(field, "sign") == 0 && !printableWithoutSpaces(value))
                error(list,
                      QStringLiteral("`%1`: %2 is not a namespace (printable ASCII, no spaces)").arg(where, value));
            if (qstrcmp(field, "authenticate") == 0 && !isServer(value))
                error(list, QStringLiteral("`%1`: %2 is not a server: host or user@host, a lowercase DNS name "
                                           "without wildcard, port or IP address")
                                .arg(where, value));
        }
    }
}

} // namespace paddock::kit::detail
