"""Settings: every value comes from the environment, with defaults for the embedded mode."""

import logging
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from scheduler_site import keys
from scheduler_site.cassandra_env import default_consistency, env_consistency, env_replication
from scheduler_site.database import cache_settings, database_settings
from scheduler_site.env import (
    env_bool,
    env_choice,
    env_cidrs,
    env_int,
    env_list,
    env_nameservers,
    env_str,
)
from scheduler_site.version import VERSION

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
DATABASE_URL = env_str("DATABASE_URL")
DATABASES = {
    "default": database_settings(
        DATABASE_URL, BASE_DIR, env_int("DATABASE_READ_TIMEOUT_SECONDS", 60, minimum=1)
    )
}
# Missing, weak, shared or development keys stop every process, except with DEBUG on and the
# embedded SQLite database: a laptop (keys.py).
_EMBEDDED = DATABASES["default"]["ENGINE"].endswith("sqlite3")
SECRET_KEY = keys.signing_key(
    "SECRET_KEY",
    env_str("SECRET_KEY"),
    debug=DEBUG,
    embedded=_EMBEDDED,
    development=keys.DEV_SECRET_KEY,
)
JWT_SIGNING_KEY = keys.signing_key(
    "JWT_SIGNING_KEY",
    env_str("JWT_SIGNING_KEY"),
    debug=DEBUG,
    embedded=_EMBEDDED,
    development=keys.DEV_JWT_SIGNING_KEY,
)
keys.distinct_keys(SECRET_KEY, JWT_SIGNING_KEY, debug=DEBUG, embedded=_EMBEDDED)
# Tenant secrets at rest: the first key encrypts, every key decrypts (rotate_secrets).
SECRETS_ENCRYPTION_KEYS = keys.fernet_keys(
    "SECRETS_ENCRYPTION_KEYS", env_str("SECRETS_ENCRYPTION_KEYS"), debug=DEBUG, embedded=_EMBEDDED
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

# HTTPS=true when clients reach the service over TLS (ended at the proxy, which says so in
# X-Forwarded-Proto): secure cookies, HSTS, plain HTTP redirected (but /healthz).
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 86400)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by whitenoise (no CDN)
    "tasks",
    "jobs",
    "history",
    "execution",
    "audit",
    "tenants",
    "flows",
    "console",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "scheduler_site.request_metrics.RequestMetricsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "scheduler_site.urls"
WSGI_APPLICATION = "scheduler_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
# The admin writes instants as "2026-11-29 18:06:03 UTC" (scheduler_site/formats/en).
FORMAT_MODULE_PATH = ["scheduler_site.formats"]

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    # An API key (`Bearer acs_...`) or else a JWT; a `read` key is refused every write, and
    # unknown query parameters are refused on every route, as unknown body fields are.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tenants.api_keys.auth.ApiKeyAuthentication",
        "tasks.auth.TenantJWTAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "tenants.api_keys.scope.KeyScopeAllows",
        "scheduler_site.known_query_params.KnownQueryParams",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["scheduler_site.json_parser.BoundedJSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "scheduler_site.negotiation.UnofferedFormatIgnored",
    "EXCEPTION_HANDLER": "scheduler_site.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["tasks.request_budget.TenantRequestBudget"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "at and cron as a service",
    "DESCRIPTION": (
        "Calls your HTTP endpoints once at an instant or on a cron expression. Every route "
        "but the schema and the docs needs `Authorization: Bearer <token>` (a JWT, or an API "
        "key from `POST /v1/api-keys`); every error is "
        '`{"error": {"code", "message", "fields"?}}`.'
    ),
    "VERSION": VERSION,
    "SERVE_INCLUDE_SCHEMA": False,
    # The schema and the docs read no token: a stale one in Swagger UI must not lock it out.
    "SERVE_AUTHENTICATION": [],
    "SCHEMA_PATH_PREFIX": "/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TaskStatusEnum": "tasks.models.TaskStatus",
        "JobStatusEnum": "jobs.models.JobStatus",
        "CircuitStateEnum": "flows.models.CircuitState",
    },
    # After the enums: the operation ids first, as the examples of a route go by its id.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scheduler_site.operation_ids.name_operations",
        "scheduler_site.schema_examples.add_examples",
        "scheduler_site.request_bodies.describe_request_bodies",
        "scheduler_site.path_parameters.describe_path_parameters",
    ],
}

# No token lives longer than this (issue_token refuses more; the API refuses such tokens).
JWT_MAX_TTL_SECONDS = 366 * 86400
JWT_DEFAULT_TTL_SECONDS = min(
    env_int("JWT_DEFAULT_TTL_SECONDS", 86400, minimum=1), JWT_MAX_TTL_SECONDS
)
SIMPLE_JWT = {
    "ALGORITHM": "HS256",
    "SIGNING_KEY": JWT_SIGNING_KEY,
    "ACCESS_TOKEN_LIFETIME": timedelta(
        seconds=env_int("JWT_DEFAULT_TTL_SECONDS", 86400, minimum=1)
    ),
    "AUTH_HEADER_TYPES": ("Bearer",),
    "USER_ID_CLAIM": "tenant_id",
    "USER_ID_FIELD": "id",
}

# CIDRs whose addresses may be called on any port (development and test installs only).
EGRESS_ALLOW = env_cidrs("EGRESS_ALLOW")

HISTORY_BACKEND = env_choice("HISTORY_BACKEND", "sql", ("sql", "cassandra"))
CASSANDRA_HOSTS = env_list("CASSANDRA_HOSTS")
if HISTORY_BACKEND == "cassandra" and not CASSANDRA_HOSTS:
    raise ImproperlyConfigured("HISTORY_BACKEND=cassandra needs CASSANDRA_HOSTS")
CASSANDRA_PORT = env_int("CASSANDRA_PORT", 9042, minimum=1)
CASSANDRA_KEYSPACE = env_str("CASSANDRA_KEYSPACE", "scheduler")
# The keyspace's replication (create_history_schema makes it so) and each request's
# consistency: LOCAL_QUORUM by default from a factor of 3, LOCAL_ONE below.
CASSANDRA_REPLICATION = env_replication("CASSANDRA_REPLICATION")
CASSANDRA_WRITE_CONSISTENCY = env_consistency(
    "CASSANDRA_WRITE_CONSISTENCY", default_consistency(CASSANDRA_REPLICATION)
)
CASSANDRA_READ_CONSISTENCY = env_consistency(
    "CASSANDRA_READ_CONSISTENCY", default_consistency(CASSANDRA_REPLICATION)
)
# The tenant API's history reads: each query's timeout on Cassandra, and how long reads are
# refused at once (503 with Retry-After) after one failed, before one is tried again.
HISTORY_READ_TIMEOUT_SECONDS = env_int("HISTORY_READ_TIMEOUT_SECONDS", 2, minimum=1)
HISTORY_BREAKER_SECONDS = env_int("HISTORY_BREAKER_SECONDS", 10, minimum=1)
# GET /readyz answers from its last check for this long (0: checks on every probe).
READINESS_CACHE_SECONDS = env_int("READINESS_CACHE_SECONDS", 5)

# Tenant quotas: defaults here, overrides on the tenant (0 means unlimited).
TENANT_MAX_TASKS = env_int("TENANT_MAX_TASKS", 10_000)  # active and paused tasks
TENANT_MAX_SECRETS = env_int("TENANT_MAX_SECRETS", 100)
TENANT_CREATE_RATE = env_int("TENANT_CREATE_RATE", 50)  # task creations per second...
TENANT_CREATE_BURST = env_int("TENANT_CREATE_BURST", 500)  # ...with bursts up to this
# Every tenant API request (reads and edits too) takes one token of this budget; 0: none.
TENANT_REQUEST_RATE = env_int("TENANT_REQUEST_RATE", 100)  # requests per second...
TENANT_REQUEST_BURST = env_int("TENANT_REQUEST_BURST", 300)  # ...with bursts up to this

# Task URLs' host names are resolved at create and edit: all of one request's names at once,
# under one deadline, on a pool shared by the tenants, of which one tenant holds at most
# RESOLVER_TENANT_THREADS. RESOLVER_NAMESERVERS (ip or ip:port, comma separated) asks those
# DNS servers instead of the system resolver (getaddrinfo), with lookups that end on time.
RESOLVE_DEADLINE_SECONDS = 2.5
RESOLVER_THREADS = env_int("RESOLVER_THREADS", 16, minimum=1)
RESOLVER_TENANT_THREADS = env_int("RESOLVER_TENANT_THREADS", 4, minimum=1)
RESOLVER_NAMESERVERS = env_nameservers("RESOLVER_NAMESERVERS")

# Shared state of the API workers (the creation rate limit): Redis in production, so that
# every worker and machine shares it; the local-memory cache only for one embedded process.
CACHE_URL = env_str("CACHE_URL")
CACHES = {"default": cache_settings(CACHE_URL)}

# The admin's login: refused for the rest of a window after this many failures of one
# username or one client address (counted in the cache above).
ADMIN_LOGIN_FAILURES_PER_USER = env_int("ADMIN_LOGIN_FAILURES_PER_USER", 5, minimum=1)
ADMIN_LOGIN_FAILURES_PER_ADDRESS = env_int("ADMIN_LOGIN_FAILURES_PER_ADDRESS", 20, minimum=1)
ADMIN_LOGIN_WINDOW_SECONDS = env_int("ADMIN_LOGIN_WINDOW_SECONDS", 900, minimum=1)
# Proxies in front of gunicorn that append to X-Forwarded-For (nginx: 1); 0 trusts none.
PROXY_HOPS = env_int("PROXY_HOPS", 0)

TASK_BODY_MAX_BYTES = 64 * 1024
TASK_HEADERS_MAX_BYTES = 8 * 1024  # names and values of a task's headers, in all
# Any API request: a larger body is a 413 before parsing; deeper JSON is a 400.
REQUEST_BODY_MAX_BYTES = 1024 * 1024
JSON_MAX_DEPTH = 32

# LOG_FORMAT=json: one JSON object per line (scheduler_site/logging_format.py).
LOG_FORMAT = env_choice("LOG_FORMAT", "plain", ("plain", "json"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "scheduler_site.logging_format.JsonFormatter"},
    },
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {
        "handlers": ["stderr"],
        "level": env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR")),
    },
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
if LOG_FORMAT == "json":
    logging.captureWarnings(True)  # Python warnings as JSON lines too, not raw stderr text

# Scheduler: a run more than this late counts as missed for the `skip` misfire policy.
SCHEDULER_MISFIRE_GRACE_SECONDS = env_int("SCHEDULER_MISFIRE_GRACE_SECONDS", 60)
# A resumed tenant's `run_all` tasks replay at most this many of the runs missed while it
# was stopped (the latest ones).
SCHEDULER_RESUME_MAX_REPLAYED_RUNS = env_int("SCHEDULER_RESUME_MAX_REPLAYED_RUNS", 10, minimum=1)
SCHEDULER_PARTITIONS = env_int("SCHEDULER_PARTITIONS", 16, minimum=1)
SCHEDULER_LEASE_SECONDS = env_int("SCHEDULER_LEASE_SECONDS", 10, minimum=1)

SECRET_VALUE_MAX_BYTES = 4096

# Archiver: finished jobs leave the jobs table after these delays (dead ones stay for the
# DLQ window), and the SQL history keeps rows this long.
ARCHIVE_SUCCEEDED_AFTER_SECONDS = env_int("ARCHIVE_SUCCEEDED_AFTER_SECONDS", 3600)
ARCHIVE_CANCELLED_AFTER_SECONDS = env_int("ARCHIVE_CANCELLED_AFTER_SECONDS", 3600)
ARCHIVE_DEAD_AFTER_SECONDS = env_int("ARCHIVE_DEAD_AFTER_SECONDS", 14 * 86400)
HISTORY_RETENTION_DAYS = env_int("HISTORY_RETENTION_DAYS", 30, minimum=1)
# Deleted and completed tasks are purged this long after their last change (once the
# archiver has moved all their jobs), run now keys this long after their run was asked for.
TASK_RETENTION_DAYS = env_int("TASK_RETENTION_DAYS", 7, minimum=1)
RUN_NOW_KEY_RETENTION_HOURS = env_int("RUN_NOW_KEY_RETENTION_HOURS", 24, minimum=1)

# Callbacks (on_success_url, on_failure_url, the tenant's alert): each is a job of its own,
# tried up to 5 times with this backoff base, each try cut off after this timeout. The
# tenant-wide alert comes at most once per task per window (further deaths wait for it).
CALLBACK_TIMEOUT_SECONDS = env_int("CALLBACK_TIMEOUT_SECONDS", 10, minimum=1)
CALLBACK_BACKOFF_SECONDS = env_int("CALLBACK_BACKOFF_SECONDS", 10, minimum=1)
CALLBACK_MAX_ATTEMPTS = 5
# A callback is due this long after the end of the job it reports on.
CALLBACK_DELAY_SECONDS = env_int("CALLBACK_DELAY_SECONDS", 2)
ALERT_WINDOW_SECONDS = env_int("ALERT_WINDOW_SECONDS", 60, minimum=1)
# A flow's rate (flows/room.py) is held over its period plus this guard, in milliseconds:
# a call starts a little after the claim that let it out, and the guard keeps one
# executor's late start and another's prompt one out of the same window.
FLOW_RATE_GUARD_SECONDS = env_int("FLOW_RATE_GUARD_MS", 100) / 1000
# The audit log keeps entries this long; the archiver removes older ones in batches.
AUDIT_RETENTION_DAYS = env_int("AUDIT_RETENTION_DAYS", 400, minimum=1)

# A claim's lease: from the job's own time, its timeout plus this margin.
LEASE_MARGIN_SECONDS = env_int("LEASE_MARGIN_SECONDS", 30)

# An executor whose heartbeat is older than this (by the database's clock) is taken for
# dead: the reconciler hands its running and held jobs back without waiting for their
# leases (jobs/queue/dead_holders.py). Executors beat five times within it.
EXECUTOR_DEAD_AFTER_SECONDS = env_int("EXECUTOR_DEAD_AFTER_SECONDS", 5, minimum=1)

# Executor: each round reads the tasks paused or deleted since its last round, this much
# earlier again: a pause committed just after a claim may carry a slightly older change
# time (the API's clock, its transaction's length).
EXECUTOR_STOPPED_LOOKBACK_SECONDS = env_int("EXECUTOR_STOPPED_LOOKBACK_SECONDS", 10, minimum=1)

# Prometheus: label the attempts, calls and dead-job series by tenant id. Off by default:
# each tenant costs series in every process (README, "Metrics and health").
METRICS_TENANT_LABEL = env_bool("METRICS_TENANT_LABEL", False)
