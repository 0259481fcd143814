// SPDX-License-Identifier: GPL-3.0-or-later
// KitLibrary: an added folder holding an authored schemaVersion "3" descriptor (STEM/STEM.yaml),
// listed from its decoded descriptor and edited in place.
#include "kit/KitLibrary.h"

#include "kit/KitV3Authored.h"
#include "kit/KitV3Descriptor.h"

#include <QFile>
#include <QFileInfo>

namespace paddock::kit {

QString authoredDescriptorOfFolder(const QString &directory)
{
    if (!QFileInfo(directory).isDir())
        return {};
    QString ignored;
    const QString descriptor = authoredDescriptorFile(directory, &ignored);
    QFile file(descriptor);
    if (descriptor.isEmpty() || !file.open(QIODevice::ReadOnly) ||
        !declaresSchemaV3(file.read(kV3DescriptorMaxBytes + 1)))
        return {};
    return descriptor;
}

bool readAuthoredEntry(const QString &directory, KitEntry &entry)
{
    const QString descriptor = authoredDescriptorOfFolder(directory);
    QFile file(descriptor);
    if (descriptor.isEmpty() || !file.open(QIODevice::ReadOnly))
        return false;
    const V3DecodeResult decoded = decodeV3Descriptor(file.read(kV3DescriptorMaxBytes + 1), descriptor);
    entry.authored = true;
    entry.schemaVersion = QStringLiteral("3");
    entry.name = QFileInfo(descriptor).completeBaseName();
    entry.diagnostics = decoded.diagnostics;
    for (const Diagnostic &d : decoded.diagnostics)
        (d.isError() ? entry.errorCount : entry.warningCount)++;
    if (decoded.descriptor) {
        entry.kind = decoded.descriptor->kind;
        entry.displayName = decoded.descriptor->displayName;
        entry.version = decoded.descriptor->version;
        entry.description = decoded.descriptor->description;
        entry.provides = decoded.descriptor->provides;
    }
    return true;
}

} // namespace paddock::kit
