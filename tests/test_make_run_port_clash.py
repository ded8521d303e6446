"""`make run` on a port another program holds stops with the name of the process that could
not listen, its address and variable, and the log that says why (nginx's, not the API's)."""

from __future__ import annotations

import socket

from tests.processes import free_port
from tests.test_make_run_ctrl_c import MakeRun


def held_port() -> socket.socket:
    holder = socket.socket()
    holder.bind(("127.0.0.1", free_port()))
    holder.listen()
    return holder


def test_a_taken_port_names_nginx_and_its_log(tmp_path):
    with held_port() as holder:
        port = holder.getsockname()[1]
        run = MakeRun(tmp_path, PORT=str(port))
        code = run.popen.wait(timeout=180)
    output = run.output()
    assert code == 1, output
    assert f"nginx (to listen on 127.0.0.1:{port}, PORT) exited with code 1" in output
    assert f"its log {tmp_path / 'nginx.log'} ends:" in output
    assert "Address already in use" in output
    assert "choose another: PORT=... make run" in output
    assert "api.log" not in output


def test_a_taken_demo_port_names_the_demo_endpoint(tmp_path):
    with held_port() as holder:
        port = holder.getsockname()[1]
        run = MakeRun(tmp_path, DEMO_PORT=str(port))
        code = run.popen.wait(timeout=180)
    output = run.output()
    assert code == 1, output
    assert f"demo-endpoint (to listen on 127.0.0.1:{port}, DEMO_PORT) exited with code 1" in output
    assert f"cannot listen on 127.0.0.1:{port}" in output
    assert "choose another: DEMO_PORT=... make run" in output
    assert "Traceback" not in output
