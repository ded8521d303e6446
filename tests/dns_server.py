"""A real DNS server on loopback UDP for tests: names under `ok.test` answer with one public
address, names under `hang.test` are read and never answered, any other name is NXDOMAIN."""

from __future__ import annotations

import socket
import threading

import dns.message
import dns.rcode
import dns.rdatatype
import dns.rrset

ANSWER = "93.184.216.34"


class LoopbackDns:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((host, 0))
        self.sock.settimeout(0.2)  # so that the serving thread sees `close` soon
        self._closed = threading.Event()
        self.address = f"{host}:{self.sock.getsockname()[1]}"
        self.dropped = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._closed.is_set():
            try:
                data, peer = self.sock.recvfrom(4096)
            except TimeoutError:
                continue
            reply = self._reply(dns.message.from_wire(data))
            if reply is None:
                self.dropped += 1
            else:
                self.sock.sendto(reply.to_wire(), peer)

    def _reply(self, query: dns.message.Message) -> dns.message.Message | None:
        question = query.question[0]
        name = question.name.to_text()
        if name.endswith(".hang.test."):
            return None
        reply = dns.message.make_response(query)
        if not name.endswith(".ok.test."):
            reply.set_rcode(dns.rcode.NXDOMAIN)
        elif question.rdtype == dns.rdatatype.A:
            reply.answer.append(dns.rrset.from_text(name, 60, "IN", "A", ANSWER))
        return reply

    def close(self) -> None:
        self._closed.set()
        self._thread.join()
        self.sock.close()
