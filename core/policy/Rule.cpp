// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/Rule.h"

#include <QCryptographicHash>
#include <QRegularExpression>

namespace paddock::policy {

QString Scope::toString() const
{
    switch (kind) {
    case Kind::Global:
        return QStringLiteral("global");
    case Kind::Sandbox:
        return QStringLiteral("sandbox:") + name;
    case Kind::Kit:
        return QStringLiteral("kit:") + name;
    }
    return {};
}

std::optional<Scope> Scope::fromString(QStringView text)
{
    if (text == QLatin1String("global"))
        return global();
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon <= 0 || colon == text.size() - 1)
        return std::nullopt;
    const QStringView kindText = text.first(colon);
    const QString name = text.sliced(colon + 1).toString();
    if (kindText == QLatin1String("sandbox"))
        return sandbox(name);
    if (kindText == QLatin1String("kit"))
        return kit(name);
    return std::nullopt;
}

QString verdictName(Verdict verdict)
{
    return verdict == Verdict::Allow ? QStringLiteral("allow") : QStringLiteral("deny");
}

std::optional<Verdict> verdictFromName(QStringView name)
{
    if (name == QLatin1String("allow"))
        return Verdict::Allow;
    if (name == QLatin1String("deny"))
        return Verdict::Deny;
    return std::nullopt;
}

QString originName(Origin origin)
{
    switch (origin) {
    case Origin::Preset:
        return QStringLiteral("preset");
    case Origin::User:
        return QStringLiteral("user");
    case Origin::Kit:
        return QStringLiteral("kit");
    case Origin::Approval:
        return QStringLiteral("approval");
    }
    return {};
}

std::optional<Origin> originFromName(QStringView name)
{
    for (const Origin origin : {Origin::Preset, Origin::User, Origin::Kit, Origin::Approval}) {
        if (name == originName(origin))
            return origin;
    }
    return std::nullopt;
}

QString Rule::describe() const
{
    const QString what = pattern.toString() + (request.isEmpty() ? QString() : QLatin1Char(' ') + request.toString()) +
                         (program.isEmpty() ? QString() : QStringLiteral(" for ") + program);
    return QStringLiteral("%1 %2 (%3, %4)").arg(verdictName(verdict), what, scope.toString(), originName(origin));
}

QString ruleIdFor(const Scope &scope, Verdict verdict, const HostPattern &pattern, const RequestMatch &request,
                  const QString &program)
{
    QString canonical =
        scope.toString() + QLatin1Char('\n') + verdictName(verdict) + QLatin1Char('\n') + pattern.toString();
    // Rules without methods, paths or a program keep the ids they always had.
    if (!request.isEmpty())
        canonical += QLatin1Char('\n') + request.toString();
    if (!program.isEmpty())
        canonical += QStringLiteral("\nprogram ") + program;
    const QByteArray digest = QCryptographicHash::hash(canonical.toUtf8(), QCryptographicHash::Sha256);
    return QString::fromLatin1(digest.toHex().left(8));
}

Result<void> checkProgramCondition(const QString &program)
{
    static const QRegularExpression digest(QStringLiteral("^[0-9a-fA-F]{64}$"));
    QString file = program;
    const qsizetype at = program.indexOf(QLatin1String("sha256:"));
    if (at >= 0) {
        if (!digest.match(program.mid(at + 7)).hasMatch() || (at > 0 && program.at(at - 1) != QLatin1Char('@')))
            return fail(QStringLiteral("a digest is sha256: and 64 hexadecimal digits, alone or after NAME@: '%1'")
                            .arg(program));
        if (at == 0)
            return {};
        file = program.left(at - 1);
    }
    if (file.isEmpty() || file.size() > 1024)
        return fail(QStringLiteral(
            "a program is a file name (pip) or an absolute path (/usr/bin/git), at most 1024 characters"));
    for (const QChar ch : file) {
        if (ch.unicode() <= 0x20 || ch.unicode() == 0x7f || ch == QLatin1Char('@'))
            return fail(QStringLiteral("a program holds no spaces, '@' or control characters: '%1'").arg(program));
    }
    if (file.contains(QLatin1Char('/')) && (!file.startsWith(QLatin1Char('/')) || file.endsWith(QLatin1Char('/')) ||
                                            file.split(QLatin1Char('/')).contains(QStringLiteral(".."))))
        return fail(QStringLiteral("a program with a slash is an absolute path to a file: '%1'").arg(program));
    return {};
}

bool programConditionHolds(std::string_view condition, bool deny, const ClientProgram &program)
{
    if (condition.empty())
        return true;
    return deny ? program.mayBe(condition) || !program.known() : program.matches(condition);
}

PatternContext patternContextFor(Verdict verdict, Origin origin)
{
    if (origin == Origin::Preset)
        return PatternContext::Preset;
    return verdict == Verdict::Deny ? PatternContext::Deny : PatternContext::Allow;
}

} // namespace paddock::policy
