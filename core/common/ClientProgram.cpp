// SPDX-License-Identifier: GPL-3.0-or-later
// Plain C++ (no Qt): paddock-init writes these lines, the proxy reads them.
#include "common/ClientProgram.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <tuple>

#include <sys/socket.h>
#include <sys/uio.h>

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

/**
 * The script (or Python module, `-m pip`) an interpreter runs; empty for anything else.
 * @p module tells which of the two it is.
 */
std::string_view scriptOf(const ClientProgram &program, bool *module = nullptr)
{
    if (module)
        *module = false;
    if (!isInterpreter(fileName(program.exe)) || program.args.size() < 2)
        return {};
    for (std::size_t i = 1; i < program.args.size(); ++i) {
        const std::string &arg = program.args[i];
        if (arg == "-m" && i + 1 < program.args.size()) {
            if (module)
                *module = true;
            return program.args[i + 1];
        }
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
                ch == '\'' ? line.append("'\\''") : line.append(1, ch);
            line += '\'';
        } else {
            line += arg;
        }
    }
    if (truncated)
        line += " …";
    return line;
}

std::string ClientProgram::scriptArgument() const
{
    bool module = false;
    const std::string_view script = scriptOf(*this, &module);
    return module ? std::string() : std::string(script);
}

std::string ClientProgram::name() const
{
    // A module (`python3 -m pip`) is no file: the interpreter runs what it finds on its path.
    bool module = false;
    std::string_view script = scriptFile.path.empty() ? scriptOf(*this, &module) : std::string_view(scriptFile.path);
    if (module)
        script = {};
    return std::string(fileName(script.empty() ? std::string_view(exe) : script));
}

namespace {

/** @brief A program condition: a name or an absolute path, a digest, or both. */
struct Condition
{
    std::string_view file; ///< a name or a path; empty: only the digest
    std::string_view sha256;
};

Condition parseCondition(std::string_view condition)
{
    constexpr std::string_view Digest = "sha256:";
    if (condition.starts_with(Digest))
        return {{}, condition.substr(Digest.size())};
    if (const std::size_t at = condition.find("@sha256:"); at != std::string_view::npos)
        return {condition.substr(0, at), condition.substr(at + 1 + Digest.size())};
    return {condition, {}};
}

bool sameDigest(std::string_view a, std::string_view b)
{
    if (a.size() != b.size() || a.empty())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

/** @p file's name is @p name, or @p name with a version after it (python3.11 for python3). */
bool isNamed(std::string_view file, std::string_view name)
{
    if (!file.starts_with(name))
        return false;
    const std::string_view rest = file.substr(name.size());
    return rest.find_first_not_of("0123456789.") == std::string_view::npos;
}

/** Whether the file at @p path is what @p condition's name or path says; an empty one says nothing. */
bool names(std::string_view path, std::string_view condition)
{
    if (condition.empty())
        return true;
    if (path.empty())
        return false;
    if (condition.find('/') != std::string_view::npos)
        return condition == path;
    return isNamed(fileName(path), condition);
}

} // namespace

bool ClientProgram::matches(std::string_view text) const
{
    const Condition condition = parseCondition(text);
    if (!known() || (condition.file.empty() && condition.sha256.empty()))
        return false;
    const auto holds = [&](const FileIdentity &file, std::string_view path, bool fromBase) {
        if (!names(path, condition.file))
            return false;
        // A digest says what the file is wherever it came from; a name or a path only from the base.
        return condition.sha256.empty() ? fromBase : sameDigest(file.sha256, condition.sha256);
    };
    const bool interpreterFromBase = exeOrigin == FileOrigin::Base;
    if (holds(exeFile, exe, interpreterFromBase))
        return true;
    return !scriptFile.path.empty() &&
           holds(scriptFile, scriptFile.path, interpreterFromBase && scriptOrigin == FileOrigin::Base);
}

bool ClientProgram::mayBe(std::string_view text) const
{
    const Condition condition = parseCondition(text);
    if (!known())
        return false;
    if (!condition.sha256.empty() && !exeFile.sha256.empty() && !sameDigest(exeFile.sha256, condition.sha256) &&
        !sameDigest(scriptFile.sha256, condition.sha256))
        return false;
    if (condition.file.empty())
        return true;
    const std::string_view script = scriptFile.path.empty() ? scriptOf(*this) : std::string_view(scriptFile.path);
    if (condition.file.find('/') != std::string_view::npos)
        return condition.file == exe || (!script.empty() && condition.file == script);
    // A bare name also matches the name it was started by (argv[0]), whatever it runs.
    const std::string_view started = args.empty() ? std::string_view() : fileName(args.front());
    return isNamed(fileName(exe), condition.file) || condition.file == started ||
           (!script.empty() && isNamed(fileName(script), condition.file));
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

/** The PLACE field: where a file lives, with the colons of a mount point encoded. */
std::string placeText(const FileIdentity &file)
{
    using Place = FileIdentity::Place;
    switch (file.place) {
    case Place::Unknown:
        return {};
    case Place::ReadOnly:
        return "ro";
    case Place::Root:
        return "root";
    case Place::Elsewhere:
        return "moved";
    case Place::Mount:
        break;
    }
    std::string text = "m";
    for (const char ch : file.mountPoint.substr(0, MaxExeBytes)) {
        if (ch == ':')
            text += "%3A";
        else if (ch == '%')
            text += "%25";
        else
            text += ch;
    }
    return text;
}

bool parsePlace(std::string_view text, FileIdentity *file)
{
    using Place = FileIdentity::Place;
    if (text.empty() || text == "ro" || text == "root" || text == "moved") {
        file->place = text.empty()     ? Place::Unknown
                      : text == "ro"   ? Place::ReadOnly
                      : text == "root" ? Place::Root
                                       : Place::Elsewhere;
        return true;
    }
    if (text.front() != 'm')
        return false;
    // The colons and percent signs of the mount point, encoded once more inside the field.
    std::string point;
    for (std::size_t i = 1; i < text.size(); ++i) {
        if (text[i] != '%') {
            point += text[i];
            continue;
        }
        const std::string_view code = text.substr(i, 3);
        if (code != "%3A" && code != "%25")
            return false;
        point += code == "%3A" ? ':' : '%';
        i += 2;
    }
    if (point.empty() || point.front() != '/')
        return false;
    file->place = Place::Mount;
    file->mountPoint = std::move(point);
    return true;
}

/** "DEV:INO:SIZE:CTIME:SHA256:PLACE", then ":PATH" for a script: a FileIdentity on the line. */
std::string identityText(const FileIdentity &file, bool withPath)
{
    std::string text = std::to_string(file.device) + ':' + std::to_string(file.inode) + ':' +
                       std::to_string(file.size) + ':' + std::to_string(file.changedNs) + ':' +
                       file.sha256.substr(0, 64) + ':' + placeText(file);
    if (withPath)
        text += ':' + file.path.substr(0, MaxExeBytes);
    return text;
}

bool parseNumber(std::string_view text, unsigned long long *value)
{
    if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    *value = std::stoull(std::string(text));
    return true;
}

bool parseIdentity(std::string_view text, bool withPath, FileIdentity *file)
{
    std::array<std::string_view, 6> parts;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::size_t colon = text.find(':');
        const bool last = i + 1 == parts.size() && !withPath;
        if (last) {
            parts[i] = text; // the place is the last field of an executable's identity
            break;
        }
        if (colon == std::string_view::npos)
            return false;
        parts[i] = text.substr(0, colon);
        text.remove_prefix(colon + 1);
    }
    // What is left of a script's is its path, which may hold colons of its own.
    if (withPath) {
        file->path = std::string(text);
        if (file->path.empty() || file->path.front() != '/')
            return false;
    }
    unsigned long long changed = 0;
    if (!parseNumber(parts[0], &file->device) || !parseNumber(parts[1], &file->inode) ||
        !parseNumber(parts[2], &file->size) || !parseNumber(parts[3], &changed) || !parsePlace(parts[5], file))
        return false;
    file->changedNs = static_cast<long long>(changed);
    const std::string_view digest = parts[4];
    if (!digest.empty() &&
        (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string_view::npos))
        return false;
    file->sha256 = std::string(digest);
    return true;
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
    if (program.exeFile.known()) {
        line += "exe=";
        appendEncoded(line, identityText(program.exeFile, false));
        line += ' ';
    }
    if (program.scriptFile.known() && !program.scriptFile.path.empty()) {
        line += "script=";
        appendEncoded(line, identityText(program.scriptFile, true));
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
    ClientProgram parsed;
    for (const auto &[key, withPath, file] : {std::tuple{std::string_view("exe="), false, &parsed.exeFile},
                                              std::tuple{std::string_view("script="), true, &parsed.scriptFile}}) {
        if (fields.empty() || !fields[0].starts_with(key))
            continue;
        std::string text;
        if (!decode(fields[0].substr(key.size()), &text) || !parseIdentity(text, withPath, file))
            return Parse::Malformed;
        fields.erase(fields.begin());
    }
    // A report says what it reports.
    if (fields.size() < 2 || (version == "3" && destination.empty()))
        return Parse::Malformed;
    const std::string_view pid = fields[0];
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string_view::npos)
        return Parse::Malformed;
    parsed.pid = std::stol(std::string(pid));
    if (!decode(fields[1], &parsed.exe))
        return Parse::Malformed;
    if (parsed.exeFile.known())
        parsed.exeFile.path = parsed.exe;
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

long sendAttached(int unixSocket, const std::string &line, int fd)
{
    iovec data{const_cast<char *>(line.data()), line.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr *attached = CMSG_FIRSTHDR(&message);
    attached->cmsg_level = SOL_SOCKET;
    attached->cmsg_type = SCM_RIGHTS;
    attached->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(attached), &fd, sizeof(int));
    return ::sendmsg(unixSocket, &message, MSG_NOSIGNAL);
}

} // namespace preamble
} // namespace paddock
