// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "agentperms/AgentConfig.h"
#include "agentperms/Jsonc.h"

#include <QString>

namespace paddock::agentperms {

/**
 * @brief Changes a pi-permission-system config in its JSONC text, one member at a time,
 * leaving every other character as it was: comments, key order, spacing, quoting.
 *
 * Each change parses the text again, finds the member concerned, and splices only its
 * characters (and the comma next to it): a changed state rewrites one value; a new pattern
 * is one new line after the surface's last pattern, indented like its neighbours; a removed
 * one takes its line with it, and a surface map left empty goes too, so adding then removing
 * a pattern gives back the original bytes. An empty text is a new file.
 *
 * Every method returns false with @p error (one sentence) and leaves the text unchanged when
 * the text does not parse or the change cannot be made.
 */
class ConfigEditor
{
public:
    explicit ConfigEditor(QString text = {});

    const QString &text() const { return m_text; }

    /**
     * Sets @p pattern of @p surface to @p state: the value changes in place when the pattern
     * exists, else it is appended (last, so it wins over the patterns before it). A surface
     * written as a string becomes a map whose first pattern is `*` with the old state.
     * A deny written with a reason keeps its reason when set to deny again.
     */
    bool setRule(const QString &surface, const QString &pattern, State state, QString *error);
    /** Writes @p surface as the string shorthand: `"bash": "ask"`. */
    bool setSurface(const QString &surface, State state, QString *error);
    /** Removes @p pattern from @p surface (pattern `*` of a shorthand removes the surface). */
    bool removeRule(const QString &surface, const QString &pattern, QString *error);
    bool removeSurface(const QString &surface, QString *error);
    /** Moves @p pattern of @p surface to place @p index (0-based) among the surface's patterns. */
    bool moveRule(const QString &surface, const QString &pattern, int index, QString *error);

private:
    std::optional<JsonNode> parse(QString *error) const;
    const JsonNode::Member *findSurface(const JsonNode &root, const QString &surface, QString *error) const;
    /** Parses the text into @p root and finds @p surface in it (@p entry null when absent). */
    bool locateSurface(const QString &surface, std::optional<JsonNode> *root, const JsonNode::Member **entry,
                       QString *error) const;
    /** Appends `"key": VALUE` as the last member of @p object. @p value is already rendered. */
    void appendMember(const JsonNode &object, const QString &key, const QString &value);
    void removeMember(const JsonNode &object, std::size_t index);
    /** Removes the last member of @p object named @p key, if there is one. */
    void removeLastMemberNamed(const JsonNode &object, const QString &key);
    void moveLines(const std::vector<JsonNode::Member> &members, const std::vector<std::size_t> &order);
    QString indentOf(qsizetype offset) const;
    QString memberIndent(const JsonNode &object) const;
    QString renderRules(const QList<std::pair<QString, QString>> &rules, const QString &indent) const;

    QString m_text;
    QString m_unit = QStringLiteral("  ");
};

} // namespace paddock::agentperms
