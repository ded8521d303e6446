"""gunicorn settings for the API and the admin; overridable from the environment."""

import os

bind = os.environ.get("GUNICORN_BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
# Without Redis one worker by default: the creation rate's bucket is shared only through it.
workers = int(os.environ.get("GUNICORN_WORKERS", "2" if os.environ.get("CACHE_URL") else "1"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
accesslog = "-"
# The API's request metrics, summed over the workers, on this port of 127.0.0.1 (0: off).
api_metrics_port = int(os.environ.get("API_METRICS_PORT") or 0)
api_metrics_address = os.environ.get("API_METRICS_ADDRESS") or "127.0.0.1"
if api_metrics_port:
    # Here, in the master, before any worker imports prometheus_client.
    from scheduler_site.api_metrics_server import (
        forget_worker,
        prepare_folder,
        remove_folder,
        serve,
    )

    prepare_folder()


def on_starting(server) -> None:
    """Refuse several workers without Redis: each would keep its own creation-rate bucket,
    and a tenant would get the whole rate from every one of them."""
    if server.cfg.workers > 1 and not os.environ.get("CACHE_URL"):
        raise RuntimeError(
            f"CACHE_URL is not set and gunicorn would start {server.cfg.workers} workers: the "
            "creation rate limit would be kept per worker. Set CACHE_URL=redis://host:6379/0 "
            "(shared by every worker), or run one worker (GUNICORN_WORKERS=1 or --workers 1)"
        )


def when_ready(server) -> None:
    if api_metrics_port:
        serve(api_metrics_port, api_metrics_address)


def child_exit(server, worker) -> None:
    if api_metrics_port:
        forget_worker(worker.pid)


def on_exit(server) -> None:
    if api_metrics_port:
        remove_folder()


# LOG_FORMAT=json: gunicorn's own lines (start, stop, the access log) as JSON objects too,
# with the formatter of the Django processes (scheduler_site/logging_format.py).
if os.environ.get("LOG_FORMAT") == "json":
    _json_handler = {"class": "logging.StreamHandler", "formatter": "json"}
    logconfig_dict = {
        "formatters": {"json": {"()": "scheduler_site.logging_format.JsonFormatter"}},
        "handlers": {
            "stderr": {**_json_handler, "stream": "ext://sys.stderr"},
            "stdout": {**_json_handler, "stream": "ext://sys.stdout"},
        },
        "root": {"level": "INFO", "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
            "gunicorn.access": {"level": "INFO", "handlers": ["stdout"], "propagate": False},
        },
    }
