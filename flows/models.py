"""Flow keys: how hard the calls of one destination may hit it (parallelism and rate,
across every executor) and its circuit breaker. Per tenant: two tenants' keys of one name
share nothing.

Four tables, each with one reader: `flows` (the settings and the circuit, locked by the
claim and by the result write), `flow_waits` (the jobs the claim parked because their flow
was at a limit, out of the pending range of the wake index), `flow_calls` (the calls each
flow has out: counted through `jobs`, so a row left behind by a hand-back or an expired lease
never counts) and `flow_starts` (when the claims let calls start: the rate's window).
"""

from __future__ import annotations

from django.db import models

DEFAULT_BREAKER_FAILURES = 10
DEFAULT_BREAKER_COOLDOWN_SECONDS = 30
MAX_COOLDOWN_SECONDS = 600  # a circuit that keeps re-opening waits at most this long
KEY_PATTERN = r"^[A-Za-z0-9_.:-]{1,100}$"


class CircuitState(models.TextChoices):
    CLOSED = "closed"
    OPEN = "open"  # its jobs wait uncalled until retry_at
    HALF_OPEN = "half_open"  # one probe call is out: its result closes or re-opens it


class Flow(models.Model):
    tenant = models.ForeignKey("tasks.Tenant", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    parallelism = models.PositiveIntegerField(null=True, blank=True)  # None: no limit
    rate = models.PositiveIntegerField(null=True, blank=True)  # None: no limit
    period_seconds = models.PositiveIntegerField(default=1)
    breaker_failures = models.PositiveIntegerField(default=DEFAULT_BREAKER_FAILURES)  # 0: off
    breaker_cooldown_seconds = models.PositiveIntegerField(default=DEFAULT_BREAKER_COOLDOWN_SECONDS)
    paused = models.BooleanField(default=False)
    circuit_state = models.CharField(
        max_length=16, choices=CircuitState.choices, default=CircuitState.CLOSED
    )
    failures = models.PositiveIntegerField(default=0)  # consecutive failed calls
    opened_at = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(null=True, blank=True)  # an open circuit's probe time
    reopens = models.PositiveSmallIntegerField(default=0)  # since it last closed: cooldown doubles
    # When it was last paused or its circuit opened: executors holding its jobs give them back.
    stopped_at = models.DateTimeField(null=True, blank=True)
    # When the claim's release should next look at its parked jobs: set by whatever may
    # give it room (a call's end, a window or cooldown ending, a resume); NULL when nothing
    # is parked or only a call's end can help. The release reads only flows due for a look,
    # so a tenant's many full flows cost no other claim anything.
    release_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "flows"
        constraints = [models.UniqueConstraint(fields=["tenant", "key"], name="flows_key_uniq")]
        indexes = [
            models.Index(fields=["stopped_at"], name="flows_stopped_idx"),
            models.Index(fields=["release_at"], name="flows_release_idx"),
        ]

    def __str__(self) -> str:
        return f"flow {self.key}"

    @property
    def limited(self) -> bool:
        return self.parallelism is not None or self.rate is not None


class FlowWait(models.Model):
    """A job parked by the claim (status `throttled`), in the order it is let go again:
    by priority, then by due time (its place in the queue)."""

    pk = models.CompositePrimaryKey("flow_id", "priority", "next_attempt_at", "job_id")
    flow_id = models.BigIntegerField()
    priority = models.PositiveSmallIntegerField()
    next_attempt_at = models.DateTimeField()
    job_id = models.UUIDField()

    class Meta:
        db_table = "flow_waits"


class FlowCall(models.Model):
    """A call a claim let out for its flow: one per job, of the attempt it was claimed for."""

    job_id = models.UUIDField(primary_key=True)
    flow_id = models.BigIntegerField()
    attempt = models.PositiveIntegerField()

    class Meta:
        db_table = "flow_calls"
        indexes = [models.Index(fields=["flow_id"], name="flow_calls_flow_idx")]


class FlowStart(models.Model):
    """`calls` calls of a rate-limited flow let out by one claim at `at`."""

    id = models.BigAutoField(primary_key=True)
    flow_id = models.BigIntegerField()
    at = models.DateTimeField()
    calls = models.PositiveIntegerField()

    class Meta:
        db_table = "flow_starts"
        indexes = [models.Index(fields=["flow_id", "at"], name="flow_starts_window_idx")]
