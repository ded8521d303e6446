"""Python SDK for the at and cron service: `Client(url, key)` and `verify(...)`."""

__version__ = "0.1.0"

from atcron.client import Client  # noqa: E402
from atcron.errors import (  # noqa: E402
    ApiError,
    AtcronError,
    ConfigError,
    SignatureError,
    TransportError,
)
from atcron.models import (  # noqa: E402
    ApiKey,
    ApplyResult,
    Attempt,
    BulkResult,
    Job,
    Secret,
    SigningSecret,
    Task,
)
from atcron.verify import verify  # noqa: E402

__all__ = [
    "ApiError",
    "ApiKey",
    "ApplyResult",
    "AtcronError",
    "Attempt",
    "BulkResult",
    "Client",
    "ConfigError",
    "Job",
    "Secret",
    "SignatureError",
    "SigningSecret",
    "Task",
    "TransportError",
    "__version__",
    "verify",
]
