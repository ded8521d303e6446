"""The console names its lists in plain English: Django's default plural only appends an
"s", which made the index read "Audit entrys"."""

import re

from django.contrib import admin


def test_the_index_names_the_audit_log_audit_entries(operator_client):
    page = operator_client.get("/admin/dashboard/").content.decode()
    assert "Audit entries" in page and "entrys" not in page


def test_no_listed_model_is_named_with_an_appended_s_after_a_consonant_and_y():
    # "entry" -> "entries", not "entrys"; "key" -> "keys" stays (a vowel before the y).
    wrong = [
        str(model._meta.verbose_name_plural)
        for model in admin.site._registry
        if re.search(r"[^aeiou]ys$", str(model._meta.verbose_name_plural))
    ]
    assert wrong == []
