# Two stages: the builder has the compiler and headers and installs every runtime requirement
# into a virtualenv; the image that runs gets that virtualenv, the runtime libraries and nginx.
#
# The base is a build argument: python:3.11-slim by default; where Docker Hub cannot be
# reached, any Debian bookworm with python3.11 (scripts/ensure_base_image.sh makes one with
# debootstrap: BASE_IMAGE=localhost/scheduler-base:bookworm make image). Each stage installs
# with apt only what its base lacks, so both bases build the same image.
ARG BASE_IMAGE=python:3.11-slim

FROM ${BASE_IMAGE} AS builder
# mysqlclient builds from source against the MariaDB client headers and Python's own; a
# Debian python3.11 has neither its headers nor ensurepip (venv) until their packages are in.
RUN packages="gcc pkg-config libmariadb-dev" \
 && { python3.11 -c "import ensurepip" 2>/dev/null || packages="$packages python3.11-venv"; } \
 && { python3.11 -c "import sysconfig, os, sys; sys.exit(not os.path.exists(sysconfig.get_paths()['include'] + '/Python.h'))" \
      || packages="$packages python3.11-dev"; } \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages \
 && rm -rf /var/lib/apt/lists/*
# A virtualenv, not the system's site-packages: Debian's python3.11 is externally managed
# (PEP 668), and the runtime stage takes the whole folder in one COPY.
RUN python3.11 -m venv /opt/venv
# The requirements before the code: a change to the code rebuilds none of this. A build
# behind a TLS-inspecting proxy passes the host's CA bundle as the secret ca_bundle
# (scripts/build_image.sh does); it is read for this step only, never kept in a layer.
COPY requirements.txt /build/
RUN --mount=type=secret,id=ca_bundle \
    if [ -s /run/secrets/ca_bundle ]; then export PIP_CERT=/run/secrets/ca_bundle; fi \
 && /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check -r /build/requirements.txt

FROM ${BASE_IMAGE}
# libmariadb3: what mysqlclient's extension links to; nginx fronts the API.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmariadb3 nginx-light \
 && rm -rf /var/lib/apt/lists/*
# The builder's virtualenv: the runtime requirements only, no compiler or headers with them
# (its python is the base's python3.11, at the same path in this stage).
COPY --from=builder /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH PYTHONUNBUFFERED=1

WORKDIR /app
COPY . .
# Static files need no keys; the running processes do (SECRET_KEY, JWT_SIGNING_KEY,
# SECRETS_ENCRYPTION_KEYS), so DEBUG is on for this build step only. The code is compiled
# here: the unprivileged user cannot write its __pycache__ folders at run time.
RUN DEBUG=true python manage.py collectstatic --noinput \
 && python -m compileall -q /app \
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
