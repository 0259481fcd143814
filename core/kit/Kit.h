// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace paddock::kit {

/** @brief A decoded kit (placeholder until the model lands). */
struct Kit
{
    QString name;
};

} // namespace paddock::kit
