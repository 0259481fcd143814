# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox: asks the proxy for COUNT names at once that its kit allows but that no
# name server answers quickly (*.slow.test), to fill the daemon's resolver, and keeps asking.
# Prints "flooding" once every request is sent, then a tally of the answers.
import socket, sys, threading, collections

count = int(sys.argv[1])
answers = collections.Counter()
lock = threading.Lock()

def ask(i):
    try:
        s = socket.create_connection(("127.0.0.1", 3128), timeout=120)
        s.sendall(f"GET http://n{i}.slow.test/ HTTP/1.1\r\nHost: n{i}.slow.test\r\n\r\n".encode())
        status = s.recv(64).split(b" ")[1].decode()
    except Exception as error:
        status = type(error).__name__
    with lock:
        answers[status] += 1

threads = [threading.Thread(target=ask, args=(i,)) for i in range(count)]
for t in threads:
    t.start()
print("flooding", flush=True)
for t in threads:
    t.join()
print("answers", dict(answers), flush=True)
