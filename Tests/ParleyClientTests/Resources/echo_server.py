"""A loopback HTTP server for ParleyClientTests: prints its port, then answers until killed.

Routes match the last path segments, so any prefix works (/api/raw is /raw):
  /echo  a JSON description of the request: method, path, lower-cased headers, body length,
         and the body as text when it is UTF-8
  /raw   the request body back as application/octet-stream
  /status/<code>  an empty reply with that status
  /coded/<coding>  256 binary bytes (0...255) as application/octet-stream with that
         Content-Encoding (gzip, deflate, br, zstd; br and zstd through the command-line tools)
Binds 127.0.0.1 on a free port chosen by the kernel; never touches the network otherwise.
"""
import gzip
import json
import signal
import subprocess
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        segments = self.path.split("?")[0].split("/")
        coding = None
        if segments[-1] == "raw":
            reply, content_type = body, "application/octet-stream"
        elif len(segments) > 1 and segments[-2] == "coded":
            coding, content_type = segments[-1], "application/octet-stream"
            plain = bytes(range(256))
            if coding == "gzip":
                reply = gzip.compress(plain)
            elif coding == "deflate":
                reply = zlib.compress(plain)
            else:
                tool = {"br": "brotli", "zstd": "zstd"}[coding]
                reply = subprocess.run([tool, "-c"], input=plain, capture_output=True, check=True).stdout
        elif len(segments) > 1 and segments[-2] == "status":
            self.send_response(int(segments[-1]))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        else:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            reply = json.dumps({
                "method": self.command,
                "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body_length": len(body),
                "body": text,
            }, sort_keys=True).encode("utf-8")
            content_type = "application/json"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if coding:
            self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = answer


# A parent may start us with SIGTERM blocked (the mask is inherited); let it stop us.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
signal.signal(signal.SIGTERM, signal.SIG_DFL)
# Never outlive a test run by much, even if nobody stops us.
threading.Timer(300, lambda: __import__("os")._exit(0)).start()

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
