# SPDX-License-Identifier: GPL-3.0-or-later
# Run inside a sandbox that publishes a port: opens COUNT connections to the daemon's ports
# socket and says nothing on them, holding them for SECONDS. Prints "holding OPEN" once they
# are open (or refused), then "closed-by-daemon N": how many the daemon closed meanwhile.
import os, socket, sys, time

count, seconds = int(sys.argv[1]), float(sys.argv[2])
path = "/run/paddock/endpoint/ports.sock"
held = []
for _ in range(count):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.connect(path)
        held.append(s)
    except OSError:
        s.close()
print("holding", len(held), flush=True)
time.sleep(seconds)
closed = 0
for s in held:
    try:
        if s.recv(1) == b"":
            closed += 1
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
print("closed-by-daemon", closed, flush=True)
