"""`atcron ... --help` says what every flag and argument is: `--timeout` (the request's)
beside `--timeout-seconds` (the task's) read alike with no help, and so did every task
field, id and name."""

import argparse
from collections.abc import Iterator

from atcron.cli.main import parser


def undescribed(command: argparse.ArgumentParser, path: str) -> Iterator[str]:
    for action in command._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from undescribed(sub, f"{path} {name}")
        elif not action.help:
            yield f"{path} {'/'.join(action.option_strings) or action.dest}"


def test_every_flag_and_argument_of_every_command_has_its_help():
    assert list(undescribed(parser(), "atcron")) == []


def test_the_request_timeout_is_told_apart_from_the_tasks(capsys):
    create = parser()._subparsers._group_actions[0].choices["tasks"]
    create = create._subparsers._group_actions[0].choices["create"]
    text = create.format_help()
    assert "--timeout-seconds" in text and "request to the API" in text
