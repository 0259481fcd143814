// SPDX-License-Identifier: GPL-3.0-or-later
// Classroom bundles as the daemon reads, imports and packs them: the one writer of an imported
// kit and of the policy it brings, whoever asks.
#pragma once

namespace paddock::api {
class Server;
}

namespace paddock::policy {
class PolicyStore;
}

namespace paddock::sandbox {

/**
 * Registers (FILE: an absolute path the person named, read by the daemon, which runs as the
 * same user; the bundle in it is hostile input, checked as bundle::openBundle() checks it):
 *
 *   bundle.preview {file, into?: ABSOLUTE, replace?: bool} → PLAN: what importing would change,
 *                  nothing written.
 *   bundle.import  {file, into?, replace?, applyPolicy: bool} → PLAN + {imported: true,
 *                  rulesAdded}: the kit written and, with @c applyPolicy, the bundle's preset and
 *                  rules put into policy.yaml and in force before the answer. Without it the
 *                  network policy is left as it is.
 *   bundle.export  {kit: DIR, output: ABSOLUTE | folder: ABSOLUTE, policy?: bool, notes?,
 *                  engine?} → {output, kit, fileCount, bytes, policy?: {preset, rules},
 *                  secrets: [SERVICE], engine}: the kit (and with @c policy the preset and
 *                  rules of policy.yaml) packed and written atomically to @c output, or to
 *                  KIT-NAME.paddock in @c folder.
 *
 * PLAN is {kit: {name, version}, createdBy, warnings: [..], notes, engine, engineKnown: bool
 * (this computer has that engine), destination, replacesExisting, fileCount, bytes,
 * files: [{path, executable}] (the first 40), moreFiles, hasPolicy, presetChanges,
 * currentPreset, newPreset, rules: [{description, alreadyPresent}], policyChanges: [..]
 * (sentences, empty when the policy would not change), hasAgentRules, agentRules: [..],
 * agentRuleProblems: [..], secrets: [{service, description, required, domains}],
 * hostGrants: [{pattern, reach}], hasDockerfile, image}.
 *
 * Errors: `invalid-params`, `bundle-refused` (the file is not a bundle Paddock
 * accepts; the sentence says why), `kit-failed` (the plan or the writing failed).
 */
void registerBundleMethods(api::Server &server, policy::PolicyStore &policyStore);

} // namespace paddock::sandbox
