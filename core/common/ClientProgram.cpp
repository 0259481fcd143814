// SPDX-License-Identifier: GPL-3.0-or-later
// Plain C++ (no Qt): paddock-init writes these lines, the proxy reads them.
#include "common/ClientProgram.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace paddock {
namespace {

bool plain(unsigned char byte)
{
    return byte > ' ' && byte <= '~' && byte != '%';
}

void appendEncoded(std::string &out, std::string_view text)
{
    static constexpr char Hex[] = "0123456789ABCDEF";
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (plain(byte)) {
            out += ch;
        } else {
            out += '%';
            out += Hex[byte >> 4];
            out += Hex[byte & 0xf];
        }
    }
    if (text.empty())
        out += "%00"; // a field is never empty on the line; %00 alone means ""
}

int hexValue(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

bool decode(std::string_view field, std::string *out)
{
    out->clear();
    if (field.empty())
        return false; // two spaces in a row: the encoder never writes that
    if (field == "%00")
        return true;
    for (std::size_t i = 0; i < field.size(); ++i) {
        const auto byte = static_cast<unsigned char>(field[i]);
        if (byte != '%') {
            if (!plain(byte))
                return false;
            *out += field[i];
            continue;
        }
        if (i + 2 >= field.size())
            return false;
        const int high = hexValue(field[i + 1]);
        const int low = hexValue(field[i + 2]);
        if (high < 0 || low < 0 || (high == 0 && low == 0))
            return false;
        *out += char(high * 16 + low);
        i += 2;
    }
    return true;
}

std::string_view fileName(std::string_view path)
{
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

/** Whether @p name is an interpreter whose first argument names the program it runs. */
bool isInterpreter(std::string_view name)
{
    static constexpr std::array<std::string_view, 9> Prefixes{"python", "perl", "ruby", "node", "bash",
                                                              "sh",     "dash", "zsh",  "php"};
    for (const std::string_view prefix : Prefixes) {
        if (name.starts_with(prefix)) {
            const std::string_view rest = name.substr(prefix.size());
            // python3, python3.11, perl5.36: a version may follow, nothing else
            if (rest.find_first_not_of("0123456789.") == std::string_view::npos)
                return true;
        }
    }
    return false;
}

/** The script (or Python module, `-m pip`) an interpreter runs; empty for anything else. */
std::string_view scriptOf(const ClientProgram &program)
{
    if (!isInterpreter(fileName(program.exe)) || program.args.size() < 2)
        return {};
    for (std::size_t i = 1; i < program.args.size(); ++i) {
        const std::string &arg = program.args[i];
        if (arg == "-m" && i + 1 < program.args.size())
            return program.args[i + 1];
        if (arg == "-c" || arg == "-e")
            return {}; // code on the command line: no file names it
        if (!arg.empty() && arg[0] != '-')
            return arg;
    }
    return {};
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i])
            return false;
    }
    return true;
}

/** Options whose value is a credential more often than not: the value is never shown. */
bool takesSecret(std::string_view option)
{
    static constexpr std::array<std::string_view, 12> Options{
        "-h",       "--header", "-u",        "--user",          "--proxy-user", "--password",
        "--passwd", "--token",  "--api-key", "--oauth2-bearer", "--auth",       "--proxy-header"};
    std::string lower(option);
    for (char &ch : lower)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const std::string_view name : Options) {
        if (lower == name)
            return true;
    }
    return false;
}

/**
 * What a command line shows of one argument: a URL without its user information or query
 * (`https://…@host/path?…`), a header or `--option=value` that carries a credential without
 * its value. A command line is the program's own text, often with a token in it.
 */
std::string redacted(const std::string &arg, bool secretValue)
{
    if (secretValue)
        return "…";
    if (const std::size_t equals = arg.find('=');
        arg.starts_with("--") && equals != std::string::npos && takesSecret(std::string_view(arg).substr(0, equals)))
        return arg.substr(0, equals + 1) + "…";
    for (const std::string_view header : {"authorization:", "proxy-authorization:", "cookie:", "x-api-key:"}) {
        if (startsWithNoCase(arg, header))
            return arg.substr(0, header.size()) + " …";
    }
    std::string text = arg;
    const std::size_t scheme = text.find("://");
    if (scheme == std::string::npos)
        return text;
    const std::size_t hostStart = scheme + 3;
    const std::size_t hostEnd = text.find_first_of("/?#", hostStart);
    const std::size_t at = text.rfind('@', hostEnd == std::string::npos ? std::string::npos : hostEnd);
    if (at != std::string::npos && at >= hostStart)
        text.replace(hostStart, at - hostStart, "…");
    if (const std::size_t query = text.find('?', hostStart); query != std::string::npos)
        text.replace(query, std::string::npos, "?…");
    return text;
}

} // namespace

std::string ClientProgram::commandLine() const
{
    std::string line;
    bool secretNext = false;
    for (const std::string &original : args) {
        const std::string arg = redacted(original, secretNext);
        secretNext = takesSecret(original);
        if (!line.empty())
            line += ' ';
        if (arg.empty() || arg.find_first_of(" \t\"'") != std::string::npos) {
            line += '\'';
            for (const char ch : arg)
                line += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
            line += '\'';
        } else {
            line += arg;
        }
    }
    if (truncated)
        line += " …";
    return line;
}

std::string ClientProgram::name() const
{
    const std::string_view script = scriptOf(*this);
    return std::string(fileName(script.empty() ? std::string_view(exe) : script));
}

bool ClientProgram::matches(std::string_view condition) const
{
    if (!known() || condition.empty())
        return false;
    const std::string_view script = scriptOf(*this);
    if (condition.find('/') != std::string_view::npos)
        return condition == exe || (!script.empty() && condition == script);
    // A bare name also matches the name it was started by (argv[0]: `python3` for python3.11).
    const std::string_view started = args.empty() ? std::string_view() : fileName(args.front());
    return condition == fileName(exe) || condition == started || (!script.empty() && condition == fileName(script));
}

namespace preamble {

namespace {

const char *versionOf(Delivery delivery)
{
    switch (delivery) {
    case Delivery::Relayed:
        return "1 ";
    case Delivery::Attached:
        return "2 ";
    case Delivery::Report:
        break;
    }
    return "3 ";
}

/** "tcp:host:port", "tcp:[v6]:port": the value of a `to=` field before it is encoded. */
std::string destinationText(const Destination &to)
{
    const bool v6 = to.host.find(':') != std::string::npos;
    return to.transport + ':' + (v6 ? "[" + to.host + "]" : to.host) + ':' + std::to_string(to.port);
}

bool parseDestination(std::string_view text, Destination *to)
{
    const std::size_t colon = text.find(':');
    const std::size_t portColon = text.rfind(':');
    if (colon == std::string_view::npos || portColon <= colon)
        return false;
    to->transport = std::string(text.substr(0, colon));
    if (to->transport != "tcp" && to->transport != "udp" && to->transport != "dns")
        return false;
    std::string_view host = text.substr(colon + 1, portColon - colon - 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    const std::string_view port = text.substr(portColon + 1);
    if (host.empty() || host.size() > 253 || port.empty() || port.size() > 5 ||
        port.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    to->host = std::string(host);
    to->port = unsigned(std::stoul(std::string(port)));
    return to->port <= 65535;
}

/** Splits the line's fields (after the magic, before the newline) at single spaces. */
std::vector<std::string_view> fieldsOf(std::string_view rest)
{
    std::vector<std::string_view> fields;
    while (!rest.empty()) {
        const std::size_t space = rest.find(' ');
        fields.push_back(rest.substr(0, space));
        rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    }
    return fields;
}

} // namespace

std::string encode(const ClientProgram &program, Delivery delivery, const Destination &to)
{
    std::string line(Magic);
    line += versionOf(delivery);
    if (!to.empty()) {
        line += "to=";
        appendEncoded(line, destinationText(to));
        line += ' ';
    }
    line += std::to_string(program.pid > 0 ? program.pid : 0);
    line += ' ';
    appendEncoded(line, std::string_view(program.exe).substr(0, MaxExeBytes));
    std::size_t budget = MaxArgBytes;
    bool truncated = program.truncated;
    for (const std::string &arg : program.args) {
        if (budget == 0) {
            truncated = true;
            break;
        }
        const std::string_view piece = std::string_view(arg).substr(0, budget);
        truncated = truncated || piece.size() < arg.size();
        budget -= piece.size();
        line += ' ';
        appendEncoded(line, piece);
    }
    // The line says it was cut with a last field of its own, "%00%00": an argument can't be that.
    if (truncated)
        line += " %00%00";
    line += '\n';
    return line;
}

Parse parse(std::string_view bytes, ClientProgram *program, std::size_t *consumed, Delivery *delivery, Destination *to)
{
    const std::size_t compared = std::min(bytes.size(), Magic.size());
    if (bytes.substr(0, compared) != Magic.substr(0, compared))
        return Parse::NotPreamble;
    const std::size_t end = bytes.find('\n');
    if (end == std::string_view::npos)
        return bytes.size() >= MaxBytes ? Parse::Malformed : Parse::NeedMore;
    if (end + 1 > MaxBytes)
        return Parse::Malformed;
    std::vector<std::string_view> fields = fieldsOf(bytes.substr(Magic.size(), end - Magic.size()));
    if (fields.empty() || (fields[0] != "1" && fields[0] != "2" && fields[0] != "3"))
        return Parse::Malformed;
    const std::string_view version = fields[0];
    fields.erase(fields.begin());
    Destination destination;
    if (!fields.empty() && fields[0].substr(0, 3) == "to=") {
        std::string text;
        if (!decode(fields[0].substr(3), &text) || !parseDestination(text, &destination))
            return Parse::Malformed;
        fields.erase(fields.begin());
    }
    // A report says what it reports.
    if (fields.size() < 2 || (version == "3" && destination.empty()))
        return Parse::Malformed;
    ClientProgram parsed;
    const std::string_view pid = fields[0];
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string_view::npos)
        return Parse::Malformed;
    parsed.pid = std::stol(std::string(pid));
    if (!decode(fields[1], &parsed.exe))
        return Parse::Malformed;
    for (std::size_t i = 2; i < fields.size(); ++i) {
        if (fields[i] == "%00%00" && i + 1 == fields.size()) {
            parsed.truncated = true;
            break;
        }
        std::string arg;
        if (!decode(fields[i], &arg))
            return Parse::Malformed;
        parsed.args.push_back(std::move(arg));
    }
    *program = std::move(parsed);
    *consumed = end + 1;
    if (delivery)
        *delivery = version == "2" ? Delivery::Attached : version == "3" ? Delivery::Report : Delivery::Relayed;
    if (to)
        *to = std::move(destination);
    return Parse::Done;
}

} // namespace preamble
} // namespace paddock
