"""Callbacks: a call to the tenant after a job of its task succeeds or dies.

Each callback is a job of its own in the queue (priority CALLBACK_PRIORITY, its target in
the `callbacks` table), so it is claimed, leased, fenced and retried like a run, and
survives what runs survive. They are made in the transaction that finishes the job
(produce.py), so a finished job without its callback, or the reverse, cannot be.
"""
