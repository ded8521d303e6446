FROM python:3.11-slim

# mysqlclient builds from source against the MariaDB client headers; nginx fronts the API.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc pkg-config libmariadb-dev nginx-light \
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

ENV PORT=8000
EXPOSE 8000
# The same image runs every process. By default the API: nginx on $PORT in front of gunicorn
# (half-open or slow clients never reach gunicorn's threads). Override the command with
# `python manage.py run_scheduler`, `run_executor`, `run_reconciler`, `run_archiver` or
# `serve_metrics --metrics-port 9100 --metrics-address 0.0.0.0` for the others.
CMD ["scripts/container_api.sh"]
