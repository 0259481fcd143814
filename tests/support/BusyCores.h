// SPDX-License-Identifier: GPL-3.0-or-later
// A loaded machine for tests of "in force when the command returns": shells spinning on the
// cores while the test acts, stopped when the object goes.
#pragma once

#include <QProcess>
#include <QStringList>

#include <memory>
#include <vector>

namespace paddock::test {

/** @brief @p count shells, each spinning on a core, for as long as this object lives. */
class BusyCores
{
public:
    explicit BusyCores(int count = 2)
    {
        for (int i = 0; i < count; ++i) {
            m_shells.push_back(std::make_unique<QProcess>());
            m_shells.back()->start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("while :; do :; done")});
        }
    }
    ~BusyCores()
    {
        for (auto &shell : m_shells)
            shell->kill();
        for (auto &shell : m_shells)
            shell->waitForFinished();
    }
    BusyCores(const BusyCores &) = delete;
    BusyCores &operator=(const BusyCores &) = delete;

private:
    std::vector<std::unique_ptr<QProcess>> m_shells;
};

} // namespace paddock::test
