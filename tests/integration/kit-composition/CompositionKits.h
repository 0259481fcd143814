// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The mixins both composition tests load, under bubblewrap and on the Docker engine: a tool in
// two layers (the upper one's which-layer over the lower one's) with image variables, and an
// extra mixin that requires it and writes which-layer once more.
#include "../../unit/kit-v3/OciKitArchive.h"

namespace paddock::test {

inline const QByteArray kExtraDescriptor = R"({"schemaVersion":"3","kind":"mixin","requires":["tool >= 1.0"]})";

inline QByteArray script(const QByteArray &line)
{
    return "#!/bin/sh\n" + line + "\n";
}

/** The folders down to usr/local/bin, and which-layer saying @p who. */
inline QList<RawMember> localBin(const QByteArray &who)
{
    return {folder("usr"), folder("usr/local"), folder("usr/local/bin"),
            file("usr/local/bin/which-layer", script("echo " + who), 0755)};
}

/** The tool mixin with @p descriptor: hello-tool, tool-path on its PATH, TOOL_HOME. */
inline OciKit toolMixin(const QByteArray &descriptor)
{
    OciKit tool;
    tool.refName = QStringLiteral("registry.example/kits/tool:1");
    tool.layers = {
        tarOf(localBin("tool, lower layer")),
        tarOf(localBin("tool") +
              QList<RawMember>{file("usr/local/bin/hello-tool", script("echo hello from the tool mixin"), 0755),
                               folder("opt"), folder("opt/tool"), folder("opt/tool/bin"),
                               file("opt/tool/bin/tool-path", script("echo found on PATH"), 0755)})};
    tool.config = QJsonObject{{QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/opt/tool/bin"),
                                                                 QStringLiteral("TOOL_HOME=/opt/tool")}}};
    tool.manifestAnnotations = kitAnnotations(descriptor);
    return tool;
}

/** The extra mixin: which-layer saying "extra", over the tool's. */
inline OciKit extraMixin()
{
    OciKit extra;
    extra.refName = QStringLiteral("registry.example/kits/extra:1");
    extra.layers = {tarOf(localBin("extra"))};
    extra.manifestAnnotations = kitAnnotations(kExtraDescriptor);
    return extra;
}

} // namespace paddock::test
