"""A small TCP proxy to cut the database in tests (Toxiproxy cannot be installed here)."""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a target; `cut()` drops every connection and refuses
    new ones until `restore()`; `hang()` keeps every connection (and accepts new ones) but
    holds the bytes of both directions until `restore()`: a peer that stopped answering;
    `move_to()` sends new connections to another target."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.port = self.listener.getsockname()[1]
        self._cut = threading.Event()
        self._flowing = threading.Event()
        self._flowing.set()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self.accepted = 0  # connections asked for, refused ones included
        threading.Thread(target=self._accept_forever, daemon=True).start()

    def cut(self) -> None:
        self._cut.set()
        with self._lock:
            for sock in list(self._open):
                _close(sock)
            self._open.clear()

    def move_to(self, host: str, port: int) -> None:
        """New connections go to another server (a DNS or proxy switch); the open ones to
        the old server are dropped, as a switching proxy does."""
        with self._lock:
            self.target = (host, port)
            for sock in list(self._open):
                _close(sock)
            self._open.clear()

    def hang(self) -> None:
        self._flowing.clear()

    def restore(self) -> None:
        self._cut.clear()
        self._flowing.set()

    def close(self) -> None:
        self.cut()
        self._flowing.set()  # pipes held by hang() end on their closed sockets
        _close(self.listener)

    def _accept_forever(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            if self._cut.is_set():
                _close(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _close(client)
                continue
            # The timeout was for connecting: a statement waiting on a lock for longer is
            # silent on the wire, and a cut there would be the proxy's fault, not a fault.
            upstream.settimeout(None)
            with self._lock:
                self._open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                self._flowing.wait()
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
