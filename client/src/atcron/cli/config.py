"""Where the CLI's URL and key come from: flags (`--api-url`, `--api-key`), then the
environment (`ATCRON_URL`, `ATCRON_KEY`), then the config file (`--config`, `ATCRON_CONFIG`, else
`~/.config/atcron/config.toml`), each winning over the next.

The file holds `url` and `key` at its top, or in `[profiles.<name>]` tables chosen with
`--profile` or `ATCRON_PROFILE`.
"""

from __future__ import annotations

import os
import tomllib
from argparse import Namespace
from pathlib import Path

from atcron.errors import ConfigError


def config_path(args: Namespace) -> Path:
    given = getattr(args, "config", None) or os.environ.get("ATCRON_CONFIG")
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "atcron" / "config.toml"


def file_settings(args: Namespace) -> dict[str, str]:
    path = config_path(args)
    explicit = getattr(args, "config", None) or os.environ.get("ATCRON_CONFIG")
    if not path.exists():
        if explicit:
            raise ConfigError(f"config file {path} does not exist")
        return {}
    try:
        document = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from exc
    profile = getattr(args, "profile", None) or os.environ.get("ATCRON_PROFILE")
    if not profile:
        return {key: value for key, value in document.items() if isinstance(value, str)}
    profiles = document.get("profiles", {})
    if profile not in profiles:
        raise ConfigError(f"config file {path} has no [profiles.{profile}]")
    return {key: value for key, value in profiles[profile].items() if isinstance(value, str)}


def credentials(args: Namespace) -> tuple[str, str]:
    """The API's URL and the bearer (an API key or a token), or a ConfigError naming
    every place it was looked for."""
    found = file_settings(args)
    url = getattr(args, "api_url", None) or os.environ.get("ATCRON_URL") or found.get("url")
    key = getattr(args, "api_key", None) or os.environ.get("ATCRON_KEY") or found.get("key")
    for name, value in (("url", url), ("key", key)):
        if not value:
            raise ConfigError(
                f"no API {name}: pass --api-{name}, set ATCRON_{name.upper()}, or put "
                f"`{name} = ...` in {config_path(args)}"
            )
    return str(url), str(key)
