// SPDX-License-Identifier: GPL-3.0-or-later
// The kit library's added folders (kits.yaml, kit/KitLibrary.h) as the daemon keeps them: one
// writer, whoever asks, and the list read where it is written.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::sandbox {

/**
 * Registers (ENTRY: a kit of the library as kit::toJson(KitEntry) gives it):
 *
 *   kit.list   {} → {kits: [ENTRY], configError}: added kits first, then imported ones, then
 *              samples, each read and validated now; @c configError is why kits.yaml could
 *              not be read (its added kits are then not listed), else empty.
 *   kit.add    {directory: ABSOLUTE} → {added: bool, kit: ENTRY}: the folder, which must hold a
 *              spec.yaml (the kit may still be invalid), into kits.yaml; @c added is false when
 *              it was there already or is a sample.
 *   kit.forget {kit: NAME | ABSOLUTE FOLDER} → {forgotten: FOLDER}: an added kit out of
 *              kits.yaml; its files are untouched.
 *
 * Errors: `invalid-params`, `kit-failed` (the sentence says why: not a kit folder, no such
 * added kit, kits.yaml unreadable and left as it is).
 */
void registerKitLibraryMethods(api::Server &server);

} // namespace paddock::sandbox
