// SPDX-License-Identifier: GPL-3.0-or-later
#include "TerminalText.h"

namespace paddock::gui {

QString TerminalText::feed(QStringView chunk)
{
    QString text;
    text.reserve(chunk.size());
    for (const QChar c : chunk) {
        const char16_t u = c.unicode();
        switch (m_state) {
        case State::Text:
            if (u == 0x1b)
                m_state = State::Escape;
            else if (u == u'\n' || u == u'\t' || u >= 0x20)
                text.append(c);
            // Other control characters (\r, backspace, bell) are not text.
            break;
        case State::Escape:
            // ESC [ starts a control sequence, ESC ] an operating-system command; any other
            // character ends a two-character sequence.
            m_state = u == u'[' ? State::Csi : u == u']' ? State::Osc : State::Text;
            break;
        case State::Csi:
            if (u >= 0x40 && u <= 0x7e)
                m_state = State::Text; // the final byte
            break;
        case State::Osc:
            if (u == 0x07)
                m_state = State::Text;
            else if (u == 0x1b)
                m_state = State::OscEscape;
            break;
        case State::OscEscape:
            m_state = u == u'\\' ? State::Text : State::Osc;
            break;
        }
    }
    return text;
}

} // namespace paddock::gui
