"""Token buckets shared by every API worker: the creation rate and the request budget.

A bucket lives in the cache. On Redis (CACHE_URL) one Lua script refills it by Redis's own
clock and takes (or gives back) tokens atomically, so every worker on every machine draws
from the same bucket. With the local-memory cache (the embedded mode: one process) a lock
does the same in memory. If Redis cannot be reached the process falls back to its own bucket
in memory (tasks/redis_outage.py): still a limit, per process, and never a 500.
"""

from __future__ import annotations

import threading
import time

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from redis.commands.core import Script
from redis.exceptions import RedisError

from tasks.redis_outage import redis_outage

# KEYS[1] the bucket; ARGV rate/s, burst and how many tokens to take (a negative cost gives
# them back). Returns 0 when they were taken, else the seconds until they are there (as a
# string: Lua numbers become integers on the way out).
TAKE_TOKENS = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local rate, burst, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = 0
if cost < 0 then tokens = math.min(burst, tokens - cost)
elseif tokens >= cost then tokens = tokens - cost
else wait = (cost - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""
# Sent by its digest (EVALSHA): one round trip, the text only the first time a server sees it.
_TAKE_TOKENS = Script(None, TAKE_TOKENS.encode())

_local_buckets: dict[str, tuple[float, float]] = {}
_local_lock = threading.Lock()


def _in_redis(backend: RedisCache, key: str, rate: float, burst: int, cost: int) -> float:
    full_key = backend.make_key(key)
    client = backend._cache.get_client(full_key, write=True)  # the backend's redis-py client
    return float(_TAKE_TOKENS(keys=[full_key], args=[rate, burst, cost], client=client))


def _in_memory(key: str, rate: float, burst: int, cost: int) -> float:
    with _local_lock:
        now = time.monotonic()
        tokens, at = _local_buckets.get(key, (float(burst), now))
        tokens = min(burst, tokens + (now - at) * rate)
        if cost < 0:
            _local_buckets[key] = (min(burst, tokens - cost), now)
            return 0.0
        wait = 0.0 if tokens >= cost else (cost - tokens) / rate
        _local_buckets[key] = (tokens - cost if tokens >= cost else tokens, now)
        return wait


def take_tokens(key: str, rate: float, burst: int, cost: int) -> float:
    """Take `cost` tokens (a negative cost gives them back): 0, or the seconds to wait
    until they are there, in which case none were taken."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache) or redis_outage.skipping():
        return _in_memory(key, rate, burst, cost)
    try:
        wait = _in_redis(backend, key, rate, burst, cost)
    except RedisError as exc:
        redis_outage.failed(exc)
        return _in_memory(key, rate, burst, cost)
    redis_outage.answered()
    return wait
