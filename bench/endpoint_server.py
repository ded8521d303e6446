"""A fast local endpoint for the benchmarks (aiohttp, one process).

Answers 200 to everything. With --record FILE it keeps, for each call, the arrival time,
the Idempotency-Key, X-Scheduled-At and X-Attempt, and writes them as CSV on SIGTERM.
    python bench/endpoint_server.py --port 9000 [--record calls.csv]
"""

import argparse
import asyncio
import signal
import time

from aiohttp import web


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--record", default=None)
    args = parser.parse_args()
    calls: list[tuple[float, str, str, str]] = []

    async def handle(request: web.Request) -> web.Response:
        await request.read()
        if args.record:
            headers = request.headers
            calls.append(
                (
                    time.time(),
                    headers.get("Idempotency-Key", ""),
                    headers.get("X-Scheduled-At", ""),
                    headers.get("X-Attempt", ""),
                )
            )
        return web.Response(text="ok")

    async def serve() -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", args.port, backlog=4096).start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        loop.add_signal_handler(signal.SIGINT, stop.set)
        print("ready", flush=True)
        await stop.wait()
        await runner.cleanup()
        if args.record:
            with open(args.record, "w") as out:
                for row in calls:
                    out.write(",".join(map(str, row)) + "\n")

    asyncio.run(serve())


if __name__ == "__main__":
    main()
