#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A model for Pi that only asks for tool calls: an OpenAI-compatible chat-completions
endpoint on 127.0.0.1 (streamed, as Pi asks for it).

    fake_model.py CALLS.json RESULTS.jsonl

CALLS.json, read at every request: {"id": PREFIX, "calls": [[TOOL, ARGUMENTS], ...]}. The
answer to a request holding N tool results is the call N, with id PREFIX + N; once every call
has its result, the answer is the text "done". A call ["wait", PATH] is no call: the answer
waits until PATH exists (at most a minute), then goes on with the next call. Each tool result the request carries is
appended to RESULTS.jsonl ({"id", "content"}), so a test sees what the agent got back.
Prints "port N" when it listens.
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CALLS, RESULTS = sys.argv[1], sys.argv[2]
seen = set()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        messages = body.get("messages", [])
        with open(CALLS) as f:
            plan = json.load(f)
        results = [m for m in messages if m.get("role") == "tool"]
        with open(RESULTS, "a") as out:
            for m in results:
                key = m.get("tool_call_id")
                if key not in seen:
                    seen.add(key)
                    content = m.get("content")
                    if isinstance(content, list):
                        content = "".join(part.get("text", "") for part in content)
                    out.write(json.dumps({"id": key, "content": content}) + "\n")
        n = len(results)
        calls = plan["calls"]
        # Skip the waits before call n, waiting for each as it is passed.
        position = 0
        answered = 0
        while position < len(calls):
            if calls[position][0] == "wait":
                if answered == n:
                    deadline = time.time() + 60
                    while not os.path.exists(calls[position][1]) and time.time() < deadline:
                        time.sleep(0.05)
                position += 1
                continue
            if answered == n:
                break
            answered += 1
            position += 1
        index = position
        with open(RESULTS + ".log", "a") as log:
            log.write("request with %d tool results: answer %d of plan %s\n" % (n, index, plan["id"]))
        events = []

        def chunk(delta, finish=None):
            data = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            events.append(b"data: " + json.dumps(data).encode() + b"\n\n")

        if index < len(calls):
            name, arguments = calls[index]
            chunk({"role": "assistant", "tool_calls": [{"index": 0, "id": "%s%d" % (plan["id"], n), "type": "function",
                   "function": {"name": name, "arguments": json.dumps(arguments)}}]})
            chunk({}, "tool_calls")
        else:
            chunk({"role": "assistant", "content": "done"})
            chunk({}, "stop")
        events.append(b"data: [DONE]\n\n")
        # The whole stream at once, with its length: the end of the answer does not depend on
        # when the connection closes.
        payload = b"".join(events)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("port %d" % server.server_address[1], flush=True)
server.serve_forever()
