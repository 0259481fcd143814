# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: tries each kernel interface the seccomp filter refuses and prints
# "NAME errno" per line (0 when the call got through), for tst_sandbox_confinement to read.
import ctypes, errno, fcntl, os, sys, termios

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

def call(number, *args):
    ctypes.set_errno(0)
    rc = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    return 0 if rc >= 0 else ctypes.get_errno()

CLONE_NEWUSER = 0x10000000
tries = {
    "unshare-user": lambda: call(272, CLONE_NEWUSER),
    "keyctl": lambda: call(250, 0, 0, 0, 0, 0),
    "add_key": lambda: call(248, 0, 0, 0, 0, 0),
    "request_key": lambda: call(249, 0, 0, 0, 0),
    "bpf": lambda: call(321, 0, 0, 0),
    "userfaultfd": lambda: call(323, 0),
    "perf_event_open": lambda: call(298, 0, 0, 0, 0, 0),
    "kexec_load": lambda: call(246, 0, 0, 0, 0),
    "io_uring_setup": lambda: call(425, 1, 0),
    "mount": lambda: call(165, 0, 0, 0, 0, 0),
    "pivot_root": lambda: call(155, 0, 0),
    "setns": lambda: call(308, 0, 0),
    "clone3": lambda: call(435, 0, 0),
}
for name, attempt in tries.items():
    print(name, attempt())
try:
    fd = os.open("/dev/tty", os.O_RDWR) if os.isatty(0) is False else 0
except OSError:
    fd = 0
try:
    fcntl.ioctl(fd, termios.TIOCSTI, b"x")
    print("TIOCSTI", 0)
except OSError as e:
    print("TIOCSTI", e.errno)
sys.stdout.flush()
