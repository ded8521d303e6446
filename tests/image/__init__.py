"""The container image built with podman on a local Debian base and run here (tests/image/)."""
