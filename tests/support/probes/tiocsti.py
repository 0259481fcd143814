# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox as its agent, on the terminal a person attached to: tries to push a
# command into the terminal's input with TIOCSTI through every descriptor it has and through
# /dev/tty, as a hostile program would to have the person's shell run it once they leave.
# Prints "tiocsti-TARGET RESULT" per try (0 when the kernel took the bytes, else the errno).
import errno, fcntl, os, termios

command = b"echo INJECTED-$((6*7))\n"
targets = {f"fd{fd}": fd for fd in (0, 1, 2)}
try:
    targets["dev-tty"] = os.open("/dev/tty", os.O_RDWR)
except OSError as error:
    print("tiocsti-dev-tty", errno.errorcode.get(error.errno, error.errno), flush=True)
for name, fd in targets.items():
    result = "0"
    for byte in command:
        try:
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
        except OSError as error:
            result = errno.errorcode.get(error.errno, str(error.errno))
            break
    print("tiocsti-" + name, result, flush=True)
