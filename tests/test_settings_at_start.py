"""No process starts with a setting it cannot use: a missing, empty, weak, shared or
development key (unless DEBUG is on with the embedded SQLite database), or any other value
that cannot be read; the message names it."""

import base64
import os
import re
import secrets
import subprocess
import sys

import pytest
from cryptography.fernet import Fernet

from scheduler_site import key_strength, keys
from tests.processes import ROOT, free_port

GOOD = {
    "SECRET_KEY": secrets.token_urlsafe(64),
    "JWT_SIGNING_KEY": secrets.token_urlsafe(64),
    "SECRETS_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
}
MARIADB_URL = "mysql://root:@127.0.0.1:3306/scheduler"


def fernet_of(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode()


BAD = [
    ("SECRET_KEY", None, "SECRET_KEY is not set"),
    ("SECRET_KEY", "", "SECRET_KEY is not set"),
    ("SECRET_KEY", "short-but-random-3f9a", "SECRET_KEY is shorter than 50 characters"),
    ("SECRET_KEY", keys.DEV_SECRET_KEY, "SECRET_KEY is a development key"),
    ("SECRET_KEY", "dev-only-secret-key-change-me-in-production-0123456789", "development key"),
    ("JWT_SIGNING_KEY", None, "JWT_SIGNING_KEY is not set"),
    ("JWT_SIGNING_KEY", "x" * 20, "JWT_SIGNING_KEY is shorter than 50 characters"),
    ("JWT_SIGNING_KEY", "abab" * 20, "JWT_SIGNING_KEY has fewer than 10 distinct characters"),
    ("SECRET_KEY", "correct-horse-battery-" * 3, "SECRET_KEY repeats a pattern"),
    ("SECRET_KEY", "a" * 45 + "bcdefghijklmnop", "SECRET_KEY has too little entropy"),
    ("SECRETS_ENCRYPTION_KEYS", None, "SECRETS_ENCRYPTION_KEYS is not set"),
    ("SECRETS_ENCRYPTION_KEYS", "not-a-fernet-key", "key 1 is not a Fernet key"),
    ("SECRETS_ENCRYPTION_KEYS", keys.DEV_SECRETS_ENCRYPTION_KEY, "key 1 is a development key"),
    ("SECRETS_ENCRYPTION_KEYS", fernet_of(bytes(32)), "key 1 is all zeros"),
    ("SECRETS_ENCRYPTION_KEYS", fernet_of(b"\x01\x02" * 16), "key 1 has too little entropy"),
    ("SECRETS_ENCRYPTION_KEYS", fernet_of(b"our team's secret passphrase #1!"), "key 1 is text"),
]


def environment(**changes) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in GOOD}
    env.update(GOOD, DEBUG="false", DJANGO_SETTINGS_MODULE="scheduler_site.settings")
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def manage_check(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(("name", "value", "message"), BAD)
def test_a_command_refuses_to_start_with_a_bad_key(name, value, message):
    result = manage_check(environment(**{name: value}))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_good_keys_start(tmp_path):
    assert manage_check(environment()).returncode == 0


def test_with_debug_on_missing_keys_fall_back_to_development_ones(tmp_path):
    env = environment(SECRET_KEY=None, JWT_SIGNING_KEY=None, SECRETS_ENCRYPTION_KEYS=None)
    env |= {"DEBUG": "true", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    assert manage_check(env).returncode == 0


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SECRET_KEY", None, "SECRET_KEY is not set"),
        ("JWT_SIGNING_KEY", keys.DEV_JWT_SIGNING_KEY, "JWT_SIGNING_KEY is a development key"),
        ("SECRETS_ENCRYPTION_KEYS", None, "SECRETS_ENCRYPTION_KEYS is not set"),
    ],
)
def test_with_debug_on_and_mariadb_development_keys_are_refused(name, value, message):
    result = manage_check(
        environment(**{name: value, "DEBUG": "true", "DATABASE_URL": MARIADB_URL})
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "only with the embedded SQLite database" in result.stderr


def test_a_jwt_signing_key_equal_to_the_secret_key_is_refused():
    result = manage_check(environment(JWT_SIGNING_KEY=GOOD["SECRET_KEY"]))
    assert result.returncode == 2
    assert "JWT_SIGNING_KEY is the same as SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("make", [secrets.token_hex, secrets.token_urlsafe])
def test_generated_signing_keys_are_never_found_weak(make):
    assert all(key_strength.signing_key_weakness(make(40)) is None for _ in range(2000))


def test_generated_fernet_keys_are_never_found_weak():
    for _ in range(2000):
        raw = base64.urlsafe_b64decode(Fernet.generate_key())
        assert key_strength.fernet_key_weakness(raw) is None


def test_the_api_server_refuses_to_start_without_its_key():
    env = environment(JWT_SIGNING_KEY=None)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "scheduler_site.wsgi",
            "--bind",
            f"127.0.0.1:{free_port()}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "JWT_SIGNING_KEY is not set" in result.stderr


def gunicorn(env: dict, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "gunicorn", "scheduler_site.wsgi"]
    command += ["-c", "scheduler_site/gunicorn.conf.py", "--bind", f"127.0.0.1:{free_port()}"]
    return subprocess.run(
        [*command, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_the_api_server_refuses_two_workers_without_cache_url():
    result = gunicorn(environment(CACHE_URL=None), "--workers", "2")
    assert result.returncode != 0
    assert "CACHE_URL is not set and gunicorn would start 2 workers" in result.stderr


def test_without_cache_url_the_api_server_runs_one_worker_by_default():
    result = gunicorn(environment(CACHE_URL=None, GUNICORN_WORKERS=None), "--print-config")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^workers\s*=\s*1$", result.stdout, re.MULTILINE)


def test_every_encryption_key_is_checked_and_named_by_position():
    value = f"{Fernet.generate_key().decode()}, nope"
    with pytest.raises(Exception, match="key 2 is not a Fernet key"):
        keys.fernet_keys("SECRETS_ENCRYPTION_KEYS", value, debug=False)


def test_encryption_keys_keep_their_order():
    first, second = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    parsed = keys.fernet_keys("SECRETS_ENCRYPTION_KEYS", f"{first},{second}", debug=False)
    assert parsed == [first, second]


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("EGRESS_ALLOW", "127.0.0.1/33", "EGRESS_ALLOW: '127.0.0.1/33' is not a network"),
        ("EGRESS_ALLOW", "10.0.0.0/8, localhost", "EGRESS_ALLOW: 'localhost' is not a network"),
        ("SCHEDULER_PARTITIONS", "many", "SCHEDULER_PARTITIONS must be a whole number"),
        ("SCHEDULER_PARTITIONS", "0", "SCHEDULER_PARTITIONS must be at least 1"),
        ("HISTORY_BACKEND", "mongo", "HISTORY_BACKEND must be one of sql, cassandra"),
        ("HISTORY_BACKEND", "cassandra", "HISTORY_BACKEND=cassandra needs CASSANDRA_HOSTS"),
        ("DEBUG", "maybe", "DEBUG must be true or false"),
        ("CACHE_URL", "memcached://x", "CACHE_URL must be a redis:// URL"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("RESOLVER_NAMESERVERS", "dns.example", "RESOLVER_NAMESERVERS: 'dns.example' is not ip"),
        ("RESOLVER_NAMESERVERS", "127.0.0.1:0", "RESOLVER_NAMESERVERS: '127.0.0.1:0' is not ip"),
        ("RESOLVER_TENANT_THREADS", "0", "RESOLVER_TENANT_THREADS must be at least 1"),
        ("CASSANDRA_REPLICATION", "3", "CASSANDRA_REPLICATION: '3' is not a replication"),
        ("CASSANDRA_REPLICATION", "NetworkTopologyStrategy:dc1", "'dc1' is not DC=FACTOR"),
        ("CASSANDRA_WRITE_CONSISTENCY", "MOST", "CASSANDRA_WRITE_CONSISTENCY must be one of"),
        ("CASSANDRA_READ_CONSISTENCY", "ANY", "CASSANDRA_READ_CONSISTENCY must be one of"),
    ],
)
def test_a_command_refuses_to_start_with_an_unreadable_setting(name, value, message):
    result = manage_check(environment(**{name: value, "CASSANDRA_HOSTS": None}))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_the_production_settings_pass_djangos_deployment_checks():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment(HTTPS="true", ALLOWED_HOSTS="scheduler.example.com"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout
