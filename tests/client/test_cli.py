"""The `atcron` CLI as a real process against a real API: tables, --json, exit codes."""

import json

import pytest

from tests.client.conftest import write
from tests.conftest import PUBLIC_URL
from tests.processes import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def env(base_url, token) -> dict:
    return {"ATCRON_URL": base_url, "ATCRON_KEY": token}


@pytest.fixture
def task(sdk):
    return sdk.tasks.create({"name": "nightly", "cron": "0 3 * * *", "url": PUBLIC_URL})


def out(result) -> str:
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def test_the_task_list_is_a_table_for_people(cli, env, task):
    lines = out(cli("tasks", "list", env=env)).splitlines()
    assert lines[0].split() == ["ID", "NAME", "STATUS", "SCHEDULE", "NEXT", "RUN", "URL"]
    assert lines[1].split()[:5] == [task.id, "nightly", "active", "0", "3"]


def test_json_output_is_the_apis_own_json(cli, env, task, sdk):
    assert json.loads(out(cli("tasks", "get", task.id, "--json", env=env))) == task.raw
    listed = json.loads(out(cli("--json", "tasks", "list", env=env)))
    assert listed == [sdk.tasks.get(task.id).raw]


def test_one_object_is_shown_field_by_field(cli, env, task):
    lines = out(cli("tasks", "get", task.id, env=env)).splitlines()
    assert lines[0].split() == ["id", task.id]
    assert ["name", "nightly"] in [line.split() for line in lines]


def test_a_task_made_from_flags_is_edited_paused_resumed_run_and_deleted(cli, env, sdk):
    made = json.loads(
        out(
            cli(
                "tasks",
                "create",
                "--json",
                "--name",
                "poll",
                "--interval-seconds",
                "60",
                "--url",
                PUBLIC_URL,
                "--header",
                "X-Team: billing",
                "--label",
                "env=prod",
                env=env,
            )
        )
    )
    assert (made["interval_seconds"], made["headers"], made["labels"]) == (
        60,
        {"X-Team": "billing"},
        {"env": "prod"},
    )
    edited = json.loads(
        out(cli("tasks", "update", made["id"], "--priority", "3", "--json", env=env))
    )
    assert edited["priority"] == 3 and edited["version"] == made["version"] + 1
    assert (
        json.loads(out(cli("tasks", "pause", made["id"], "--json", env=env)))["status"] == "paused"
    )
    assert (
        json.loads(out(cli("tasks", "resume", made["id"], "--json", env=env)))["status"] == "active"
    )
    job = json.loads(out(cli("tasks", "run", made["id"], "--json", env=env)))
    assert job["task_id"] == made["id"]
    assert out(cli("tasks", "delete", made["id"], env=env)) == f"deleted task {made['id']}\n"
    assert list(sdk.tasks.list()) == []


def test_a_task_made_from_a_file_takes_the_flags_over_it(cli, env, tmp_path):
    path = write(tmp_path / "task.yaml", f"name: from-file\ncron: '0 3 * * *'\nurl: {PUBLIC_URL}\n")
    made = json.loads(
        out(cli("tasks", "create", "-f", str(path), "--cron", "0 4 * * *", "--json", env=env))
    )
    assert (made["name"], made["cron"]) == ("from-file", "0 4 * * *")


def test_a_list_is_capped_by_limit_and_says_so(cli, env, sdk):
    for n in range(3):
        sdk.tasks.create({"name": f"t{n}", "cron": "0 3 * * *", "url": PUBLIC_URL})
    result = cli("tasks", "list", "--limit", "2", env=env)
    assert len(out(result).splitlines()) == 3
    assert "--all" in result.stderr.decode()
    assert len(out(cli("tasks", "list", "--all", env=env)).splitlines()) == 4


def test_the_config_file_gives_the_url_and_key(cli, base_url, token, task):
    write(cli.home / ".config/atcron/config.toml", f'url = "{base_url}"\nkey = "{token}"\n')
    assert task.id in out(cli("tasks", "list"))


def test_a_named_config_file_and_profile_are_used(cli, base_url, token, task, tmp_path):
    path = write(
        tmp_path / "atcron.toml",
        f'url = "http://127.0.0.1:{free_port()}"\nkey = "x"\n'
        f'[profiles.prod]\nurl = "{base_url}"\nkey = "{token}"\n',
    )
    assert task.id in out(cli("--config", str(path), "--profile", "prod", "tasks", "list"))


def test_the_environment_wins_over_the_config_file(cli, env, task):
    unreachable = f"http://127.0.0.1:{free_port()}"
    write(cli.home / ".config/atcron/config.toml", f'url = "{unreachable}"\nkey = "bad"\n')
    assert task.id in out(cli("tasks", "list", env=env))


def test_flags_win_over_the_environment(cli, base_url, token, task):
    env = {"ATCRON_URL": base_url, "ATCRON_KEY": "not-a-token"}
    assert task.id in out(cli("tasks", "list", "--api-key", token, env=env))


def test_an_api_error_prints_the_apis_message_and_exits_1(cli, env):
    result = cli("tasks", "get", "0190f0c4-8c1e-7b7a-9b1e-3f1f2c4d5e6f", env=env)
    assert result.returncode == 1
    assert result.stderr.decode() == "atcron: 404 not_found: task not found\n"
    assert result.stdout == b""


def test_an_api_error_names_each_bad_field(cli, env):
    result = cli("tasks", "create", "--name", "x", "--url", PUBLIC_URL, "--cron", "nope", env=env)
    assert result.returncode == 1
    assert "400 invalid" in result.stderr.decode() and "  cron:" in result.stderr.decode()


def test_with_json_an_api_error_is_the_apis_error_body(cli, env):
    result = cli("--json", "tasks", "get", "0190f0c4-8c1e-7b7a-9b1e-3f1f2c4d5e6f", env=env)
    assert result.returncode == 1
    assert json.loads(result.stderr) == {
        "status": 404,
        "error": {"code": "not_found", "message": "task not found"},
    }


def test_a_refused_key_exits_1(cli, base_url):
    result = cli("tasks", "list", env={"ATCRON_URL": base_url, "ATCRON_KEY": "nope"})
    assert result.returncode == 1 and "401" in result.stderr.decode()


def test_no_credentials_exit_2_naming_where_they_are_looked_for(cli):
    result = cli("tasks", "list")
    assert result.returncode == 2
    assert "ATCRON_URL" in result.stderr.decode() and "config.toml" in result.stderr.decode()


def test_an_unreachable_api_exits_3(cli):
    env = {"ATCRON_URL": f"http://127.0.0.1:{free_port()}", "ATCRON_KEY": "x"}
    result = cli("tasks", "list", env=env)
    assert result.returncode == 3 and "cannot reach the API" in result.stderr.decode()
