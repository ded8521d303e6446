"""Django's MySQL backend with a round trip fewer per transaction (see base.py)."""
