# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: reaches for host processes (given by their host pids) and for the
# sandbox's own supervisor (pid 1), and prints "NAME RESULT" per attempt: "0" when it worked,
# else the errno's name. Then "environ-dump" and every environment it could read, for the test
# to search for the host's variables.
import ctypes, errno, os, sys, time

libc = ctypes.CDLL(None, use_errno=True)
PTRACE_ATTACH, PTRACE_DETACH = 16, 17
host_pids = [int(pid) for pid in sys.argv[1:]]

class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

def name(code):
    return errno.errorcode.get(code, str(code))

def ptrace_attach(pid):
    ctypes.set_errno(0)
    if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
        os.waitpid(pid, 0) if pid != os.getpid() else None
        libc.ptrace(PTRACE_DETACH, pid, None, None)
        return "0"
    return name(ctypes.get_errno())

def vm_read(pid):
    buffer = ctypes.create_string_buffer(16)
    local = IoVec(ctypes.cast(buffer, ctypes.c_void_p), 16)
    remote = IoVec(ctypes.c_void_p(0x400000), 16)
    ctypes.set_errno(0)
    if libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) >= 0:
        return "0"
    code = ctypes.get_errno()
    return "0" if code == errno.EFAULT else name(code)  # EFAULT: it got as far as the memory

def read(path):
    try:
        with open(path, "rb") as f:
            f.read(64)
        return "0"
    except OSError as error:
        return name(error.errno)

def listdir(path):
    try:
        os.listdir(path)
        return "0"
    except OSError as error:
        return name(error.errno)

def signal(pid):
    try:
        os.kill(pid, 0)
        return "0"
    except OSError as error:
        return name(error.errno)

def visible():
    seen = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    seen.append(f.read().strip())
            except OSError:
                pass
    return ",".join(sorted(set(seen)))

def own_child(attempt):
    # A process of the probe's own, which it may trace and read: shows the attempts work.
    child = os.fork()
    if child == 0:
        time.sleep(60)
        os._exit(0)
    try:
        return attempt(child)
    finally:
        os.kill(child, 9)
        os.waitpid(child, 0)

def open_fds(pid):
    # Listing the numbers is harmless; opening one would hand over the descriptor itself.
    opened = "EACCES"
    try:
        entries = os.listdir(f"/proc/{pid}/fd")
    except OSError as error:
        return name(error.errno)
    for entry in entries:
        try:
            os.close(os.open(f"/proc/{pid}/fd/{entry}", os.O_RDONLY))
            return "0"
        except OSError as error:
            opened = name(error.errno)
    return opened

tries = {"ptrace-own-child": lambda: own_child(ptrace_attach), "vm-read-own-child": lambda: own_child(vm_read),
         "fds-own-child": lambda: own_child(open_fds)}
for index, pid in enumerate(host_pids):
    tries[f"ptrace-host-{index}"] = lambda pid=pid: ptrace_attach(pid)
    tries[f"vm-read-host-{index}"] = lambda pid=pid: vm_read(pid)
    tries[f"environ-host-{index}"] = lambda pid=pid: read(f"/proc/{pid}/environ")
    tries[f"mem-host-{index}"] = lambda pid=pid: read(f"/proc/{pid}/mem")
    tries[f"signal-host-{index}"] = lambda pid=pid: signal(pid)
tries.update({
    "ptrace-init": lambda: ptrace_attach(1),
    "vm-read-init": lambda: vm_read(1),
    "environ-init": lambda: read("/proc/1/environ"),
    "mem-init": lambda: read("/proc/1/mem"),
    "fds-init": lambda: open_fds(1),
    "root-init": lambda: listdir("/proc/1/root/"),
})
for label, attempt in tries.items():
    print(label, attempt(), flush=True)
print("processes", visible(), flush=True)
print("environ-dump", flush=True)
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                sys.stdout.write(f.read().replace(b"\0", b"\n").decode(errors="replace"))
        except OSError:
            pass
sys.stdout.flush()
