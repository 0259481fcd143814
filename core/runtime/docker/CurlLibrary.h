// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <curl/curl.h>

#include <QString>

namespace paddock::runtime::docker {

/**
 * @brief The functions of libcurl the engine client calls, from libcurl loaded when a client
 * first needs it.
 *
 * Every `paddock` command links the engine client (exec and attach reach a Docker sandbox
 * themselves), but most never talk to an engine. Linked at build time, libcurl and the thirty
 * libraries it brings (Kerberos, LDAP, SSH, RTMP...) were loaded and relocated at every start:
 * about 5 ms of CPU of a command's ~13. Loaded here on first use, only a command that reaches an
 * engine pays for them.
 */
struct CurlLibrary
{
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)();
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_send)(CURL *handle, const void *buffer, size_t length, size_t *sent);
    CURLcode (*easy_recv)(CURL *handle, void *buffer, size_t length, size_t *received);
    curl_slist *(*slist_append)(curl_slist *list, const char *text);
    void (*slist_free_all)(curl_slist *list);
};

/**
 * libcurl, loaded and initialised once for the process (thread-safe); nullptr when it cannot be
 * loaded, with why in @p problem (the library's file name and the loader's message).
 */
const CurlLibrary *curlLibrary(QString *problem = nullptr);

} // namespace paddock::runtime::docker
