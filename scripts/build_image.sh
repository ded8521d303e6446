#!/usr/bin/env bash
# `make image`: builds the Dockerfile's image with Debian's podman as IMAGE (default
# localhost/at-cron-scheduler:latest) on BASE_IMAGE (default python:3.11-slim from Docker
# Hub; BASE_IMAGE=localhost/scheduler-base:bookworm where Docker Hub cannot be reached, made
# here first by scripts/ensure_base_image.sh). chroot isolation: the build's steps need no
# OCI runtime (crun fails on some VMs' cgroups); the host's network reaches the package
# archives and PyPI. Extra podman build options may follow, e.g. --no-cache.
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE=${IMAGE:-localhost/at-cron-scheduler:latest}
# Fully qualified: podman resolves no short names without a search registry configured.
BASE_IMAGE=${BASE_IMAGE:-docker.io/library/python:3.11-slim}
scripts/ensure_podman.sh
if [ "$BASE_IMAGE" = localhost/scheduler-base:bookworm ]; then
  scripts/ensure_base_image.sh
fi
# The CAs this host trusts (a TLS-inspecting proxy's among them) for the build's pip only.
CA_BUNDLE=${BUILD_CA_BUNDLE:-${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}}
secret=()
[ -s "$CA_BUNDLE" ] && secret=(--secret "id=ca_bundle,src=$CA_BUNDLE")
exec podman build --isolation=chroot --network host --build-arg "BASE_IMAGE=$BASE_IMAGE" \
  "${secret[@]}" --tag "$IMAGE" "$@" .
