"""Shared set-up of the benchmarks: a fresh database of their own, and the machine line."""

from __future__ import annotations

import MySQLdb
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from bench import mariadb


def use_fresh_database(suffix: str) -> str:
    """Point Django at a new, migrated database `<name>_<suffix>` on the same server."""
    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_{suffix}"
    raw = MySQLdb.connect(
        host=db["HOST"], port=int(db["PORT"] or 3306), user=db["USER"], passwd=db["PASSWORD"]
    )
    cursor = raw.cursor()
    cursor.execute(f"DROP DATABASE IF EXISTS `{name}`")
    cursor.execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
    raw.close()
    connection.close()
    db["NAME"] = name
    call_command("migrate", verbosity=0)
    return name


def machine_line() -> str:
    """The machine line, with the version of the server Django is connected to."""
    with connection.cursor() as cursor:
        return mariadb.machine_line(cursor)
