"""What the processes leave in the database about themselves."""

from django.db import models


class ProcessHeartbeat(models.Model):
    """When one running process (a name and an instance: host and pid) last finished a good
    turn; the operators' dashboard reads it, as Prometheus reads the same from each process."""

    name = models.CharField(max_length=50)
    instance_id = models.CharField(max_length=100)
    last_seen = models.DateTimeField()

    class Meta:
        db_table = "process_heartbeats"
        constraints = [
            models.UniqueConstraint(fields=["name", "instance_id"], name="process_heartbeats_uniq")
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.instance_id}"
