// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProgramFiles.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paddock::init {
namespace {

/** The SHA-256 of what @p fd holds, read from its start; empty when it could not be read. */
std::string digestOf(int fd)
{
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1)
        return {};
    std::vector<unsigned char> buffer(1 << 16);
    off_t offset = 0;
    for (;;) {
        const ssize_t n = pread(fd, buffer.data(), buffer.size(), offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return {};
        if (n == 0)
            break;
        EVP_DigestUpdate(context.get(), buffer.data(), std::size_t(n));
        offset += n;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context.get(), digest, &length) != 1)
        return {};
    std::string hex;
    char pair[3];
    for (unsigned int i = 0; i < length; ++i) {
        std::snprintf(pair, sizeof pair, "%02x", digest[i]);
        hex += pair;
    }
    return hex;
}

/** Where @p fd's file is, every link resolved, as this mount namespace (the sandbox's) names it. */
std::string pathOf(int fd)
{
    char target[4096];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
    return n > 0 ? std::string(target, std::size_t(n)) : std::string();
}

/** /proc/self/fdinfo's mnt_id: the mount @p fd's file was opened on; 0 when not said. */
unsigned long long mountIdOf(int fd)
{
    std::ifstream info("/proc/self/fdinfo/" + std::to_string(fd));
    std::string key;
    while (info >> key) {
        if (key == "mnt_id:") {
            unsigned long long id = 0;
            info >> id;
            return id;
        }
        info.ignore(4096, '\n');
    }
    return 0;
}

/** mountinfo's octal escapes (\040 for a space) undone. */
std::string unescaped(const std::string &field)
{
    std::string text;
    for (std::size_t i = 0; i < field.size(); ++i) {
        const std::string digits = field[i] == '\\' ? field.substr(i + 1, 3) : std::string();
        if (digits.size() == 3 && digits.find_first_not_of("01234567") == std::string::npos) {
            text += char(std::stoi(digits, nullptr, 8));
            i += 3;
        } else {
            text += field[i];
        }
    }
    return text;
}

bool isUnder(const std::string &path, const std::string &point)
{
    return point == "/" || path == point || (path.starts_with(point) && path[point.size()] == '/');
}

} // namespace

ProgramFiles::ProgramFiles()
{
    const char *value = std::getenv(kSwitchVariable);
    m_enabled = value == nullptr || std::string_view(value) != "off";
}

void ProgramFiles::readMounts()
{
    m_mounts.clear();
    std::ifstream info("/proc/self/mountinfo");
    std::string line;
    while (std::getline(info, line)) {
        // ID PARENT MAJOR:MINOR ROOT POINT OPTIONS ...: the options are the mount's own (ro, rw).
        std::istringstream fields(line);
        Mount mount;
        std::string parent, device, root, point, options;
        if (!(fields >> mount.id >> parent >> device >> root >> point >> options))
            continue;
        mount.point = unescaped(point);
        mount.readOnly = options == "ro" || options.starts_with("ro,");
        m_mounts.push_back(std::move(mount));
    }
}

const ProgramFiles::Mount *ProgramFiles::mountOf(int fd, const std::string &path)
{
    if (const unsigned long long id = mountIdOf(fd); id != 0) {
        for (int attempt = 0; attempt < 2; ++attempt) {
            for (const Mount &mount : m_mounts) {
                if (mount.id == id)
                    return &mount;
            }
            readMounts(); // mounted since it was last read
        }
        return nullptr;
    }
    // No mount ID (an older kernel, gVisor): the last mount listed over the deepest point holding the path.
    if (m_mounts.empty())
        readMounts();
    const Mount *best = nullptr;
    for (const Mount &mount : m_mounts) {
        if (isUnder(path, mount.point) && (!best || mount.point.size() >= best->point.size()))
            best = &mount;
    }
    return best;
}

FileIdentity::Place ProgramFiles::mountPlaceOf(int fd, const std::string &path, std::string *mountPoint)
{
    using Place = FileIdentity::Place;
    const Mount *mount = mountOf(fd, path);
    if (!mount)
        return Place::Unknown;
    if (mount->readOnly)
        return Place::ReadOnly;
    if (mount->point == "/")
        return Place::Root;
    *mountPoint = mount->point;
    return Place::Mount;
}

FileIdentity ProgramFiles::describe(int fd, const std::string &path)
{
    FileIdentity identity;
    struct stat status = {};
    if (path.empty() || fstat(fd, &status) != 0 || !S_ISREG(status.st_mode))
        return identity;
    identity.path = path;
    identity.device = status.st_dev;
    identity.inode = status.st_ino;
    identity.size = static_cast<unsigned long long>(status.st_size);
    identity.changedNs = static_cast<long long>(status.st_ctim.tv_sec) * 1000000000LL + status.st_ctim.tv_nsec;
    // The file the process runs must be the one at its path in this view of the sandbox: a
    // process that mounted something over /usr/bin/curl in a namespace of its own, or whose
    // file was replaced since, names a path that says nothing about it.
    struct stat here = {};
    const bool atItsPath = path.front() == '/' && ::stat(path.c_str(), &here) == 0 && here.st_dev == status.st_dev &&
                           here.st_ino == status.st_ino;
    const Key key{identity.device, identity.inode, identity.size, identity.changedNs, path};
    auto known = m_files.find(key);
    if (known == m_files.end()) {
        // Read once for each file as it is: opening one can be slow (a FUSE root), and most
        // connections come from programs seen before.
        if (m_files.size() >= 1024)
            m_files.clear(); // a sandbox runs far fewer programs than that; a flood starts over
        Known entry;
        entry.place = mountPlaceOf(fd, path, &entry.mountPoint);
        if (identity.size <= kMaxDigestBytes) {
            const std::string reopen = "/proc/self/fd/" + std::to_string(fd);
            if (const int readable = open(reopen.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK); readable >= 0) {
                entry.sha256 = digestOf(readable);
                close(readable);
            }
        }
        known = m_files.emplace(key, std::move(entry)).first;
    }
    identity.sha256 = known->second.sha256;
    identity.place = atItsPath ? known->second.place : FileIdentity::Place::Elsewhere;
    if (identity.place == FileIdentity::Place::Mount)
        identity.mountPoint = known->second.mountPoint;
    return identity;
}

void ProgramFiles::identify(ClientProgram &program)
{
    if (program.pid <= 0 || !m_enabled)
        return;
    const std::string proc = "/proc/" + std::to_string(program.pid);
    // The file the process executes, even if another has been put at its path since. O_PATH:
    // nothing is opened on the file system until a file not seen before is read.
    if (const int exe = open((proc + "/exe").c_str(), O_PATH | O_CLOEXEC); exe >= 0) {
        program.exeFile = describe(exe, program.exe);
        close(exe);
    }
    const std::string script = program.scriptArgument();
    if (script.empty())
        return;
    // As the interpreter opens it: from the process's working folder, following links.
    const int cwd = open((proc + "/cwd").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (cwd < 0)
        return;
    const int file = openat(cwd, script.c_str(), O_PATH | O_CLOEXEC);
    close(cwd);
    if (file < 0)
        return;
    program.scriptFile = describe(file, pathOf(file));
    close(file);
}

} // namespace paddock::init
