// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

class SandboxService;

/**
 * The event log as clients read it, through the daemon, its one reader and writer (the CLI
 * and the window open no database). Each call first writes what the proxy did until then, so
 * a refusal a client has seen is in the answer.
 *
 *   events.log      {sandbox?, since?, limit?}  the policy log: {blocked, allowed, failed}
 *                                               (events::toJson(PolicyLog))
 *   events.export   {sandbox?, since?, until?, offset?, limit?}  stored refusals and upstream
 *                                               failures, oldest first, a page at a time:
 *                                               {events: [NetworkEvent::toJson()...]}; a page
 *                                               ends before 1 MiB, an empty one ends the export
 *   events.requests {sandbox?, host?, since?, until?, limit?, oldestFirst?}  request records:
 *                                               {requests: [...], truncated}
 *   events.activity {sandbox?, hours?, buckets?, hosts?, perSandbox?, until?}  connections summed
 *                                               in SQL over the last `hours` (1 to 168, default 1)
 *                                               in `buckets` (default 60) of whole minutes: per
 *                                               bucket, the `hosts` busiest destinations (default
 *                                               20, at most 100) and, asked, per sandbox
 *                                               (events::toJson(Activity))
 *
 * `since` and `until` are times such as 2026-01-31T09:15:02.345Z.
 */
void registerEventLogMethods(api::Server &server, SandboxService &sandboxes);

} // namespace paddock::sandbox
