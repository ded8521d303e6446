FROM python:3.11-slim

# mysqlclient builds from source against the MariaDB client headers.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc pkg-config libmariadb-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN python manage.py collectstatic --noinput

ENV PORT=8000 GUNICORN_BIND=0.0.0.0:8000
EXPOSE 8000
# The same image runs every process: override the command with
# `python manage.py run_scheduler`, `run_executor`, `run_reconciler` or `run_archiver`.
CMD ["gunicorn", "scheduler_site.wsgi", "-c", "scheduler_site/gunicorn.conf.py"]
