# Two stages: the builder has the compiler and headers and turns every runtime requirement
# into a wheel; the image that runs has only the wheels, the runtime libraries and nginx.

FROM python:3.11-slim AS builder
# mysqlclient builds from source against the MariaDB client headers.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc pkg-config libmariadb-dev \
 && rm -rf /var/lib/apt/lists/*
COPY requirements.txt /build/
RUN pip wheel --no-cache-dir --wheel-dir /build/wheels -r /build/requirements.txt

FROM python:3.11-slim
# libmariadb3: what mysqlclient's wheel links to; nginx fronts the API.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmariadb3 nginx-light \
 && rm -rf /var/lib/apt/lists/*
COPY --from=builder /build/requirements.txt /build/wheels /tmp/wheels/
RUN pip install --no-cache-dir --no-index --find-links /tmp/wheels -r /tmp/wheels/requirements.txt \
 && rm -rf /tmp/wheels

WORKDIR /app
COPY . .
# Static files need no keys; the running processes do (SECRET_KEY, JWT_SIGNING_KEY,
# SECRETS_ENCRYPTION_KEYS), so DEBUG is on for this build step only.
RUN DEBUG=true python manage.py collectstatic --noinput \
 && useradd --system --uid 10001 --no-create-home scheduler \
 && mkdir /data && chown scheduler /data
USER scheduler

# The one folder the unprivileged user may write: the embedded mode's SQLite database by
# default (mount a volume there to keep it; a deployment names its MariaDB instead).
ENV DATABASE_URL=sqlite:////data/db.sqlite3
ENV PORT=8000
EXPOSE 8000
# The same image runs every process. By default the API: nginx on $PORT in front of gunicorn
# (half-open or slow clients never reach gunicorn's threads). Override the command with
# `python manage.py run_scheduler`, `run_executor`, `run_reconciler`, `run_archiver` or
# `serve_metrics --metrics-port 9100 --metrics-address 0.0.0.0` for the others.
CMD ["scripts/container_api.sh"]
