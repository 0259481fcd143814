// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// agent-context@1 of a schemaVersion "3" kit: the profile file the agent reads (AGENTS.md,
// CLAUDE.md, ...), written when the sandbox is created, holding a section Paddock manages.

#include "common/Result.h"
#include "kit/Kit.h"
#include "runtime/SandboxSpec.h"

#include <QString>
#include <QStringList>

namespace paddock::sandbox {

/** The lines that open and close the section Paddock manages in a profile. */
inline constexpr char kContextBegin[] = "<!-- paddock:begin: written by Paddock, edits here are replaced -->";
inline constexpr char kContextEnd[] = "<!-- paddock:end -->";

/** @p text with every `paddock:begin` / `paddock:end` marker made inert: kit text never opens or closes the section. */
QString neutralisedContext(const QString &text);

/** @brief Where one kit's instructions are inside the sandbox, and which kit of a composition gave them. */
struct ContextBody
{
    QString path;
    QString kitName; ///< empty: @p kit of contextSection() itself
    QString kitDisplayName;
};

/**
 * The managed section (from kContextBegin to kContextEnd, each on its own line) for @p kit,
 * whose bodies are @p bodies (one per entry with a body, in composition and declaration order):
 * runtime guidance (the network goes through Paddock's proxy, refused hosts can be asked for in
 * the window) and a "Kits" index saying where each kit's instructions are, each line naming
 * the kit that gave them.
 */
QString contextSection(const kit::Kit &kit, const QList<ContextBody> &bodies);

/**
 * @p existing with its managed section replaced by @p section, or, without one, @p section
 * first and @p existing after it: what the person wrote outside the section stays as it was.
 */
QString mergeContextSection(const QString &existing, const QString &section);

/**
 * Writes the profile(s) of @p kit's agent-context@1 entries when its sandbox is created: each
 * explicit profile (`directory` + `filename`), else the kit's `filename` in the sandbox's home
 * (the workspace's parent is the person's own folder here, outside the sandbox; the home is
 * the place outside the checkout). An inline `content` goes to `.paddock-kits/KIT.md` beside
 * the profile; a staged `contentFile` is pointed at as it is. Paths inside the sandbox are
 * translated to @p homeDir or the workspace; a profile elsewhere is not written, with a note.
 * Files are read and written without following links (the sandbox can write both places), an
 * existing profile over 1 MiB is left alone with a note.
 */
Result<void> writeAgentContext(const kit::Kit &kit, const runtime::SandboxSpec &spec, const QString &homeDir,
                               QStringList *notes);

} // namespace paddock::sandbox
