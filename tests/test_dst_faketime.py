"""Daylight-saving changes found black-box: five real systems (the API under gunicorn, the
scheduler, the executor), each under libfaketime with one offset for all its processes and
a database of its own, started about 100 seconds before a change in Europe/Madrid or
America/New_York. Tasks are created through the API; the calls arrive at a real endpoint
of this test (on the real clock) and their X-Scheduled-At are compared with the rules.

The fall-back's repeated hour lasts an hour: one system starts just before it turns over
(its second pass begins) and another just before it ends, a few minutes seen on each side.
All five run side by side, so the module takes about three minutes.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
import requests

from tests.endpoints import Endpoint
from tests.faketime import faketime_env, offset_to, run_command, token_at
from tests.processes import ApiServer, ManagedProcess, stop_all

LEAD = timedelta(seconds=100)  # the processes start this long before the change


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@dataclass(frozen=True)
class Window:
    name: str
    zone: str
    change: datetime  # the UTC instant the local clock jumps
    crons: dict[str, str]  # label -> cron expression
    expected: dict[str, list[str]]  # label -> the scheduled instants up to `until`
    until: datetime
    skipped: dict[str, int] = field(default_factory=dict)  # label -> skipped_runs after
    next_runs: dict[str, str] = field(default_factory=dict)  # label -> next_run_at after


WINDOWS = [
    Window(  # 02:00 CET becomes 03:00 CEST at 01:00 UTC
        "madrid_spring",
        "Europe/Madrid",
        utc("2027-03-28T01:00"),
        {"at_0230": "30 2 * * *", "list": "15,45 2 * * *", "at_0300": "0 3 * * *",
         "every_minute": "* * * * *"},
        {"at_0230": ["01:00"], "list": ["01:00"], "at_0300": ["01:00"],
         "every_minute": ["00:59", "01:00", "01:01"]},
        utc("2027-03-28T01:01"),
        skipped={"list": 1, "every_minute": 0, "at_0230": 0},
    ),
    Window(  # 03:00 CEST becomes 02:00 CET at 01:00 UTC: 02:00-02:59 happens twice
        "madrid_fall",
        "Europe/Madrid",
        utc("2027-10-31T01:00"),
        {"every_minute": "* * * * *", "hourly": "0 * * * *", "at_0259": "59 2 * * *"},
        {"every_minute": ["00:59", "01:00", "01:01"], "hourly": ["01:00"], "at_0259": ["00:59"]},
        utc("2027-10-31T01:01"),
        next_runs={"at_0259": "2027-11-01T01:59:00Z"},
    ),
    Window(  # 02:00 EST becomes 03:00 EDT at 07:00 UTC
        "new_york_spring",
        "America/New_York",
        utc("2027-03-14T07:00"),
        {"at_0230": "30 2 * * *", "at_0300": "0 3 * * *", "every_minute": "* * * * *"},
        {"at_0230": ["07:00"], "at_0300": ["07:00"], "every_minute": ["06:59", "07:00", "07:01"]},
        utc("2027-03-14T07:01"),
        skipped={"every_minute": 0},
    ),
    Window(  # 02:00 EDT becomes 01:00 EST at 06:00 UTC: the second pass of 01:xx begins
        "new_york_fall",
        "America/New_York",
        utc("2027-11-07T06:00"),
        {"every_minute": "* * * * *", "hourly": "0 * * * *", "quarter": "*/15 * * * *",
         "at_0159": "59 1 * * *"},
        {"every_minute": ["05:59", "06:00", "06:01"], "hourly": ["06:00"], "quarter": ["06:00"],
         "at_0159": ["05:59"]},
        utc("2027-11-07T06:01"),
        next_runs={"at_0159": "2027-11-08T06:59:00Z"},
    ),
    Window(  # 07:00 UTC is 02:00 EST: the second pass of 01:xx ends
        "new_york_fall_end",
        "America/New_York",
        utc("2027-11-07T07:00"),
        {"every_minute": "* * * * *", "hourly": "0 * * * *", "at_0130": "30 1 * * *"},
        {"every_minute": ["06:59", "07:00", "07:01"], "hourly": ["07:00"], "at_0130": []},
        utc("2027-11-07T07:01"),
        next_runs={"at_0130": "2027-11-08T06:30:00Z"},
    ),
]  # fmt: skip


@dataclass
class System:
    window: Window
    database: str  # a copy of the migrated template
    endpoint: Endpoint = field(default_factory=Endpoint)
    offset: int = 0
    tenant_id: str = ""
    api: ApiServer | None = None
    processes: list[ManagedProcess] = field(default_factory=list)
    task_ids: dict[str, str] = field(default_factory=dict)
    created_at: datetime | None = None  # the processes' instant when the tasks exist
    tasks_after: dict[str, dict] = field(default_factory=dict)  # GET of each task at the end

    def start(self, log_dir) -> None:
        self.offset = offset_to(self.window.change - LEAD)
        env = faketime_env(self.offset) | {
            "DATABASE_URL": f"sqlite:///{self.database}",
            "EGRESS_ALLOW": "127.0.0.0/8",
            "HISTORY_BACKEND": "sql",
        }
        name = self.window.name
        self.tenant_id = run_command(["create_tenant", name], env).strip()
        self.api = ApiServer(log_dir / f"{name}-api.log", workers=1, env=env)
        self._create_tasks()
        commands = {
            "scheduler": ["run_scheduler", "--tick", "0.5", "--lookahead", "0"],
            "executor": ["run_executor", "--poll-interval", "0.5"],
        }
        self.processes = [self.api] + [
            ManagedProcess(args, log_dir / f"{name}-{kind}.log", env=env)
            for kind, args in commands.items()
        ]

    def _headers(self) -> dict:
        return {"Authorization": f"Bearer {token_at(self.tenant_id, self.offset)}"}

    def _create_tasks(self) -> None:
        for label, cron in self.window.crons.items():
            body = {"name": label, "cron": cron, "timezone": self.window.zone,
                    "url": self.endpoint.url(f"/ok/{label}")}  # fmt: skip
            response = requests.post(
                self.api.url("/v1/tasks"), json=body, headers=self._headers(), timeout=30
            )
            assert response.status_code == 201, response.text
            self.task_ids[label] = response.json()["id"]
        self.created_at = datetime.fromtimestamp(time.time() + self.offset, UTC)

    def expected(self) -> set[tuple[str, str]]:
        day = self.window.change.date().isoformat()
        return {
            (label, f"{day}T{moment}:00.000Z")
            for label, moments in self.window.expected.items()
            for moment in moments
        }

    def received(self) -> set[tuple[str, str]]:
        """Each call up to `until` as (label, X-Scheduled-At)."""
        last = self.window.until.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        calls = [(c.path.split("/")[-1], c.headers["X-Scheduled-At"]) for c in self.calls()]
        return {call for call in calls if call[1] <= last}

    def calls(self) -> list:
        return self.endpoint.requests_for("/ok/")

    def read_tasks(self) -> None:
        for label, task_id in self.task_ids.items():
            response = requests.get(
                self.api.url(f"/v1/tasks/{task_id}"), headers=self._headers(), timeout=30
            )
            assert response.status_code == 200, response.text
            self.tasks_after[label] = response.json()


def run_systems(systems: list[System], log_dir) -> None:
    try:
        for system in systems:
            system.start(log_dir)
        latest = max(s.window.until - s.window.change + LEAD for s in systems)
        deadline = time.monotonic() + latest.total_seconds() + 60
        while not all(s.expected() <= s.received() for s in systems):
            missing = {s.window.name: sorted(s.expected() - s.received()) for s in systems}
            assert time.monotonic() < deadline, f"calls that did not arrive: {missing}"
            time.sleep(0.5)
        time.sleep(3)  # a wrong extra call made with the last expected ones would be in by now
        for system in systems:
            system.read_tasks()
    finally:
        stop_all([process for system in systems for process in system.processes])
        for system in systems:
            system.endpoint.close()


@pytest.fixture(scope="module")
def systems(tmp_path_factory) -> dict[str, System]:
    folder = tmp_path_factory.mktemp("faketime")
    template = folder / "template.sqlite3"
    run_command(["migrate", "-v0"], {"DATABASE_URL": f"sqlite:///{template}"})
    built = []
    for window in WINDOWS:
        database = folder / f"{window.name}.sqlite3"
        shutil.copyfile(template, database)
        built.append(System(window, str(database)))
    run_systems(built, folder)
    return {system.window.name: system for system in built}


@pytest.fixture(params=[w.name for w in WINDOWS])
def system(request, systems) -> System:
    found = systems[request.param]
    assert found.created_at < found.window.change - timedelta(seconds=60), (
        f"the tasks were created at {found.created_at}: too late to see the first run"
    )
    return found


def test_the_calls_made_across_each_change_follow_the_dst_rules(system):
    assert system.received() == system.expected()


def test_each_call_arrives_when_its_scheduled_instant_has_come_on_the_processes_clock(system):
    for call in system.calls():
        scheduled = datetime.fromisoformat(call.headers["X-Scheduled-At"])
        arrived = datetime.fromtimestamp(call.at + system.offset, UTC)
        assert scheduled <= arrived < scheduled + timedelta(seconds=30), call.headers


def test_the_runs_a_gap_collapsed_are_in_the_skipped_run_ledger(system):
    for label, count in system.window.skipped.items():
        assert system.tasks_after[label]["skipped_runs"] == count, label


def test_a_fixed_hour_is_not_run_again_in_the_repeated_hour(system):
    for label, next_run in system.window.next_runs.items():
        assert system.tasks_after[label]["next_run_at"] == next_run, label
