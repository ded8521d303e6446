"""A container's health check without curl or wget in the image: exits 0 when the URL
answers 200 within 3 seconds, 1 otherwise (the reason on stderr). docker-compose.yml checks
the API with it: python scripts/http_probe.py http://127.0.0.1:8010/readyz"""

from __future__ import annotations

import sys
import urllib.request


def probe(url: str, timeout: float = 3.0) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return 0 if response.status == 200 else 1
    except OSError as exc:  # refused, timed out, or an HTTP error status
        print(f"{url}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python scripts/http_probe.py URL")
    sys.exit(probe(sys.argv[1]))
