// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringView>

namespace paddock::gui {

/**
 * @brief Turns what a program wrote to its terminal into text to read and search: escape
 * sequences (colours, cursor moves, titles) and carriage returns go, lines stay.
 *
 * An agent runs in a terminal of its own, so its log holds what the terminal got. Fed in
 * chunks: a sequence split between two chunks is held until it ends.
 */
class TerminalText
{
public:
    QString feed(QStringView chunk);
    void reset() { m_state = State::Text; }

private:
    enum class State {
        Text,
        Escape,
        Csi,
        Osc,
        OscEscape
    };
    State m_state = State::Text;
};

} // namespace paddock::gui
