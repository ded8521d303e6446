"""The shared token bucket, on Redis (the suite's CACHE_URL) and in process memory (the
embedded mode): taking, refusing with a wait, and giving tokens back."""

import uuid

import pytest
from django.core.cache import caches

from tasks.token_bucket import take_tokens

LOCAL_MEMORY = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture(params=["redis", "memory"])
def bucket(request, settings) -> str:
    if request.param == "memory":
        settings.CACHES = LOCAL_MEMORY
    assert ("Redis" in type(caches["default"]).__name__) == (request.param == "redis")
    return f"test-bucket:{uuid.uuid4()}"


def test_tokens_past_the_burst_are_refused_with_the_wait(bucket):
    assert take_tokens(bucket, 1, 2, 2) == 0
    assert take_tokens(bucket, 1, 2, 1) > 0.5


def test_tokens_given_back_can_be_taken_again(bucket):
    take_tokens(bucket, 1, 3, 3)
    take_tokens(bucket, 1, 3, -2)
    assert take_tokens(bucket, 1, 3, 2) == 0


def test_tokens_given_back_never_fill_the_bucket_past_its_burst(bucket):
    take_tokens(bucket, 1, 3, -10)
    assert take_tokens(bucket, 1, 3, 3) == 0
    assert take_tokens(bucket, 1, 3, 1) > 0


def test_the_script_is_sent_by_its_digest_once_redis_knows_it(settings):
    from tasks.token_bucket import _TAKE_TOKENS

    take_tokens(f"test-bucket:{uuid.uuid4()}", 1, 2, 1)
    client = caches["default"]._cache.get_client("any", write=True)
    assert client.script_exists(_TAKE_TOKENS.sha) == [True]
