"""`make run` serves the pipeline's and the API's metrics and says where."""

import requests

from tests.processes import free_port, wait_until
from tests.test_make_run_ctrl_c import MakeRun
from tests.test_metrics import scrape


def test_make_run_serves_and_prints_both_metrics_urls(tmp_path):
    pipeline, api = free_port(), free_port()
    run = MakeRun(tmp_path, METRICS_PORT=str(pipeline), API_METRICS_PORT=str(api))
    try:
        wait_until(lambda: "Press Ctrl-C" in run.output(), timeout=120, message=run.output())
        assert f"http://127.0.0.1:{pipeline}/metrics" in run.output()
        assert f"http://127.0.0.1:{api}/metrics" in run.output()
        served = ("scheduler_oldest_due_job_age_seconds{", 'process="executor"')
        wait_until(
            lambda: all(name in scrape(pipeline) for name in served),
            timeout=60,
            message="no queue gauges or executor health from run_all",
        )
        port = run.output().split("API on http://127.0.0.1:")[1].split(",")[0]
        requests.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        wait_until(
            lambda: 'scheduler_api_requests_total{method="GET",route="healthz"' in scrape(api),
            timeout=30,
            message=scrape(api),
        )
    finally:
        assert run.ctrl_c() == 0
    assert run.tracebacks() == {}
