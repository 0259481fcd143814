// SPDX-License-Identifier: GPL-3.0-or-later
// schemaVersion "3": the rules of the agent's own declarations, agent-sessions@1 and
// agent-interactive-sessions@1 (the verbs that drive the workload's agent) and agent-context@1
// (the instruction profile it reads), beyond their shapes (KitV3Configs.cpp).
#include "kit/AgentVerbs.h"
#include "kit/ArgsSubstitution.h"
#include "kit/KitV3Decoder.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>

namespace paddock::kit::detail {

namespace {

const QString kPrefix = QStringLiteral("com.docker.sandbox/");

QStringList textsOf(const YAML::Node &list)
{
    QStringList texts;
    for (std::size_t i = 0; list && list.IsSequence() && i < list.size(); ++i)
        texts << (list[i].IsScalar() ? QString::fromStdString(list[i].Scalar()) : QString());
    return texts;
}

/** The `{{.X}}` placeholders written in @p texts, each once. */
QStringList placeholdersIn(const QStringList &texts)
{
    // `${{ kit.args.X }}` is an argument, substituted at load: not a placeholder.
    static const QRegularExpression placeholder(QStringLiteral("(?<!\\$)\\{\\{\\s*\\.[^}]*\\}\\}"));
    QStringList found;
    for (const QString &text : texts) {
        for (auto it = placeholder.globalMatch(text); it.hasNext();) {
            const QString written = it.next().captured(0);
            if (!found.contains(written))
                found << written;
        }
    }
    return found;
}

QString argvText(const QJsonArray &argv)
{
    QStringList words;
    for (const QJsonValue &word : argv)
        words << QLatin1Char('"') + word.toString() + QLatin1Char('"');
    return QLatin1Char('[') + words.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

void V3Decoder::checkAgentVerbs(const YAML::Node &config, const QString &path, bool interactive)
{
    // Which placeholder each tail must carry; the others take none.
    const QList<QPair<const char *, QString>> tails{
        {"prompt", QString::fromLatin1(kPromptPlaceholder)},
        {"resume", QString::fromLatin1(kSessionIdPlaceholder)},
        {"continue", {}},
        {"newSession", {}},
        {"sessionPicker", {}},
    };
    bool declaresVerb = false;
    for (const auto &[field, needed] : tails) {
        const YAML::Node tail = config[field];
        if (!tail)
            continue;
        const QStringList words = textsOf(tail);
        // agent-sessions@1 reads an empty tail as absent; the interactive one as the launch argv alone.
        if (words.isEmpty() && !interactive)
            continue;
        declaresVerb = true;
        const QString where = path + QLatin1Char('.') + QLatin1String(field);
        if (!needed.isEmpty() && !words.join(QLatin1Char('\n')).contains(needed))
            error(tail, QStringLiteral("`%1` must pass the caller's value: reference %2 in one of its elements")
                            .arg(where, needed));
        for (const QString &written : placeholdersIn(words)) {
            if (written != needed)
                error(tail, QStringLiteral("`%1` cannot use %2: %3")
                                .arg(where, written,
                                     needed.isEmpty() ? QStringLiteral("this verb takes no placeholder")
                                                      : QStringLiteral("its one placeholder is %1").arg(needed)));
        }
    }
    if (const YAML::Node list = config["list"]) {
        const bool empty = list.IsScalar() ? QString::fromStdString(list.Scalar()).trimmed().isEmpty()
                                           : textsOf(list).join(QString()).trimmed().isEmpty();
        if (empty && interactive)
            error(list, QStringLiteral("`%1.list` must name a command (it is empty)").arg(path));
        declaresVerb |= !empty;
    }
    if (!declaresVerb)
        error(
            config,
            interactive
                ? QStringLiteral("`%1` declares no verb (prompt, resume, continue, newSession, "
                                 "sessionPicker or list); drop the entry")
                      .arg(path)
                : QStringLiteral("`%1` declares no verb (prompt, resume, continue or list); drop the entry").arg(path));
}

void V3Decoder::checkAgentContext(const YAML::Node &config, const QString &path)
{
    if (config["content"] && config["contentFile"])
        error(config["contentFile"],
              QStringLiteral("`%1`: content and contentFile exclude each other; give the body one way").arg(path));
    const YAML::Node directory = config["directory"];
    if (!directory)
        return;
    const QString written = QString::fromStdString(directory.Scalar());
    const bool referenced = opensArgReference(written) || written.contains(QLatin1String("kit.env."));
    if (!referenced && (!written.startsWith(QLatin1Char('/')) || QDir::cleanPath(written) != written ||
                        written.contains(QLatin1String("/../")) || written.endsWith(QLatin1String("/.."))))
        error(directory, QStringLiteral("`%1.directory` must be an absolute, canonical path (no '..', '.', '//' or "
                                        "trailing '/'), found '%2'")
                             .arg(path, written.left(200)));
    const QString filename = config["filename"] ? QString::fromStdString(config["filename"].Scalar()) : QString();
    if (filename.isEmpty() || filename.contains(QLatin1Char('/')) || filename == QLatin1String(".") ||
        filename == QLatin1String(".."))
        error(config["filename"] ? config["filename"] : directory,
              QStringLiteral("`%1.directory` needs a filename of one component (e.g. AGENTS.md) in the same entry")
                  .arg(path));
}

void V3Decoder::checkInteractiveAgreement(const V3Descriptor &d)
{
    // Per declaration block: the top-level entries, and each group.
    QHash<int, QJsonArray> interactiveTails;
    for (const V3Capability &c : d.capabilities) {
        if (c.type != kPrefix + QStringLiteral("lifecycle@1"))
            continue;
        const QJsonArray tail = c.config.value(QLatin1String("interactive")).toArray();
        if (!tail.isEmpty()) // an empty one is dropped by composition: nothing to agree with
            interactiveTails.insert(c.group, tail);
    }
    for (const V3Capability &c : d.capabilities) {
        if (c.type != kPrefix + QStringLiteral("agent-interactive-sessions@1") ||
            !c.config.contains(QLatin1String("newSession")) || !interactiveTails.contains(c.group))
            continue;
        const QJsonArray newSession = c.config.value(QLatin1String("newSession")).toArray();
        const QJsonArray tail = interactiveTails.value(c.group);
        if (newSession == tail)
            continue;
        Diagnostic problem;
        problem.file = m_file;
        problem.line = c.line;
        problem.column = c.column;
        problem.message = QStringLiteral("agent-interactive-sessions@1 newSession %1 differs from lifecycle@1 "
                                         "interactive %2: both name the new interactive session, so give them the "
                                         "same argv (or leave newSession out)")
                              .arg(argvText(newSession), argvText(tail));
        m_diagnostics << problem;
    }
}

} // namespace paddock::kit::detail
