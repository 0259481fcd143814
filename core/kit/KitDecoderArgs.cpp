// SPDX-License-Identifier: GPL-3.0-or-later
// The args: block: each argument's declaration, then the values every other field is
// substituted with (given with --arg, or the defaults).
#include "kit/KitDecoder.h"

#include "kit/ArgsSubstitution.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace paddock::kit::detail {

void KitDecoder::readArgs(const YAML::Node &value, const YAML::Node &key)
{
    const At at{QStringLiteral("args"), QStringLiteral("args")};
    if (!expectMap(value, key, at))
        return;
    // The args: block is the contract naming a kit's inputs: its own text is never
    // substituted (a reference-shaped default documents an input, it does not use one).
    m_substitute = false;
    QSet<QString> seen;
    for (auto it = value.begin(); it != value.end(); ++it) {
        const YAML::Node nameNode = it->first;
        const Loc loc = locOf(nameNode.Mark());
        if (!nameNode.IsScalar()) {
            error(loc, QStringLiteral("an argument name must be a plain name, found %1").arg(nodeKindName(nameNode)));
            continue;
        }
        ArgEntry entry;
        entry.loc = loc;
        entry.declaration.name = QString::fromStdString(nameNode.Scalar());
        const QString &name = entry.declaration.name;
        if (!isValidArgName(name)) {
            error(loc,
                  QStringLiteral("argument name '%1' is invalid: it must match ^[A-Za-z_][A-Za-z0-9_-]*$").arg(name));
            entry.valid = false;
        }
        if (seen.contains(name)) {
            error(loc, QStringLiteral("argument `%1` is declared twice").arg(name));
            continue;
        }
        seen.insert(name);
        readArg(entry, nameNode, it->second, at.child(name));
    }
    m_substitute = true;
}

void KitDecoder::readArg(ArgEntry entry, const YAML::Node &nameNode, const YAML::Node &body, const At &argAt)
{
    ArgDeclaration &decl = entry.declaration;
    std::optional<bool> required;
    Loc enumLoc, patternLoc;
    if (expectMap(body, nameNode, argAt)) {
        fields(body, At{argAt.path, QStringLiteral("args.arg")},
               {
                   {"default", [&](const YAML::Node &k, const YAML::Node &v,
                                   const At &a) { decl.defaultValue = v.IsNull() ? QString() : str(v, k, a); }},
                   {"required",
                    [&](const YAML::Node &k, const YAML::Node &v, const At &a) { required = boolean(v, k, a); }},
                   {"description",
                    [&](const YAML::Node &k, const YAML::Node &v, const At &a) { decl.description = str(v, k, a); }},
                   {"enum",
                    [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                        enumLoc = valueLoc(v, k);
                        decl.enumValues = strList(v, k, a);
                        checkUniqueList(v, k, a, decl.enumValues, [](const QString &) { return QString(); });
                    }},
                   {"pattern",
                    [&](const YAML::Node &k, const YAML::Node &v, const At &a) {
                        patternLoc = valueLoc(v, k);
                        decl.pattern = str(v, k, a);
                    }},
               });
    }
    decl.required = required.value_or(false);
    checkArg(entry, enumLoc, patternLoc);
    m_args.append(entry);
}

void KitDecoder::checkArg(ArgEntry &entry, Loc enumLoc, Loc patternLoc)
{
    const ArgDeclaration &decl = entry.declaration;
    if (decl.defaultValue.has_value() == decl.required) {
        error(entry.loc, decl.required ? QStringLiteral("argument `%1` declares both `default` and `required: true`; "
                                                        "declare exactly one of them")
                                             .arg(decl.name)
                                       : QStringLiteral("argument `%1` declares neither `default` nor "
                                                        "`required: true`; declare exactly one of them")
                                             .arg(decl.name));
        entry.valid = false;
    }
    if (!decl.enumValues.isEmpty() && !decl.pattern.isEmpty()) {
        error(patternLoc,
              QStringLiteral("argument `%1` declares both `enum` and `pattern`; they are mutually exclusive")
                  .arg(decl.name));
        entry.valid = false;
    }
    if (!decl.pattern.isEmpty() && !QRegularExpression(decl.pattern).isValid()) {
        error(patternLoc, QStringLiteral("argument `%1` has an invalid pattern: %2")
                              .arg(decl.name, QRegularExpression(decl.pattern).errorString()));
        entry.valid = false;
    } else if (decl.defaultValue && entry.valid) {
        if (!decl.enumValues.isEmpty() && !decl.enumValues.contains(*decl.defaultValue)) {
            error(enumLoc, QStringLiteral("the default '%1' of argument `%2` is not one of its enum values (%3)")
                               .arg(*decl.defaultValue, decl.name, decl.enumValues.join(QStringLiteral(", "))));
            entry.valid = false;
        } else if (!decl.pattern.isEmpty() && !QRegularExpression(QRegularExpression::anchoredPattern(decl.pattern))
                                                   .match(*decl.defaultValue)
                                                   .hasMatch()) {
            error(patternLoc, QStringLiteral("the default '%1' of argument `%2` does not match its pattern %3")
                                  .arg(*decl.defaultValue, decl.name, decl.pattern));
            entry.valid = false;
        }
    }
}

void KitDecoder::resolveArgs(const YAML::Node &argsKey)
{
    Loc argsLoc = locOf(argsKey.Mark());
    if (argsLoc.line == 0)
        argsLoc = {1, 1};
    for (auto it = m_options.args.constBegin(); it != m_options.args.constEnd(); ++it) {
        const bool declared = std::any_of(m_args.cbegin(), m_args.cend(),
                                          [&](const ArgEntry &a) { return a.declaration.name == it.key(); });
        if (!declared)
            error(
                argsLoc,
                QStringLiteral("--arg %1 names an argument the kit does not declare in its args: block").arg(it.key()));
    }
    for (const ArgEntry &entry : std::as_const(m_args)) {
        const ArgDeclaration &decl = entry.declaration;
        const auto supplied = m_options.args.constFind(decl.name);
        if (supplied != m_options.args.constEnd()) {
            if (acceptsArgValue(entry, *supplied))
                m_values.insert(decl.name, *supplied);
        } else if (decl.defaultValue) {
            m_values.insert(decl.name, *decl.defaultValue);
        } else if (decl.required && m_options.requireArgValues) {
            error(entry.loc,
                  QStringLiteral("argument `%1` is required and has no value: pass --arg %1=VALUE").arg(decl.name));
        }
    }
    for (const ArgEntry &entry : std::as_const(m_args))
        m_kit.args.append(entry.declaration);
    m_kit.argValues = m_values;
}

// A value given with --arg is checked against the declaration's enum or pattern.
bool KitDecoder::acceptsArgValue(const ArgEntry &entry, const QString &value)
{
    const ArgDeclaration &decl = entry.declaration;
    if (!decl.enumValues.isEmpty() && !decl.enumValues.contains(value)) {
        error(entry.loc, QStringLiteral("the value '%1' given for argument `%2` is not one of: %3")
                             .arg(value, decl.name, decl.enumValues.join(QStringLiteral(", "))));
        return false;
    }
    if (!decl.pattern.isEmpty()) {
        const QRegularExpression re(QRegularExpression::anchoredPattern(decl.pattern));
        if (re.isValid() && !re.match(value).hasMatch()) {
            error(entry.loc, QStringLiteral("the value '%1' given for argument `%2` does not match its pattern %3")
                                 .arg(value, decl.name, decl.pattern));
            return false;
        }
    }
    return true;
}

} // namespace paddock::kit::detail
