# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: speaks to the proxy (127.0.0.1:3128) byte by byte the way an attacker
# would, and prints "NAME RESULT" per attempt: the HTTP status the proxy answered, "closed" when
# it hung up without one, "timeout", or for TLS "handshake-sent"/"closed". Each request names
# its attempt in its path (/NAME), so the host's upstream can tell which got through.
# Arguments: PORT (where allowed.test's upstream listens).
import socket, ssl, sys, threading, time

port = int(sys.argv[1])
PROXY = ("127.0.0.1", 3128)

def exchange(data, timeout=15, pause=0.0):
    s = socket.create_connection(PROXY, timeout=timeout)
    try:
        s.sendall(data)
        answer = b""
        while b"\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                return "closed"
            answer += chunk
        return answer.split(b" ")[1].decode()
    except socket.timeout:
        return "timeout"
    except OSError:
        return "closed"
    finally:
        s.close()

def get(name, host, extra=b""):
    hostport = f"{host}:{port}".encode()
    return exchange(b"GET http://" + hostport + b"/" + name.encode() + b" HTTP/1.1\r\nHost: " + hostport +
                    b"\r\n" + extra + b"\r\n")

def client_hello(server_name):
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = ssl.create_default_context().wrap_bio(incoming, outgoing, server_hostname=server_name)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()

def tunnel(server_name):
    # CONNECT to allowed.test:443, then a ClientHello naming SERVER_NAME.
    s = socket.create_connection(PROXY, timeout=15)
    try:
        s.sendall(b"CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = s.recv(1)
            if not chunk:
                return "closed"
            answer += chunk
        if b" 200 " not in answer.split(b"\r\n")[0] + b" ":
            return answer.split(b" ")[1].decode()
        s.sendall(client_hello(server_name))
        s.settimeout(3)
        try:
            return "closed" if s.recv(1) == b"" else "handshake-sent"
        except socket.timeout:
            return "handshake-sent"  # the upstream got it and waits; the proxy did not close
    except OSError:
        return "closed"
    finally:
        s.close()

def smuggle(name, framing):
    hostport = f"allowed.test:{port}".encode()
    hidden = f"GET http://other.test:{port}/{name}-smuggled HTTP/1.1\r\nHost: other.test:{port}\r\n\r\n".encode()
    body = b"0\r\n\r\n" + hidden
    head = b"POST http://" + hostport + b"/" + name.encode() + b" HTTP/1.1\r\nHost: " + hostport + b"\r\n"
    return exchange(head + framing.replace(b"LENGTH", str(len(body)).encode()) + b"\r\n" + body)

def slowloris():
    # Many connections that send a head a byte a second: the proxy closes each at its header
    # timeout, and serves an honest request meanwhile.
    slow = []
    for _ in range(200):
        s = socket.create_connection(PROXY)
        s.sendall(f"GET http://allowed.test:{port}/slowloris HTTP/1.1\r\n".encode())
        s.setblocking(False)
        slow.append(s)
    honest = get("honest-during-slowloris", "allowed.test")
    start = time.time()
    open_ = set(range(len(slow)))
    while open_ and time.time() - start < 40:
        time.sleep(1)
        for i in list(open_):
            try:
                if slow[i].recv(4096) is not None:
                    open_.discard(i)  # an answer (408) or the end: the proxy let it go
                    continue
            except BlockingIOError:
                pass
            except OSError:
                open_.discard(i)
                continue
            try:
                slow[i].send(b"X")
            except OSError:
                open_.discard(i)
    return f"{honest} {len(open_)}-open-after {int(time.time() - start)}s"

tries = {
    "control": lambda: get("control", "allowed.test"),
    "host-mismatch": lambda: exchange(
        f"GET http://allowed.test:{port}/host-mismatch HTTP/1.1\r\nHost: other.test:{port}\r\n\r\n".encode()),
    "sni-control": lambda: tunnel("allowed.test"),
    "sni-mismatch": lambda: tunnel("other.test"),
    "oversized-head": lambda: get("oversized-head", "allowed.test", b"X-Padding: " + b"a" * 70000 + b"\r\n"),
    "smuggle-cl-te": lambda: smuggle("smuggle-cl-te", b"Content-Length: LENGTH\r\nTransfer-Encoding: chunked\r\n"),
    "smuggle-cl-cl": lambda: smuggle("smuggle-cl-cl", b"Content-Length: 5\r\nContent-Length: LENGTH\r\n"),
    "smuggle-te-space": lambda: smuggle("smuggle-te-space", b"Content-Length: 5\r\nTransfer-Encoding : chunked\r\n"),
    "smuggle-te-fold": lambda: smuggle("smuggle-te-fold", b"Content-Length: 5\r\nX-Fold: a\r\n Transfer-Encoding: chunked\r\n"),
}
for spelling in sys.argv[2:]:
    name, _, host = spelling.partition("=")
    tries[name] = (lambda n, h: lambda: get(n, h))(name, host)
tries["slowloris"] = slowloris
for name, attempt in tries.items():
    print(name, attempt(), flush=True)
