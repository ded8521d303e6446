"""A task's labels: up to 20 `key: value` pairs the tenant filters tasks and jobs by.

Keys are lower-case letters, digits, `_`, `.` and `-` (1 to 63), values strings of up to 255
characters. A task's labels are copied onto each job when the job is made, so a job keeps
the labels its task had then; an unlabelled task's jobs carry NULL, not `{}`.
"""

from __future__ import annotations

import re

from rest_framework import serializers

from scheduler_site.unicode_text import LONE_SURROGATE, has_lone_surrogate, printable

MAX_LABELS = 20
MAX_VALUE_LENGTH = 255
KEY_PATTERN = re.compile(r"[a-z0-9_.-]{1,63}")
# The labels of a job the tick or a backfill makes from task row `t`: an unlabelled task's
# (its column holds `{}` as written) give NULL, so their jobs store nothing more.
JOB_LABELS_SQL = "NULLIF(t.labels, '{}')"
KEY_RULE = "keys are 1 to 63 of a-z, 0-9, `_`, `.` and `-`"


def key_problem(key: object) -> str | None:
    if not isinstance(key, str) or not KEY_PATTERN.fullmatch(key):
        return KEY_RULE
    return None


def value_problem(value: object) -> str | None:
    if not isinstance(value, str):
        return "a label's value must be a string"
    if has_lone_surrogate(value):
        return LONE_SURROGATE
    if len(value) > MAX_VALUE_LENGTH:
        return f"at most {MAX_VALUE_LENGTH} characters"
    return None


def checked_labels(data: object) -> dict[str, str]:
    """The labels as stored, or a ValidationError naming `labels` or the bad key
    (`fields.labels.<key>` in the error body)."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise serializers.ValidationError('an object of `"key": "value"` pairs')
    if len(data) > MAX_LABELS:
        raise serializers.ValidationError(f"at most {MAX_LABELS} labels, not {len(data)}")
    problems = {}
    for key, value in data.items():
        problem = key_problem(key) or value_problem(value)
        if problem:
            problems[printable(str(key))] = problem
    if problems:
        raise serializers.ValidationError(problems)
    return dict(data)
