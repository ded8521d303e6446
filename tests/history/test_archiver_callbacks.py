"""The archiver drops finished callback jobs (they are no runs of a task) and their targets
with them, never a target whose job is still in the queue."""

from datetime import UTC, datetime, timedelta

from execution.archiver_process import ArchiverProcess
from history.models import JobHistory
from jobs.archive import archive_batch
from jobs.models import CALLBACK_PRIORITY, Callback, Job, JobStatus
from tests.executor.callback_jobs import make_callback

LONG_AGO = datetime.now(UTC) - timedelta(days=30)


def finished_callback(origin: Job, status: str = JobStatus.SUCCEEDED) -> Job:
    return make_callback(
        origin, "https://93.184.216.34/cb", status=status, attempt=1, finished_at=LONG_AGO
    )


def test_a_finished_callback_job_is_dropped_with_its_target_and_not_kept_in_history(make_job):
    callback = finished_callback(make_job("https://93.184.216.34/ok"))
    assert archive_batch() == (0, 1)
    assert not Job.objects.filter(id=callback.id).exists()
    assert not Callback.objects.filter(job_id=callback.id).exists()
    assert not JobHistory.objects.filter(id=callback.id).exists()


def test_a_dead_callback_job_is_dropped_after_the_dlq_window(make_job):
    callback = finished_callback(make_job("https://93.184.216.34/ok"), JobStatus.DEAD)
    archive_batch()
    assert not Callback.objects.filter(job_id=callback.id).exists()


def test_a_run_archived_beside_a_callback_still_moves_to_the_history(make_job):
    run = make_job("https://93.184.216.34/ok", status="succeeded", finished_at=LONG_AGO)
    finished_callback(run)
    assert archive_batch() == (1, 2)
    assert JobHistory.objects.filter(id=run.id).exists()


def test_a_pending_callback_keeps_its_target(make_job):
    origin = make_job("https://93.184.216.34/ok")
    done, waiting = finished_callback(origin), make_callback(origin, "https://93.184.216.34/cb")
    archive_batch()
    assert list(Callback.objects.values_list("job_id", flat=True)) == [waiting.id]
    assert not Job.objects.filter(id=done.id).exists()


def test_a_callback_retried_before_the_delete_keeps_its_job_and_target(make_job):
    callback = finished_callback(make_job("https://93.184.216.34/ok"), JobStatus.DEAD)

    def retried() -> None:
        Job.objects.filter(id=callback.id).update(status=JobStatus.PENDING, attempt=0)

    assert archive_batch(between_writes=retried) == (0, 0)
    assert Callback.objects.filter(job_id=callback.id).exists()


def test_a_full_batch_of_finished_callbacks_keeps_the_archiver_going_at_once(make_job):
    origin = make_job("https://93.184.216.34/ok")
    for _ in range(3):
        finished_callback(origin)
    process = ArchiverProcess(interval=10.0, batch_size=2)
    process.turns = 1  # not a purge turn
    delay = process.run_once()
    assert process.last_result == (0, 2)
    assert Job.objects.filter(priority=CALLBACK_PRIORITY).count() == 1
    assert delay == 0  # one more waits: no sleep of the poll interval
