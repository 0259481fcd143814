// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Private to core/kit: the strict decoder behind decodeV3Descriptor(). The top level, args and
// the capability list are read in KitV3Descriptor.cpp, capability configurations in
// KitV3Configs.cpp.

#include "kit/KitDecoder.h"
#include "kit/KitV3Descriptor.h"

#include <QJsonValue>

#include <initializer_list>

namespace paddock::kit::detail {

/** @brief The shape of a value in a capability configuration. */
enum class V3Type {
    String,
    Bool,
    Integer,
    Number,
    StringList,
    Object,
    ObjectList,
    Command, ///< a string (run with sh -c) or a list of strings
    Any,
};

/** @brief One field of a capability configuration: its name, shape and, for objects, its fields. */
struct V3Field
{
    const char *name;
    V3Type type;
    bool required = false;
    const std::vector<V3Field> *fields = nullptr; ///< for Object and ObjectList
};

class V3Decoder
{
public:
    V3Decoder(const QString &file, QList<Diagnostic> &diagnostics) : m_file(file), m_diagnostics(diagnostics) {}

    std::optional<V3Descriptor> decode(const YAML::Node &root, const QByteArray &text);

    // -- primitives (KitV3Descriptor.cpp) -------------------------------------------------
    void error(const YAML::Node &node, const QString &message);
    void warning(const YAML::Node &node, const QString &message);
    /** Reports each key of @p map not in @p known as an unknown field of @p path. */
    void checkFields(const YAML::Node &map, const QString &path, const QStringList &known);
    bool expectMap(const YAML::Node &value, const QString &path);
    std::optional<QString> text(const YAML::Node &value, const QString &path);
    std::optional<bool> boolean(const YAML::Node &value, const QString &path);
    QStringList textList(const YAML::Node &value, const QString &path);
    /** @p value as JSON (plain scalars typed as YAML reads them), bounded in depth and size. */
    QJsonValue toJson(const YAML::Node &value, int depth);

    // -- capability configurations (KitV3Configs.cpp) ---------------------------------------
    /** Checks the configuration of a well-known type strictly; unknown types pass. */
    void checkConfig(const QString &type, const YAML::Node &config, bool stated, const QString &path);
    void checkArity(const V3Descriptor &descriptor);
    void checkInjectDomains(const V3Descriptor &descriptor);
    /** agent-interactive-sessions@1's newSession and lifecycle@1's interactive tail agree (KitV3Agent.cpp). */
    void checkInteractiveAgreement(const V3Descriptor &descriptor);

private:
    void readTopLevel(const YAML::Node &key, const YAML::Node &value, V3Descriptor &d);
    void readArgs(const YAML::Node &value, V3Descriptor &d);
    void readArg(const YAML::Node &nameNode, const YAML::Node &body, V3Descriptor &d);
    void readKits(const YAML::Node &value, V3Descriptor &d);
    void readCapabilities(const YAML::Node &value, V3Descriptor &d);
    void readCapability(const YAML::Node &item, const QString &path, int group, V3Descriptor &d);
    void readGroup(const YAML::Node &body, const QString &path, V3Descriptor &d);
    void checkNames(const YAML::Node &value, const QString &field, const QStringList &entries);
    void checkRules(const YAML::Node &root, const V3Descriptor &d, const QByteArray &text);
    void checkShape(const YAML::Node &value, const V3Field &field, const QString &path);
    void checkObject(const YAML::Node &value, const std::vector<V3Field> &fields, const QString &path);
    void checkValues(const QString &type, const YAML::Node &config, const QString &path);
    void checkLifecycle(const YAML::Node &config, const QString &path);
    // -- agent-sessions@1, agent-interactive-sessions@1, agent-context@1 (KitV3Agent.cpp) --------
    void checkAgentVerbs(const YAML::Node &config, const QString &path, bool interactive);
    void checkAgentContext(const YAML::Node &config, const QString &path);
    void checkSshAgent(const YAML::Node &config, const QString &path);

    QString m_file;
    QList<Diagnostic> &m_diagnostics;
    int m_jsonNodes = 0;
};

/** ssh-agent@1's `phase` (a string or a list) as a list. */
QStringList sshAgentPhases(const QJsonObject &config);

/** The capability name grammar of provides/requires/conflicts: "name" or "namespace/name". */
bool isV3CapabilityName(const QString &name);
/** `[0-9]+(\.[0-9A-Za-z-]+)*`: no "v" prefix. */
bool isV3Version(const QString &version);

} // namespace paddock::kit::detail
