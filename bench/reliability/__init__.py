"""The reliability campaign (issue 12): real processes, faults, and what reached the endpoint.

`bench/campaign.py` is the command; the pieces live here, one concern per module, so the
small versions under `tests/campaign/` run the very same code.
"""
