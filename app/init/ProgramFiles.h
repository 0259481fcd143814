// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/ClientProgram.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace paddock::init {

/**
 * @brief Reads what a program's files are (FileIdentity): the executable the kernel runs for a
 * process (/proc/PID/exe, which stays the file executed even once another is put at its path)
 * and the script an interpreter runs, its path resolved from the process's own working folder.
 *
 * The SHA-256 of a file is read once for each file as it is (device, inode, size and change
 * time: a change of any kind moves the last), up to @ref kMaxDigestBytes; a larger file goes
 * without one. Each file's place is the mount that holds it in paddock-init's own view of the
 * sandbox (the one its runtime made, which nothing inside can change): read-only, the
 * writable root, or another writable mount; and a file that is not the one at its path here
 * (a process in a mount namespace of its own, or a file replaced since) is said to be so. The
 * daemon tells from the rest where the file comes from (sandbox::ProgramOrigins).
 */
class ProgramFiles
{
public:
    static constexpr unsigned long long kMaxDigestBytes = 64ull << 20;
    /**
     * `PADDOCK_PROGRAM_FILES=off` in the sandbox's environment: programs are named without
     * reading their files, so no file's origin is known and no program rule allows anything
     * (stricter, never looser). The benchmarks' reference for what reading them costs.
     */
    static constexpr const char *kSwitchVariable = "PADDOCK_PROGRAM_FILES";

    ProgramFiles();

    /** Fills @p program's exeFile and scriptFile; what cannot be read stays unknown. */
    void identify(ClientProgram &program);

private:
    /** @brief One line of /proc/self/mountinfo. */
    struct Mount
    {
        unsigned long long id = 0;
        std::string point;
        bool readOnly = false;
    };

    /** @brief What was read of one file as it is: its digest and the mount that holds it. */
    struct Known
    {
        std::string sha256;
        FileIdentity::Place place = FileIdentity::Place::Unknown;
        std::string mountPoint;
    };

    /**
     * What the file of @p fd (O_PATH) is, @p path where the process names it: read the first
     * time that file is seen as it is (device, inode, size, change time, path), from memory after.
     */
    FileIdentity describe(int fd, const std::string &path);
    /** Which kind of mount holds @p fd's file (its mount point set for FileIdentity::Place::Mount). */
    FileIdentity::Place mountPlaceOf(int fd, const std::string &path, std::string *mountPoint);
    /** The mount that holds @p fd, whose path is @p path; nullptr when none is found. */
    const Mount *mountOf(int fd, const std::string &path);
    void readMounts();

    using Key = std::tuple<unsigned long long, unsigned long long, unsigned long long, long long, std::string>;
    std::map<Key, Known> m_files;
    std::vector<Mount> m_mounts; ///< in the order mountinfo lists them: a later one covers an earlier
    bool m_enabled = true;
};

} // namespace paddock::init
