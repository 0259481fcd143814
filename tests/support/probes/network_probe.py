# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: tries every way out but the proxy, and every host socket it might find,
# and prints "NAME RESULT" per line: "reached" when it got through, else what stopped it: the
# error (ENETUNREACH, ENOENT, EPERM, ...), "reset" for a TCP connection the sandbox's capture took
# and the proxy refused, "inside" for a name answered by the sandbox's own resolver (an address of
# 198.18.0.0/15, which leads nowhere but back to Paddock). Arguments, each NAME=VALUE: the host's
# addresses and ports to aim at, and the host sockets to try (a path, or @NAME for an abstract socket).
import errno, ipaddress, os, socket, sys

targets = dict(argument.split("=", 1) for argument in sys.argv[1:])

INSIDE = ipaddress.ip_network("198.18.0.0/15")

def outcome(attempt):
    try:
        return attempt() or "reached"
    except socket.gaierror as error:
        return "EAI_" + str(error.errno).lstrip("-")
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))

def tcp(family, address, port):
    # A connect alone proves little where capture takes every connection: what answers does.
    def attempt():
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(3)
            s.connect((address, port))
            try:
                s.sendall(b"probe\n")
                return "reached" if s.recv(1) else "closed"
            except ConnectionResetError:
                return "reset"
            except socket.timeout:
                return "reached"  # something holds the connection open: a server
    return attempt

def udp(family, address, port, payload):
    def attempt():
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.sendto(payload, (address, port))
    return attempt

def dns(family, address, payload):
    # A query that gets an answer was answered by someone: by the sandbox's own resolver when the
    # address it gives is one of 198.18.0.0/15.
    def attempt():
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.settimeout(3)
            s.sendto(payload, (address, 53))
            answer = s.recv(512)
            return "inside" if ipaddress.ip_address(answer[-4:]) in INSIDE else "reached"
    return attempt

def lookup():
    addresses = {info[4][0] for info in socket.getaddrinfo("example.com", 443, socket.AF_INET)}
    return "inside" if all(ipaddress.ip_address(a) in INSIDE for a in addresses) else "reached"

def unix(path):
    def attempt():
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(3)
            s.connect("\0" + path[1:] if path.startswith("@") else path)
    return attempt

def raw_icmp():
    with socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP) as s:
        s.sendto(b"\x08\x00\xf7\xff\x00\x00\x00\x00", (targets["outside4"], 0))

# A DNS query for example.com, type A.
query = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07example\x03com\x00\x00\x01\x00\x01"
tries = {
    "proxy-relay": tcp(socket.AF_INET, "127.0.0.1", 3128),  # the one way out: must be reached
    "ipv4-host-loopback": tcp(socket.AF_INET, "127.0.0.1", int(targets["port4"])),
    "ipv4-host-address": tcp(socket.AF_INET, targets["host4"], int(targets["port4"])),
    "ipv4-outside": tcp(socket.AF_INET, targets["outside4"], 443),
    "ipv6-host-loopback": tcp(socket.AF_INET6, "::1", int(targets["port6"])),
    "ipv6-host-address": tcp(socket.AF_INET6, targets.get("host6", "fd00::2"), int(targets["port6"])),
    "ipv6-outside": tcp(socket.AF_INET6, targets["outside6"], 443),
    "dns-host-resolver": dns(socket.AF_INET, targets["resolver"], query),
    "dns-outside": dns(socket.AF_INET, targets["outside4"], query),
    "dns-lookup": lookup,
    "udp-host": udp(socket.AF_INET, targets["host4"], int(targets["udp"]), b"leak"),
    "icmp-raw": raw_icmp,
}
for name, value in targets.items():
    if name.startswith("socket-"):
        tries[name] = unix(value)
for name, attempt in tries.items():
    print(name, outcome(attempt), flush=True)
