"""The tenants app's own table: API keys (the Tenant model itself is in tasks/models.py)."""

from django.db import models

from scheduler_site.ids import new_id


class ApiKeyScope(models.TextChoices):
    READ = "read"  # safe methods only: GET, HEAD, OPTIONS
    WRITE = "write"  # everything a tenant's token may do


class ApiKey(models.Model):
    """A tenant's durable credential. Only a hash of the key is kept: the key itself is
    shown once, in the answer of its creation."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey("tasks.Tenant", on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=200)
    scope = models.CharField(max_length=5, choices=ApiKeyScope.choices)
    # The key's first characters (`acs_` and 8 more): how a request finds its key, and how
    # people recognise one in a list.
    prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64)  # sha256 of the whole key, hex
    created_at = models.DateTimeField(auto_now_add=True)
    # Written at most once a minute per key (tenants/api_keys/last_used.py).
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    # Revoked keys stay (the console and the audit log name them) but open nothing.
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "api_keys"
        verbose_name = "API key"
        indexes = [models.Index(fields=["tenant", "revoked_at", "id"], name="api_key_tenant_idx")]
        permissions = [("revoke_api_key", "Can revoke a tenant's API key")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix})"

    @property
    def audit_actor(self) -> str:
        """The actor of the audit entries of the calls made with this key."""
        return f"api_key:{self.id}"
