// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the kit loader, as a file a user might hand it, both without
// argument values (as `kit validate` reads) and with some (as `kit show --arg` does).
// The loader must answer with diagnostics, never crash or hang.
#include "kit/KitJson.h"
#include "kit/KitLoader.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace paddock::kit;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    const KitLoadResult validated = KitLoader::loadText(bytes, QStringLiteral("fuzz.yaml"));
    if (validated.kit)
        (void)toText(*validated.kit);

    KitLoadOptions show;
    show.requireArgValues = true;
    show.args.insert(QStringLiteral("token"), QStringLiteral("${{ kit.args.token }}"));
    show.args.insert(QStringLiteral("host"), QStringLiteral("example.com"));
    show.args.insert(QStringLiteral("version"), QStringLiteral("1.2"));
    const KitLoadResult shown = KitLoader::loadText(bytes, QStringLiteral("fuzz.yaml"), show);
    if (shown.kit)
        (void)toJson(*shown.kit);
    for (const Diagnostic &d : shown.diagnostics)
        (void)d.toString();
    return 0;
}
