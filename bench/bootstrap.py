"""Imported first by every benchmark script: the project on the path, Django set up.

The benchmarks run on MariaDB unless DATABASE_URL says otherwise.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scheduler_site.settings")
from scheduler_site.keys import fresh_keys  # noqa: E402 - imports no Django settings

for _name, _value in fresh_keys().items():  # the processes a benchmark starts share them
    os.environ.setdefault(_name, _value)
os.environ.setdefault("DATABASE_URL", "mysql://root:@127.0.0.1:3306/scheduler")

import django  # noqa: E402

django.setup()
