"""The audit log: one append-only row per change a tenant or an operator made."""

from django.db import models
from django.utils.timezone import now


class AuditEntry(models.Model):
    # Ordered by insertion: the id is the page cursor of GET /v1/audit (newest first).
    id = models.BigAutoField(primary_key=True)
    # The tenant whose things changed (NULL: an operator action on no one tenant).
    tenant_id = models.UUIDField(null=True, blank=True)
    at = models.DateTimeField(default=now)
    # The token's id (its `jti`) for a tenant's call, `operator:<username>` for the console.
    actor = models.CharField(max_length=200)
    action = models.CharField(max_length=64)  # task.create, task.update, secret.put, ...
    target = models.CharField(max_length=200, blank=True, default="")  # the id acted on
    changes = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "audit_entries"
        verbose_name_plural = "audit entries"  # Django's own plural would read "entrys"
        indexes = [
            # A tenant's entries newest first, and the same filtered by target or action.
            models.Index(fields=["tenant_id", "id"], name="audit_tenant_idx"),
            models.Index(fields=["tenant_id", "target", "id"], name="audit_target_idx"),
            models.Index(fields=["tenant_id", "action", "id"], name="audit_action_idx"),
            # The archiver's purge of entries past their retention, oldest first.
            models.Index(fields=["at"], name="audit_at_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.target} by {self.actor}"
