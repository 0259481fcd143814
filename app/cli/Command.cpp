// SPDX-License-Identifier: GPL-3.0-or-later
#include "Command.h"

#include <cstdio>

namespace paddock::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

namespace {

QString optionSyntax(const QCommandLineOption &option)
{
    QStringList names;
    for (const QString &name : option.names())
        names << (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
    QString text = names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        text += QLatin1Char(' ') + option.valueName();
    return text;
}

void printAligned(QTextStream &stream, const QList<QPair<QString, QString>> &rows)
{
    qsizetype width = 0;
    for (const auto &row : rows)
        width = std::max(width, row.first.size());
    for (const auto &row : rows)
        stream << "  " << row.first.leftJustified(width + 2) << row.second << '\n';
}

void printHelp(const Command &command, const QString &path)
{
    QTextStream &s = out();
    s << "Usage: " << path;
    if (!command.subcommands.isEmpty())
        s << " COMMAND";
    if (!command.options.isEmpty() || command.run)
        s << " [options]";
    if (!command.positionalSyntax.isEmpty())
        s << ' ' << command.positionalSyntax;
    s << "\n\n";
    const QString description = command.description.isEmpty() ? command.summary : command.description;
    if (!description.isEmpty())
        s << description << "\n\n";
    if (!command.subcommands.isEmpty()) {
        s << "Commands:\n";
        QList<QPair<QString, QString>> rows;
        for (const Command &sub : command.subcommands)
            rows << qMakePair(sub.name, sub.summary);
        printAligned(s, rows);
        s << '\n';
    }
    if (!command.positionalHelp.isEmpty()) {
        s << "Arguments:\n";
        printAligned(s, command.positionalHelp);
        s << '\n';
    }
    QList<QPair<QString, QString>> rows;
    for (const QCommandLineOption &option : command.options)
        rows << qMakePair(optionSyntax(option), option.description());
    rows << qMakePair(QStringLiteral("-h, --help"), QStringLiteral("Show this help."));
    s << "Options:\n";
    printAligned(s, rows);
    if (!command.subcommands.isEmpty())
        s << "\nRun '" << path << " COMMAND --help' for more about a command.\n";
    s.flush();
}

bool isHelp(const QString &arg)
{
    return arg == QLatin1String("-h") || arg == QLatin1String("--help");
}

int dispatchAt(const Command &command, const QString &path, QStringList args)
{
    if (!command.subcommands.isEmpty()) {
        if (args.isEmpty()) {
            printHelp(command, path);
            return ExitUsage;
        }
        const QString first = args.takeFirst();
        if (isHelp(first)) {
            printHelp(command, path);
            return ExitOk;
        }
        for (const Command &sub : command.subcommands) {
            if (sub.name == first)
                return dispatchAt(sub, path + QLatin1Char(' ') + sub.name, args);
        }
        if (first.startsWith(QLatin1Char('-')))
            return usageError(path, QStringLiteral("unknown option '%1'").arg(first));
        return usageError(path, QStringLiteral("'%1' is not a command of '%2'").arg(first, path));
    }

    if (!command.run)
        return failure(QStringLiteral("'%1' is not available in this build").arg(path));

    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (command.optionsAfterPositionalsArePositional)
        parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    parser.addOptions(command.options);
    // QCommandLineParser expects the program name first.
    if (!parser.parse(QStringList{path} + args))
        return usageError(path, parser.errorText());
    if (parser.isSet(help)) {
        printHelp(command, path);
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() < command.minPositional)
        return usageError(path, command.positionalSyntax.isEmpty()
                                    ? QStringLiteral("missing arguments")
                                    : QStringLiteral("missing arguments: expected %1").arg(command.positionalSyntax));
    if (command.maxPositional >= 0 && positional.size() > command.maxPositional)
        return usageError(path, QStringLiteral("unexpected argument '%1'").arg(positional.at(command.maxPositional)));
    const Invocation invocation{parser, positional, path};
    const int code = command.run(invocation);
    out().flush();
    err().flush();
    return code;
}

} // namespace

int usageError(const QString &commandPath, const QString &message)
{
    err() << "paddock: " << message << "\n"
          << "Try '" << commandPath << " --help'.\n";
    err().flush();
    return ExitUsage;
}

int failure(const QString &message)
{
    err() << "paddock: " << message << '\n';
    err().flush();
    return ExitFailed;
}

int dispatch(const Command &root, const QStringList &args)
{
    return dispatchAt(root, root.name, args);
}

} // namespace paddock::cli
