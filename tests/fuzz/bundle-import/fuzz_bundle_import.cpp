// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the bundle importer, as a .paddock file a student might be sent.
// It must refuse or accept with a sentence, never crash, hang or allocate without bound; a
// bundle it accepts names its kit with a kit name (a folder name, never a path); and whatever
// the tar reader accepts must survive being written and read again unchanged.
#include "bundle/Bundle.h"
#include "bundle/TarArchive.h"
#include "kit/KitRules.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace paddock::bundle;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    const OpenResult opened = openBundleData(bytes);
    if (!opened.bundle && opened.error.isEmpty())
        std::abort(); // a refusal always says why
    if (opened.bundle && (!paddock::kit::rules::isValidKitName(opened.bundle->kit.name) ||
                          !paddock::kit::rules::isValidKitName(opened.bundle->manifest.kitName)))
        std::abort(); // the import would create a folder named after it

    const TarReadResult read = readTar(bytes);
    if (read.ok()) {
        QString error;
        const QByteArray written = writeTar(read.entries, &error);
        if (!written.isEmpty()) {
            const TarReadResult again = readTar(written);
            if (!again.ok() || again.entries.size() != read.entries.size())
                std::abort();
            for (qsizetype i = 0; i < read.entries.size(); ++i) {
                const TarEntry &a = read.entries.at(i);
                const TarEntry &b = again.entries.at(i);
                if (a.path != b.path || a.type != b.type || a.executable != b.executable || a.data != b.data)
                    std::abort();
            }
        }
    }
    return 0;
}
