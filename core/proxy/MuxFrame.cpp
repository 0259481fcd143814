// SPDX-License-Identifier: GPL-3.0-or-later
#include "proxy/MuxFrame.h"

namespace paddock::proxy::mux {
namespace {

void appendU32(std::string &out, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(char((value >> shift) & 0xff));
}

std::uint32_t readU32(const char *data)
{
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i)
        value = (value << 8) | std::uint8_t(data[i]);
    return value;
}

} // namespace

void append(std::string &out, Type type, std::uint32_t id, std::string_view payload)
{
    out.push_back(char(type));
    appendU32(out, id);
    appendU32(out, std::uint32_t(payload.size()));
    out.append(payload);
}

void appendCredit(std::string &out, std::uint32_t id, std::uint32_t bytes)
{
    std::string count;
    appendU32(count, bytes);
    append(out, Type::Credit, id, count);
}

bool creditOf(const Frame &frame, std::uint32_t *bytes)
{
    if (frame.type != Type::Credit || frame.payload.size() != 4)
        return false;
    *bytes = readU32(frame.payload.data());
    return true;
}

Reader::Next Reader::next(Frame *frame)
{
    // What the previous frame pointed into may go now.
    if (m_offset > 0) {
        m_buffer.erase(0, m_offset);
        m_offset = 0;
    }
    if (m_buffer.size() < HeadBytes)
        return Next::NeedMore;
    const auto type = std::uint8_t(m_buffer[0]);
    const std::uint32_t length = readU32(m_buffer.data() + 5);
    if (type < std::uint8_t(Type::Open) || type > std::uint8_t(Type::OpenPort) || length > MaxPayload)
        return Next::Broken;
    if ((type == std::uint8_t(Type::Open) || type == std::uint8_t(Type::Close) ||
         type == std::uint8_t(Type::OpenPort)) &&
        length != 0)
        return Next::Broken;
    if (m_buffer.size() < HeadBytes + length)
        return Next::NeedMore;
    frame->type = Type(type);
    frame->id = readU32(m_buffer.data() + 1);
    frame->payload = std::string_view(m_buffer.data() + HeadBytes, length);
    m_offset = HeadBytes + length;
    return Next::Frame;
}

} // namespace paddock::proxy::mux
