"""The database settings: one URL, with the session options the queue relies on."""

from pathlib import Path

import dj_database_url


def database_settings(url: str, base_dir: Path) -> dict:
    # Long-running processes keep their connection (checked before reuse) instead of
    # reconnecting at every turn of their loop.
    config = dj_database_url.parse(
        url or f"sqlite:///{base_dir / 'db.sqlite3'}", conn_max_age=600, conn_health_checks=True
    )
    if config["ENGINE"] == "django.db.backends.mysql":
        config["OPTIONS"] = {
            # NOW(3) must be UTC: every raw comparison with a stored datetime depends on it.
            "init_command": "SET time_zone = '+00:00'",
            "isolation_level": "read committed",
            "charset": "utf8mb4",
        }
        config["TEST"] = {"CHARSET": "utf8mb4", "COLLATION": "utf8mb4_unicode_ci"}
    elif config["ENGINE"] == "django.db.backends.sqlite3":
        # A file, not memory, so the processes a test starts can open the test database.
        config["TEST"] = {"NAME": str(base_dir / "test-db.sqlite3")}
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    return config
