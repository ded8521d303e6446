"""`make bench-campaign` as README and RELIABILITY.md give it, with one short scenario and a
results folder given relative to the checkout (the default one is relative too): nginx
reads the endpoint's paths relative to its own prefix, so the folder must be resolved."""

import json
import os
import subprocess

from tests.processes import ROOT

SCENARIO = "03-executor-killed"


def test_make_bench_campaign_writes_its_results_in_a_relative_folder(tmp_path):
    out = os.path.relpath(tmp_path / "results", ROOT)
    args = f"{SCENARIO} --scale 0.02 --no-progress --out {out}"
    done = subprocess.run(
        # From another folder, as a user might; the venv is the suite's own (-o: not remade).
        ["make", "-C", str(ROOT), "-o", ".venv/.installed", "bench-campaign"],
        cwd=tmp_path,
        env={**os.environ, "CAMPAIGN_ARGS": args},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads((tmp_path / "results" / f"{SCENARIO}.json").read_text())
    assert figures["lost"] == 0 and figures["expected"] > 0
    assert (tmp_path / "results" / f"{SCENARIO}.png").exists()
    assert (tmp_path / "results" / "summary.json").exists()
