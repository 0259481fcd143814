# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: one TLS connection through the proxy to https://HOST:PORT, kept open.
# Sends GET /first, writes its status to DIR/first, waits for DIR/go, then sends GET /second on
# the same connection and writes its status (or "closed") to DIR/second.
import os, socket, ssl, sys, time

host, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def note(name, text):
    with open(os.path.join(out, name + ".tmp"), "w") as f:
        f.write(text)
    os.rename(os.path.join(out, name + ".tmp"), os.path.join(out, name))

def ask(tls, path):
    tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = tls.recv(4096)
        if not chunk:
            return "closed"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = tls.recv(4096)
        if not chunk:
            return "closed"
        body += chunk
    return head.split(b" ")[1].decode()

raw = socket.create_connection(("127.0.0.1", 3128))
raw.sendall(f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
answer = b""
while b"\r\n\r\n" not in answer:
    answer += raw.recv(1)
context = ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
tls = context.wrap_socket(raw, server_hostname=host)
note("first", ask(tls, "/first"))
while not os.path.exists(os.path.join(out, "go")):
    time.sleep(0.05)
try:
    note("second", ask(tls, "/second"))
except OSError:
    note("second", "closed")
