"""The console's own saves (add, change, delete of a row on its admin page) audited like
the use cases: one entry each, in the transaction of the save, naming the staff user."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from audit.changes import field_changes, jsonable
from audit.record import record, staff_actor


class AuditedSaves:
    """Mixed into a ModelAdmin before admin.ModelAdmin. Only the form's fields are written,
    so what the form leaves out (a secret's value, a signing secret) never is."""

    audit_thing = ""  # the <thing> of `<thing>.create`, `.update`, `.delete`

    def audit_tenant_id(self, obj: Model):
        return obj.tenant_id

    def audit_target(self, obj: Model):
        return obj.pk

    def audit_deleted(self, obj: Model) -> dict:
        """What a delete's entry says of the row gone."""
        return {"name": str(obj)}

    def save_model(self, request: HttpRequest, obj: Model, form, change: bool) -> None:
        names = [name for name in form.changed_data if _is_field(obj, name)]
        before = {name: form.initial.get(name) for name in names}
        super().save_model(request, obj, form, change)
        after = {name: _value(obj, name) for name in names}
        if not change:
            self._record(request, obj, "create", {k: jsonable(v) for k, v in after.items()})
        elif changed := field_changes(before, after):
            self._record(request, obj, "update", changed)

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        self._record(request, obj, "delete", self.audit_deleted(obj))
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        # The bulk "delete selected" action runs outside the admin's own transaction.
        with transaction.atomic():
            for obj in queryset:
                self._record(request, obj, "delete", self.audit_deleted(obj))
            super().delete_queryset(request, queryset)

    def _record(self, request: HttpRequest, obj: Model, verb: str, changes: dict) -> None:
        record(
            tenant_id=self.audit_tenant_id(obj),
            actor=staff_actor(request),
            action=f"{self.audit_thing}.{verb}",
            target=self.audit_target(obj),
            changes=changes,
        )


def _is_field(obj: Model, name: str) -> bool:
    return any(field.name == name for field in obj._meta.concrete_fields)


def _value(obj: Model, name: str):
    """As the form's initial data holds it: a related row by its key."""
    return getattr(obj, obj._meta.get_field(name).attname)
