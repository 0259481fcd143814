# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: tries to get around the capture of its connections and prints
# "NAME RESULT" per line, RESULT being "done" when the attempt worked, else the error's name.
import ctypes, errno, socket, subprocess

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000

def outcome(attempt):
    try:
        attempt()
        return "done"
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))

def own_namespace():
    # A namespace of its own would have no capture, and a way out only if it had a device.
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "unshare")

def packet_socket():
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3)).close()

def raw_socket():
    socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_TCP).close()

def netlink(command):
    def attempt():
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise OSError(errno.EPERM if "not permitted" in result.stderr else errno.EIO, result.stderr)
    return attempt

def nftables_socket():
    # Deleting the table would take capture away: the kernel refuses the socket's batch.
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 12)  # NETLINK_NETFILTER
    import struct
    nfgen = struct.pack("BBH", 1, 0, socket.htons(10))  # NFPROTO_INET, NFNETLINK_V0, NFNL_SUBSYS_NFTABLES
    name = b"paddock\0"
    attribute = struct.pack("HH", 4 + len(name), 1) + name + b"\0" * ((4 - len(name) % 4) % 4)
    def message(kind, flags, body):
        return struct.pack("IHHII", 16 + len(body), kind, flags, 1, 0) + body
    batch = (message(0x10, 1, struct.pack("BBH", 0, 0, socket.htons(10))) +
             message((10 << 8) | 2, 1 | 4, nfgen + attribute) +  # NFT_MSG_DELTABLE, request + ack
             message(0x11, 1, struct.pack("BBH", 0, 0, socket.htons(10))))
    s.send(batch)
    answer = s.recv(4096)
    code = struct.unpack("i", answer[16:20])[0]
    if code != 0:
        raise OSError(-code, "nftables")

tries = {
    "own-namespace": own_namespace,
    "packet-socket": packet_socket,
    "raw-socket": raw_socket,
    "route-delete": netlink(["ip", "route", "del", "default"]),
    "route-add": netlink(["ip", "route", "add", "192.0.2.0/24", "dev", "lo"]),
    "nftables-delete": nftables_socket,
}
for name, attempt in tries.items():
    print(name, outcome(attempt), flush=True)
