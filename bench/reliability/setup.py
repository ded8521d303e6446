"""Django pointed at the campaign's own MariaDB server, one fresh database per scenario."""

from __future__ import annotations

import os

import MySQLdb

PREFIX = "wt_campaign"


def configure_django(port: int) -> None:
    os.environ["DATABASE_URL"] = f"mysql://root:@127.0.0.1:{port}/{PREFIX}"
    import django

    django.setup()


def campaign_database(port: int, scenario: str) -> str:
    """A new, migrated database for one scenario; Django's connection now points at it."""
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    name = f"{PREFIX}_{scenario.replace('-', '_')}"
    raw = MySQLdb.connect(host="127.0.0.1", port=port, user="root")
    cursor = raw.cursor()
    cursor.execute(f"DROP DATABASE IF EXISTS `{name}`")
    cursor.execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
    raw.close()
    connection.close()
    settings.DATABASES["default"]["NAME"] = name
    call_command("migrate", verbosity=0)
    return name
