FROM python:3.11-slim

# mysqlclient builds from source against the MariaDB client headers.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc pkg-config libmariadb-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# Static files need no keys; the running processes do (SECRET_KEY, JWT_SIGNING_KEY,
# SECRETS_ENCRYPTION_KEYS), so DEBUG is on for this build step only.
RUN DEBUG=true python manage.py collectstatic --noinput \
 && useradd --system --uid 10001 --no-create-home scheduler
USER scheduler

ENV PORT=8000 GUNICORN_BIND=0.0.0.0:8000
EXPOSE 8000
# The same image runs every process: override the command with
# `python manage.py run_scheduler`, `run_executor`, `run_reconciler` or `run_archiver`.
CMD ["gunicorn", "scheduler_site.wsgi", "-c", "scheduler_site/gunicorn.conf.py"]
