"""The database and cache settings: one URL each, with the options the service relies on."""

from pathlib import Path

import dj_database_url

# NOW(3) must be UTC: every raw comparison with a stored datetime depends on it.
UTC_SESSION = "SET time_zone = '+00:00'"


def bounded_lock_waits(read_timeout: int) -> str:
    """The session's lock waits, under the read timeout: a statement queued on a row lock
    or on a metadata lock (behind a migration's ALTER TABLE; MariaDB waits a day for those
    by default) fails by the server's own timeout, error 1205, and the server stops
    waiting. Cut by the client's read timeout instead, the server thread would go on
    waiting, and run the statement later for nobody, while the retry queues another."""
    wait = max(1, read_timeout * 5 // 6)  # 50 s for the 60 s default: InnoDB's own
    return f"lock_wait_timeout = {wait}, innodb_lock_wait_timeout = {wait}"


def database_settings(url: str, base_dir: Path, read_timeout: int = 60) -> dict:
    # Long-running processes keep their connection (checked before reuse) instead of
    # reconnecting at every turn of their loop.
    config = dj_database_url.parse(
        url or f"sqlite:///{base_dir / 'db.sqlite3'}", conn_max_age=600, conn_health_checks=True
    )
    if config["ENGINE"] == "django.db.backends.mysql":
        config["ENGINE"] = "scheduler_site.mysql"  # Django's, one round trip fewer a transaction
        config["OPTIONS"] = {
            "init_command": f"{UTC_SESSION}, {bounded_lock_waits(read_timeout)}",
            "isolation_level": "read committed",
            "charset": "utf8mb4",
            # A database host that stops answering fails a reconnect within seconds, so a
            # process waits it out with backoff (and stops when asked) instead of hanging.
            "connect_timeout": 5,
            # A primary that dies without closing its connections (a machine lost, a
            # network partition) leaves a statement waiting for an answer that never comes:
            # without these the process hangs on it for hours of TCP retries instead of
            # reconnecting to the promoted replica. Above the lock waits (init_command),
            # so a statement queued on a lock fails by the database's own timeout first.
            "read_timeout": read_timeout,
            "write_timeout": read_timeout,
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


def cache_settings(url: str) -> dict:
    """`redis://host:6379/0` for Redis; empty for the local-memory cache of one process."""
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if not url.startswith(("redis://", "rediss://", "unix://")):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL, not {url!r}")
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        # A Redis that stops answering fails the request quickly rather than hanging it.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
