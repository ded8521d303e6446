"""The service's version: in `/healthz`'s body, in the API schema and in CHANGELOG.md.

Raised with every release; the CHANGELOG entry of the same number says what changed and
whether an upgrade needs more than `migrate` before the new processes start."""

VERSION = "0.23.0"
