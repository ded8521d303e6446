"""The capacity benchmark's meters: the process behind a listening port, CPU net of idle."""

import os
import socket
import subprocess
import sys
import time

from bench.part_meters import PartMeters, pid_listening


def test_the_process_listening_on_a_port_is_found():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        assert pid_listening("127.0.0.1", server.getsockname()[1]) == os.getpid()


def test_a_part_is_charged_the_cpu_of_its_work():
    busy = "import sys, time\nprint(flush=True)\nsys.stdin.readline()\n"
    busy += "end = time.process_time() + 0.5\n"
    busy += "while time.process_time() < end: pass\nsys.stdin.readline()\n"
    child = subprocess.Popen(
        [sys.executable, "-c", busy], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        child.stdout.readline()  # started: from here it waits, so its idle rate is ~0
        meters = PartMeters()
        meters.add("child", [child.pid])
        meters.start()
        time.sleep(0.5)
        meters.stop()
        meters.take_idle()
        meters.start()
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(1.5)
        meters.stop()
        assert 0.45 <= meters.net(meters.parts[0]) <= 0.7
    finally:
        child.stdin.write("end\n")
        child.stdin.close()
        child.wait(timeout=10)
