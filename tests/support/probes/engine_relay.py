# SPDX-License-Identifier: GPL-3.0-or-later
# A unix socket in front of a container engine's that passes everything on and records every
# request line, for a test to see what was asked of the engine.
#   engine_relay.py LISTEN ENGINE LOG
import os, re, socket, sys, threading

listen, engine, log = sys.argv[1:4]
lock = threading.Lock()

REQUEST = re.compile(rb"(?:GET|POST|PUT|DELETE|HEAD) /[^ \r\n]* HTTP/1\.[01]\r\n")

def pipe(source, target, record):
    # A connection may carry several requests (keep-alive): every request line is recorded,
    # looked for across the boundary between two reads.
    tail = b""
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            if record:
                window = tail + data
                lines = [m.group(0).strip() for m in REQUEST.finditer(window) if m.end() > len(tail)]
                if lines:
                    with lock, open(log, "ab") as f:
                        f.write(b"\n".join(lines) + b"\n")
                tail = window[-512:]
            target.sendall(data)
    except OSError:
        pass
    finally:
        try:
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass

server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
if os.path.exists(listen):
    os.unlink(listen)
server.bind(listen)
server.listen(64)
print("listening", flush=True)
while True:
    client, _ = server.accept()
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    upstream.connect(engine)
    threading.Thread(target=pipe, args=(client, upstream, True), daemon=True).start()
    threading.Thread(target=pipe, args=(upstream, client, False), daemon=True).start()
