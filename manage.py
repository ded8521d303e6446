#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scheduler_site.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        # A bad setting (a missing key, say) is the operator's to fix: say which, no traceback.
        sys.stderr.write(f"configuration error: {exc}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
