// SPDX-License-Identifier: GPL-3.0-or-later
#include "kit/KitLoader.h"

namespace paddock::kit {

KitLoadResult KitLoader::loadDirectory(const QString &, const KitLoadOptions &) { return {}; }
KitLoadResult KitLoader::loadText(const QByteArray &, const QString &, const KitLoadOptions &) { return {}; }

} // namespace paddock::kit
