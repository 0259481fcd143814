// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kit/Diagnostic.h"
#include "kit/Kit.h"

#include <QList>
#include <QString>

namespace paddock::kit {

/**
 * Checks the `files/` tree of the kit directory @p dir and lists what it copies.
 *
 * Only `files/home/` and `files/workspace/` are copied (anything else at the top of
 * `files/` is ignored, with a warning, as `sbx` does). A symbolic link must resolve
 * inside the kit directory; one that leaves it, or leads nowhere, is an error.
 */
QList<Diagnostic> checkFilesTree(const QString &dir, QList<KitFile> *files);

} // namespace paddock::kit
