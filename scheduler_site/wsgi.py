import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scheduler_site.settings")
try:
    application = get_wsgi_application()
except ImproperlyConfigured as exc:
    sys.stderr.write(f"configuration error: {exc}\n")
    raise SystemExit(2) from exc
