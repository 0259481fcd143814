// SPDX-License-Identifier: GPL-3.0-or-later
// `kit load` and `kit pull` as the daemon carries them out: one writer of the kit library and
// the image store, whoever asks (the command line, the Kits page's Import).
#pragma once

#include <functional>
#include <memory>

namespace paddock::api {
class Server;
}

namespace paddock::proxy {
struct UpstreamProxy;
}

namespace paddock::sandbox {

/** The upstream (company) proxy in force for a pull, or null. */
using UpstreamProxyGetter = std::function<std::shared_ptr<const proxy::UpstreamProxy>()>;

/**
 * Registers, each carried out off the daemon's thread:
 *
 *   kit.load {file: ABSOLUTE PATH, name?, approve?: bool} → LOAD
 *   kit.pull {reference, name?, approve?: bool} → LOAD: the kit image fetched from its registry
 *            (through the upstream proxy in force) into an archive, then loaded as kit.load
 *   kit.build {path: ABSOLUTE PATH, tag?, name?, approve?: bool, args?: {NAME: VALUE}, run?} → LOAD: an
 *            authored kit (a `<stem>.yaml` or its folder, kit::readAuthoredKit()) built by the local
 *            Docker engine (the folder as build context, links kept inside, at most 1 GiB; RUN
 *            steps without network) into @c tag (default `paddock/kit-NAME:latest`), saved from the
 *            engine and loaded as kit.load with the published descriptor; origin.json names the
 *            folder (`builtFrom`). A declaration-only mixin is written without an image or engine.
 *            A descriptor that does not decode answers LOAD with its diagnostics. With a @c run
 *            token, each Dockerfile step is published on topic `image` as {kind: kit-build, run,
 *            step, totalSteps, percent, message} while the call is under way.
 *
 * LOAD is {loaded: bool, kit?: KIT, diagnostics: [{text, error: bool}], notes: [..],
 * widenings: [..], needsApproval: bool, refused: bool}: nothing is written when @c loaded is
 * false; @c refused says Paddock declined a kit it understood (a required capability it does
 * not implement, a widening without approval) rather than failed to read it. An update
 * of a loaded kit granted more than it (kit::loadKitArchive()) answers needsApproval with what
 * widens, in plain words, unless @c approve: the client asks the person, then calls again with
 * approve. KIT is {name, kind: workload|mixin, schemaVersion, reference, digest, directory,
 * provides: [..], capabilities: [{status, type, label, what}]}.
 *
 * The file is one the person named, read by the daemon, which runs as the same user. Errors:
 * `invalid-params`, `no-such-file`, `kit-failed` (a pull or a build that failed),
 * `engine-unavailable` (kit.build with no engine answering, and how to start one).
 */
void registerKitLoadMethods(api::Server &server, UpstreamProxyGetter upstream);

} // namespace paddock::sandbox
