"""The tenant's own settings as the tenant sees and edits them (GET/PATCH /v1/tenant).

The Tenant model stays in tasks/models.py; this room holds the tenant-facing view of it.
"""
