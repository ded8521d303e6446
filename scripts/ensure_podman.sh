#!/usr/bin/env bash
# The image test (tests/image/) builds and runs the Dockerfile's image with Debian's podman:
# this installs podman, runc (crun fails on this VM's cgroups) and debootstrap (the local
# base image, scripts/ensure_base_image.sh) when any is missing. Quick when all are there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh
missing=()
command -v podman >/dev/null || missing+=(podman)
[ -x /usr/sbin/runc ] || missing+=(runc)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian's ${missing[*]}"
  apt_install "${missing[@]}"
fi
