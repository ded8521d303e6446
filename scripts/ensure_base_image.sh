#!/usr/bin/env bash
# A local base image for the Dockerfile where Docker Hub (python:3.11-slim) cannot be
# reached: Debian bookworm made with debootstrap (python3.11, CA certificates, netbase and
# tzdata, as the slim image has them) and imported into podman as
# localhost/scheduler-base:bookworm. The root file system is kept as a tar file under
# BASE_IMAGE_DIR (default ~/.cache/scheduler-base), so only the first run on a machine
# downloads anything (a few minutes); later runs take a second, or an import when podman's
# storage was emptied. Needs podman and debootstrap: scripts/ensure_podman.sh.
#   BASE_IMAGE_MIRROR  the Debian mirror (default: this machine's apt source for Debian)
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=localhost/scheduler-base:bookworm
CACHE="${BASE_IMAGE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/scheduler-base}"
TARBALL="$CACHE/bookworm-rootfs.tar"
PACKAGES=python3.11,ca-certificates,netbase,tzdata

machine_mirror() {
  # The first Debian archive this machine's apt reads from (deb822 or one-line sources).
  local uri
  uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n1 | tr -d ' ' || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

make_rootfs() {
  local mirror root security
  mirror="${BASE_IMAGE_MIRROR:-$(machine_mirror)}"
  security="${mirror%/}-security"
  root=$(mktemp -d "$CACHE/rootfs.XXXXXX")
  echo "ensure_base_image.sh: debootstrap bookworm from $mirror (once; a few minutes)" >&2
  debootstrap --variant=minbase --include="$PACKAGES" bookworm "$root" "$mirror" >&2
  # The image's apt reads the same archive, its updates and its security fixes, like the
  # official Debian images; no package lists are kept (the Dockerfile runs apt-get update).
  cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
  tar --numeric-owner -C "$root" -cf "$TARBALL.part" .
  mv "$TARBALL.part" "$TARBALL"
  rm -rf "$root"
}

has_image() {
  podman image exists "$TAG"
}

has_image && exit 0
command -v podman >/dev/null && command -v debootstrap >/dev/null \
  || { echo "ensure_base_image.sh: podman or debootstrap missing: run scripts/ensure_podman.sh" >&2; exit 1; }
mkdir -p "$CACHE"
# One build at a time: two test runs at once would both debootstrap into the cache.
exec 9>"$CACHE/.lock"
flock 9
has_image && exit 0
[ -s "$TARBALL" ] || make_rootfs
podman import --quiet \
  --change 'ENV LANG=C.UTF-8' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["python3.11"]' \
  "$TARBALL" "$TAG" >/dev/null
echo "ensure_base_image.sh: imported $TAG" >&2
