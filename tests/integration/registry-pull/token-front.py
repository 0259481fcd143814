#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A registry front that asks for a bearer token, as Docker Hub does: /token answers one to the
# right basic login; /v2/ requests with it are passed to the real registry behind (with its
# basic login), others get a 401 whose WWW-Authenticate names the token's realm.
# Usage: RP_PASSWORD=... token-front.py PORT UPSTREAM_URL CERT KEY CA USER (no password on a command line)
import base64
import os
import http.server
import json
import ssl
import sys
import urllib.error
import urllib.request

port, upstream, cert, key, ca, user = sys.argv[1:7]
password = os.environ["RP_PASSWORD"]
basic = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
token = "rp-bearer-token-7d1f"


class Front(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/token"):
            if self.headers.get("Authorization") != basic:
                return self.answer(401, b'{"details":"bad login"}')
            return self.answer(200, json.dumps({"token": token}).encode(), [("Content-Type", "application/json")])
        if self.headers.get("Authorization") != "Bearer " + token:
            challenge = f'Bearer realm="https://127.0.0.1:{port}/token",service="rp-front",scope="repository:course/pi:pull"'
            return self.answer(401, b"{}", [("WWW-Authenticate", challenge)])
        request = urllib.request.Request(upstream + self.path, headers={
            "Accept": self.headers.get("Accept", "*/*"), "Authorization": basic})
        try:
            with urllib.request.urlopen(request, context=ssl.create_default_context(cafile=ca), timeout=60) as reply:
                headers = [(n, reply.headers[n]) for n in ("Content-Type", "Docker-Content-Digest") if reply.headers[n]]
                self.answer(reply.status, reply.read(), headers)
        except urllib.error.HTTPError as error:
            self.answer(error.code, error.read())

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(port)), Front)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
