"""The flows burst's limited destination: an HTTP/1.1 server (plain asyncio, one process)
that holds each call for --delay-ms before answering 200, so a flow's calls overlap at the
destination as they would at a real one, and logs every call when it ends:
    start,end,flow,idempotency key,X-Scheduled-At
(start: its headers read; end: its reply written; epoch seconds; flow: the path's last
segment, /flow/<key>). nginx answers at once from one worker, so its log would show no
overlap at all: this is why the limited calls come here and the free ones go to nginx.

    python bench/flow_endpoint.py --port 8123 --record calls.csv --delay-ms 100
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time

REPLY = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"


class Recorder:
    def __init__(self, path: str) -> None:
        self.log = open(path, "a", buffering=1 << 16)  # noqa: SIM115 - open for the run

    async def flush_often(self) -> None:
        while True:  # the benchmark counts lines as they come, to see its progress
            await asyncio.sleep(0.1)
            self.log.flush()


async def serve(reader, writer, recorder: Recorder, delay: float) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            start = time.time()
            lines = head.decode("latin-1").split("\r\n")
            path = lines[0].split(" ")[1]
            headers = dict(_header(line) for line in lines[1:] if ":" in line)
            await reader.readexactly(int(headers.get("content-length", "0")))
            await asyncio.sleep(delay)
            writer.write(REPLY)
            await writer.drain()
            flow = path.rstrip("/").rsplit("/", 1)[-1]
            key, due = headers.get("idempotency-key", "-"), headers.get("x-scheduled-at", "-")
            recorder.log.write(f"{start:.6f},{time.time():.6f},{flow},{key},{due}\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


def _header(line: str) -> tuple[str, str]:
    name, value = line.split(":", 1)
    return name.strip().lower(), value.strip()


async def main(port: int, record: str, delay: float) -> None:
    recorder = Recorder(record)
    server = await asyncio.start_server(
        lambda r, w: serve(r, w, recorder, delay), "127.0.0.1", port, backlog=8192
    )
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    flusher = asyncio.create_task(recorder.flush_often())
    async with server:
        await stopping.wait()
    flusher.cancel()
    recorder.log.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--delay-ms", type=float, default=100.0)
    args = parser.parse_args()
    asyncio.run(main(args.port, args.record, args.delay_ms / 1000))
