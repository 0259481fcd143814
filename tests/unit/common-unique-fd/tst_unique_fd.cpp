// SPDX-License-Identifier: GPL-3.0-or-later
// UniqueFd closes what it owns exactly once, and nothing it gave away.

#include "common/UniqueFd.h"

#include <QtTest>

#include <fcntl.h>

using paddock::UniqueFd;

namespace {

bool isOpen(int fd)
{
    return ::fcntl(fd, F_GETFD) != -1;
}

int openNull()
{
    return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

} // namespace

class TestUniqueFd : public QObject
{
    Q_OBJECT

private slots:
    void closesWhenDestroyed()
    {
        int fd = -1;
        {
            const UniqueFd owned(openNull());
            fd = owned.get();
            QVERIFY(fd >= 0);
            QVERIFY(owned.valid());
        }
        QVERIFY(!isOpen(fd));
    }

    void moveTransfersOwnership()
    {
        UniqueFd first(openNull());
        const int fd = first.get();
        UniqueFd second(std::move(first));
        QCOMPARE(first.get(), -1); // NOLINT(bugprone-use-after-move): the moved-from state is the point
        QCOMPARE(second.get(), fd);
        UniqueFd third;
        third = std::move(second);
        QCOMPARE(third.get(), fd);
        QVERIFY(isOpen(fd));
        third = UniqueFd();
        QVERIFY(!isOpen(fd));
    }

    void releaseGivesTheDescriptorAway()
    {
        int fd = -1;
        {
            UniqueFd owned(openNull());
            fd = owned.release();
            QVERIFY(!owned.valid());
        }
        QVERIFY(isOpen(fd));
        ::close(fd);
    }

    void resetClosesTheOldOne()
    {
        UniqueFd owned(openNull());
        const int old = owned.get();
        const int next = openNull();
        owned.reset(next);
        QVERIFY(next != old); // both were open at once
        QVERIFY(!isOpen(old));
        QCOMPARE(owned.get(), next);
        QVERIFY(isOpen(next));
        owned.reset();
        QVERIFY(!isOpen(next));
        QVERIFY(!owned);
    }
};

QTEST_GUILESS_MAIN(TestUniqueFd)
#include "tst_unique_fd.moc"
