"""The image tests' clean-up on a podman storage shared by every checkout on the machine:
their own and dead sessions' containers go, another live session's stay."""

import subprocess

from tests.image.podman import BASE_IMAGE, LABEL, ROOT, remove_leftovers, require_podman


def create(owner: str) -> str:
    made = subprocess.run(
        ["podman", "create", "--label", f"{LABEL}={owner}", BASE_IMAGE, "true"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return made.stdout.strip()


def exists(container: str) -> bool:
    return subprocess.run(["podman", "container", "exists", container]).returncode == 0


def test_clean_up_spares_a_live_sessions_containers_and_removes_a_dead_ones():
    require_podman()
    subprocess.run([ROOT / "scripts/ensure_base_image.sh"], check=True, capture_output=True)
    live = subprocess.Popen(["sleep", "60"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    theirs, gone = create(str(live.pid)), create(str(dead.pid))
    try:
        remove_leftovers()
        assert exists(theirs), "another running session's container was removed"
        assert not exists(gone), "a finished session's container was left"
    finally:
        live.kill()
        live.wait()
        subprocess.run(["podman", "rm", "--force", "--ignore", theirs, gone], capture_output=True)
