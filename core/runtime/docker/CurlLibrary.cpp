// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/docker/CurlLibrary.h"

#include <dlfcn.h>

#include <mutex>

#ifndef PADDOCK_LIBCURL_SONAME
#define PADDOCK_LIBCURL_SONAME "libcurl.so.4"
#endif

namespace paddock::runtime::docker {
namespace {

struct Loaded
{
    CurlLibrary functions{};
    bool ok = false;
    QString problem;
};

/** @p name from @p library into @p slot; false when the library lacks it. */
template<typename Function>
bool resolve(void *library, const char *name, Function *slot)
{
    *slot = reinterpret_cast<Function>(::dlsym(library, name));
    return *slot != nullptr;
}

Loaded load()
{
    Loaded loaded;
    // Never unloaded: handles and callbacks live as long as the process.
    void *library = ::dlopen(PADDOCK_LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        loaded.problem = QStringLiteral("%1 could not be loaded: %2")
                             .arg(QLatin1String(PADDOCK_LIBCURL_SONAME), QString::fromLocal8Bit(::dlerror()));
        return loaded;
    }
    CurlLibrary &f = loaded.functions;
    const bool complete =
        resolve(library, "curl_global_init", &f.global_init) && resolve(library, "curl_easy_init", &f.easy_init) &&
        resolve(library, "curl_easy_cleanup", &f.easy_cleanup) &&
        resolve(library, "curl_easy_setopt", &f.easy_setopt) &&
        resolve(library, "curl_easy_getinfo", &f.easy_getinfo) &&
        resolve(library, "curl_easy_perform", &f.easy_perform) &&
        resolve(library, "curl_easy_strerror", &f.easy_strerror) && resolve(library, "curl_easy_send", &f.easy_send) &&
        resolve(library, "curl_easy_recv", &f.easy_recv) && resolve(library, "curl_slist_append", &f.slist_append) &&
        resolve(library, "curl_slist_free_all", &f.slist_free_all);
    if (!complete) {
        loaded.problem = QStringLiteral("%1 lacks a function Paddock calls: %2")
                             .arg(QLatin1String(PADDOCK_LIBCURL_SONAME), QString::fromLocal8Bit(::dlerror()));
        return loaded;
    }
    loaded.ok = f.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    if (!loaded.ok)
        loaded.problem = QStringLiteral("libcurl could not be initialised");
    return loaded;
}

} // namespace

const CurlLibrary *curlLibrary(QString *problem)
{
    static std::once_flag once;
    static Loaded loaded;
    std::call_once(once, [] { loaded = load(); });
    if (!loaded.ok && problem)
        *problem = loaded.problem;
    return loaded.ok ? &loaded.functions : nullptr;
}

} // namespace paddock::runtime::docker
