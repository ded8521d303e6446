"""The queue's use cases, one rule per file: the claim (claim.py), the results (results.py),
the retry rule (retry.py), the per-minute counts the results add to (minute_counts.py),
the lease (lease.py), hand-backs (hand_backs.py) and the
executor's round of all of them in one transaction (round.py); the rows they pass
(rows.py); their SQL behind one engine per backend (engine.py: mysql.py, sqlite.py, the
statements both share in sql.py). Each runs in one short transaction."""

from jobs.queue.claim import claim_jobs
from jobs.queue.hand_backs import hand_back
from jobs.queue.lease import reconcile_expired_leases
from jobs.queue.results import record_results
from jobs.queue.retry import MAX_BACKOFF_SECONDS, outcome, retry_delay
from jobs.queue.round import exchange
from jobs.queue.rows import ClaimBatch, ClaimedJob, HandBack, JobResult
from jobs.queue.transactions import DEADLOCK_CODES, in_write_transaction, retrying_deadlocks

__all__ = [
    "DEADLOCK_CODES",
    "MAX_BACKOFF_SECONDS",
    "ClaimBatch",
    "ClaimedJob",
    "HandBack",
    "JobResult",
    "claim_jobs",
    "exchange",
    "hand_back",
    "in_write_transaction",
    "outcome",
    "reconcile_expired_leases",
    "record_results",
    "retry_delay",
    "retrying_deadlocks",
]
