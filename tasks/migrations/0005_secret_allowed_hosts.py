"""Secrets name the hosts they may be sent to; each existing secret gets the hosts of the
tasks that use it today, so no call that works now stops working (a secret no task uses
gets none: it is sent nowhere until a PUT names its hosts)."""

from collections import defaultdict
from ipaddress import ip_address
from urllib.parse import urlsplit

from django.db import migrations, models


def _host(url):
    # Spelled as tasks/secret_hosts.py spells hosts (kept here: a migration must not change
    # when the application code does).
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".")
    try:
        return str(ip_address(host))
    except ValueError:
        pass
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def hosts_of_tasks(apps, schema_editor):
    Task = apps.get_model("tasks", "Task")
    TenantSecret = apps.get_model("tasks", "TenantSecret")
    hosts = defaultdict(set)
    users = Task.objects.exclude(secret_ref=None).exclude(status="deleted")
    for tenant_id, name, url in users.values_list("tenant_id", "secret_ref", "url").iterator():
        host = _host(url)
        if host:
            hosts[(tenant_id, name)].add(host)
    for secret in TenantSecret.objects.only("id", "tenant_id", "name").iterator():
        found = sorted(hosts.get((secret.tenant_id, secret.name), ()))
        if found:
            TenantSecret.objects.filter(id=secret.id).update(allowed_hosts=found)


class Migration(migrations.Migration):

    dependencies = [
        ('tasks', '0004_tenant_quotas'),
    ]

    operations = [
        migrations.AddField(
            model_name='tenantsecret',
            name='allowed_hosts',
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(hosts_of_tasks, migrations.RunPython.noop),
    ]
