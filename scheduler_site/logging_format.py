"""LOG_FORMAT=json: one JSON object per log line, for log collectors.

Every line has `time` (ISO 8601 UTC with milliseconds), `level`, `process` (the command or
program, e.g. `run_executor`), `pid`, `logger` and `event`; the job fields below when the
log call passes them with `extra=`; `exception` with the traceback when there is one.
This module imports no app: settings load it before any app is ready.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime

# What a log call about a job may pass with `extra=` (see execution/delivery.py).
JOB_FIELDS = ("tenant", "task", "job", "attempt", "http_status", "duration_ms")


def process_label(argv: list[str]) -> str:
    """`run_executor` for `manage.py run_executor`, else the program's name."""
    program = os.path.basename(argv[0]) if argv else "python"
    if program == "manage.py" and len(argv) > 1:
        return argv[1]
    if program == "__main__.py":  # `python -m package`
        return os.path.basename(os.path.dirname(argv[0]))
    return program


class JsonFormatter(logging.Formatter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.process_name = process_label(sys.argv)

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": _iso_utc(record.created),
            "level": record.levelname,
            "process": self.process_name,
            "pid": record.process,
            "logger": record.name,
            "event": record.getMessage(),
        }
        for name in JOB_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def _iso_utc(created: float) -> str:
    moment = datetime.fromtimestamp(created, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
