// SPDX-License-Identifier: GPL-3.0-or-later
// An interactive sandbox gets a terminal of its own, relayed to the caller's: keystrokes in,
// output out, and nothing inside can reach the caller's terminal itself.
#include "../bwrap-support/BwrapTestSupport.h"

#include <QtTest>

#include <thread>

#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

using paddock::runtime::BwrapRuntime;
using paddock::runtime::SandboxSpec;
using paddock::testing::SandboxTestBed;

class TestBwrapTerminal : public QObject
{
    Q_OBJECT

private:
    /** Runs @p spec with a fresh pseudo-terminal as the caller's terminal, typing @p input. */
    static QByteArray runOnTerminal(BwrapRuntime &runtime, const SandboxSpec &spec, const QByteArray &input,
                                    int *exitCode)
    {
        int master = -1, slave = -1;
        if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0)
            return "<no pty>";
        runtime.create(spec);
        std::thread sandbox([&] { *exitCode = runtime.start(spec.name, {slave, slave, slave}).exitCode.value_or(-1); });
        QByteArray output;
        bool typed = false;
        char buffer[4096];
        for (;;) {
            pollfd fd{master, POLLIN, 0};
            if (::poll(&fd, 1, 20000) <= 0)
                break;
            const ssize_t n = ::read(master, buffer, sizeof buffer);
            if (n <= 0)
                break;
            output.append(buffer, n);
            if (!typed && output.contains("ready")) {
                typed = true;
                [[maybe_unused]] const ssize_t w = ::write(master, input.constData(), size_t(input.size()));
            }
            if (output.contains("finished"))
                break;
        }
        sandbox.join();
        ::close(master);
        ::close(slave);
        return output;
    }

private slots:
    void relaysKeystrokesAndOutput()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        SandboxSpec spec = bed.spec(QStringLiteral("interactive"),
                                    QStringLiteral("test -t 0 && test -t 1 && echo on-a-terminal; echo ready; "
                                                   "read line; echo \"got:$line\"; echo finished"));
        spec.interactive = true;
        int exitCode = -1;
        const QByteArray output = runOnTerminal(runtime, spec, "hello\r", &exitCode);
        QVERIFY2(output.contains("on-a-terminal"), output.constData());
        QVERIFY2(output.contains("got:hello"), output.constData());
        QCOMPARE(exitCode, 0);
    }

    void cannotInjectIntoTheCallersTerminal()
    {
        SandboxTestBed bed;
        BwrapRuntime runtime;
        // TIOCSTI (0x5412) pushes a character into a terminal's input as if typed: a sandbox
        // sharing the caller's session could type commands into the caller's shell.
        SandboxSpec spec =
            bed.spec(QStringLiteral("no-inject"),
                     QStringLiteral("perl -e 'require \"sys/ioctl.ph\"; my $c = \"X\"; "
                                    "print ioctl(STDIN, 0x5412, $c) ? \"injected\\n\" : \"refused\\n\"'"));
        QVERIFY(runtime.create(spec).ok);
        int master = -1, slave = -1;
        QCOMPARE(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
        // The caller must hold the terminal as its controlling terminal, as a shell's child
        // does; only a process of a fresh session can take one, so the caller is a child here.
        const pid_t caller = ::fork();
        if (caller == 0) {
            ::close(master);
            ::setsid();
            ::ioctl(slave, TIOCSCTTY, 0);
            const auto result = runtime.start(spec.name, {slave, slave, slave});
            ::_exit(result.exitCode.value_or(99));
        }
        int status = 0;
        QCOMPARE(::waitpid(caller, &status, 0), caller);
        // What the sandbox printed, then whatever sits in the caller's terminal input.
        QByteArray output;
        char buffer[4096];
        pollfd fd{master, POLLIN, 0};
        while (::poll(&fd, 1, 200) > 0) {
            const ssize_t n = ::read(master, buffer, sizeof buffer);
            if (n <= 0)
                break;
            output.append(buffer, n);
        }
        QVERIFY(WIFEXITED(status));
        QVERIFY2(WEXITSTATUS(status) == 0, output.constData());
        QVERIFY2(output.contains("refused"), output.constData());
        ::fcntl(slave, F_SETFL, O_NONBLOCK);
        QCOMPARE(::read(slave, buffer, sizeof buffer), ssize_t(-1));
        ::close(master);
        ::close(slave);
    }
};

QTEST_GUILESS_MAIN(TestBwrapTerminal)
#include "tst_bwrap_terminal.moc"
