"""A small real SMTP server on loopback that keeps what it receives: the transport is tested over
TCP with the protocol smtplib speaks, not with a stand-in object."""
from __future__ import annotations

import socketserver
import threading
from email import message_from_bytes


class _Handler(socketserver.StreamRequestHandler):
    def reply(self, line: str) -> None:
        self.wfile.write((line + "\r\n").encode())

    def handle(self) -> None:
        self.reply("220 sink ESMTP")
        envelope: dict = {"to": []}
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line.decode(errors="replace").strip().split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                self.reply("250 sink")
            elif verb == "MAIL":
                envelope = {"from": line.decode().strip(), "to": []}
                self.reply("250 OK")
            elif verb == "RCPT":
                envelope["to"].append(line.decode().strip())
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 end with <CRLF>.<CRLF>")
                data = b""
                while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                self.server.messages.append(message_from_bytes(data))
                self.reply("250 queued")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 OK")


class SmtpSink(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.messages: list = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.shutdown()
        self.server_close()
