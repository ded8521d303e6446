import os
import sys

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scheduler_site.settings")
try:
    application = get_wsgi_application()
except ImproperlyConfigured as exc:
    # Said plainly first; the error itself then makes gunicorn give up ("failed to boot")
    # rather than restart the worker forever.
    sys.stderr.write(f"configuration error: {exc}\n")
    raise
