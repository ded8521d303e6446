"""A task's cron in words, as the scheduler reads it: its `H` resolved, macros expanded,
on a 24-hour clock."""

from console.cron_words import cron_in_words
from tasks import schedule


def test_a_weekday_cron_reads_in_words_on_a_24_hour_clock():
    assert cron_in_words("30 17 * * 1-5", "seed") == "At 17:30, Monday through Friday"


def test_a_step_reads_as_every_n_minutes():
    assert cron_in_words("*/15 * * * *", "seed") == "Every 15 minutes"


def test_a_macro_reads_as_the_fields_it_stands_for():
    assert cron_in_words("@daily", "seed") == "At 00:00"


def test_h_is_resolved_with_the_tasks_id():
    minute = schedule.resolve_hash("H 3 * * *", "a-task-id").split()[0]
    assert cron_in_words("H 3 * * *", "a-task-id") == f"At 03:{int(minute):02d}"
