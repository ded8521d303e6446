#!/usr/bin/env bash
# tests/deploy/test_kube_play.py plays the Kubernetes manifests' pods with `podman kube
# play`: podman and runc (scripts/ensure_podman.sh), and catatonit, which podman needs to
# make the pods' local pause image (no registry holds one for it here). Quick when all are
# there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
scripts/ensure_podman.sh
if ! command -v catatonit >/dev/null && [ ! -x /usr/libexec/podman/catatonit ]; then
  echo "installing Debian's catatonit"
  apt_install catatonit
fi
# The image the manifests name, built on the local debootstrap base (Docker Hub is out of
# reach here): always, so the pods run this checkout's code; podman's layer cache makes it
# seconds when nothing changed (tests/image builds the same layers).
IMAGE=${IMAGE:-localhost/at-cron-scheduler:latest}
echo "building $IMAGE (make image on the local base)"
IMAGE=$IMAGE BASE_IMAGE=localhost/scheduler-base:bookworm scripts/build_image.sh >&2
