# Two entry points: `make run` and `make test`. Everything they need is installed on demand.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= mysql://root:@127.0.0.1:3306/scheduler
PORT ?= 8000

.PHONY: run admin test test-cluster lint system-packages mariadb cassandra nginx redis bench-archive bench-create \
	bench-archive-cluster bench-scheduler bench-overlap bench-executor bench-burst bench-callbacks bench-peer \
	bench-layouts bench-profile bench-campaign bench-flows bench-result-write bench-capacity bench-commits bench-scale image clean \
	postgres river-peer bench-dlq-index

system-packages:
	@scripts/ensure_system_packages.sh

# The venv has the runtime (requirements.txt) and the tests' and benchmarks' packages
# (requirements-dev.txt); the image installs the runtime only.
$(STAMP): requirements.txt requirements-dev.txt
	@$(MAKE) --no-print-directory system-packages
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

mariadb:
	@scripts/ensure_mariadb.sh

cassandra:
	@scripts/ensure_cassandra.sh

nginx:
	@scripts/ensure_nginx.sh

redis:
	@scripts/ensure_redis.sh

# The River peer's own Postgres cluster on 127.0.0.1:55432 (bench/river).
postgres:
	@scripts/ensure_postgres.sh

# The River peer's Go binary, built into a cache folder outside the checkout; prints its path.
river-peer:
	@scripts/build_river_peer.sh

# The whole suite on MariaDB and the real Cassandra, then the embedded mode's suites again on
# SQLite; scripts/test_suite.sh starts (and afterwards stops) MariaDB, Redis and Cassandra.
SQLITE_SUITES := tests/api tests/jobs tests/scheduler tests/executor tests/history tests/audit tests/flows tests/tenants \
	tests/test_end_to_end.py \
	tests/test_run_all.py tests/test_admin_dlq.py tests/test_admin_dlq_retry_all.py \
	tests/test_admin_jobs.py tests/test_admin_dashboard.py tests/test_admin_log.py \
	tests/test_admin_labels.py tests/test_admin_callback_jobs.py tests/test_admin_flows.py \
	tests/console tests/test_admin_timeline.py tests/test_console_charts.py \
	tests/test_embedded_sqlite.py tests/test_json_logs.py \
	tests/client/test_sdk_tasks.py tests/client/test_cli.py tests/scheduler_site/test_plain_inserts.py \
	tests/tasks/test_task_inserts.py tests/tasks/test_task_reader.py

test: $(STAMP)
	@PY=$(PY) TEST_DATABASE_URL=$(TEST_DATABASE_URL) scripts/test_suite.sh $(SQLITE_SUITES)

# The history on a real 3-node Cassandra cluster with 3 copies (tests/cluster): nodes
# killed mid-archive and under reads; scripts/test_cluster.sh starts and stops the cluster.
test-cluster: $(STAMP)
	@PY=$(PY) TEST_DATABASE_URL=$(TEST_DATABASE_URL) scripts/test_cluster.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check .

run: $(STAMP)
	@PORT=$(PORT) PY=$(PY) scripts/run_embedded.sh

# The first operator of the console (/admin/), on make run's database and keys (run/keys.env).
admin: $(STAMP)
	@PORT=$(PORT) $(PY) scripts/make_admin.py

bench-scheduler: $(STAMP) mariadb
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/scheduler_tick.py

# The tick of 1,000 due tasks with `overlap: skip` against `allow`, in one run.
bench-overlap: $(STAMP) mariadb
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/scheduler_tick.py --overlap

bench-executor: $(STAMP) mariadb nginx
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/executor_throughput.py

bench-archive: $(STAMP) mariadb cassandra
	DATABASE_URL=$(TEST_DATABASE_URL) CASSANDRA_HOSTS=127.0.0.1 $(PY) bench/archive_cassandra.py

# The same on 3 nodes with 3 copies (LOCAL_QUORUM); ARCHIVE_ARGS passes e.g. --jobs 20000.
ARCHIVE_ARGS ?=
bench-archive-cluster: $(STAMP) mariadb
	@scripts/ensure_cassandra_cluster.sh 3
	DATABASE_URL=$(TEST_DATABASE_URL) CASSANDRA_HOSTS=127.0.0.1,127.0.0.2,127.0.0.3 \
		CASSANDRA_REPLICATION=SimpleStrategy:3 $(PY) bench/archive_cassandra.py $(ARCHIVE_ARGS)

bench-create: $(STAMP) mariadb redis
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/create_tasks.py

bench-burst: $(STAMP) mariadb nginx
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/burst.py

# The same burst with every task carrying both callbacks against it without them (issue 19):
# two pairs, alternated; the runs' own start delay p99 with / without (goal <= 1.2x).
bench-callbacks: $(STAMP) mariadb nginx
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/burst.py --callbacks --rounds 2 \
		--png bench/burst-callbacks.png

# Issue 20 in one sitting: the plain 10,000 + 100 burst on this code and on the code before
# flows (BEFORE, checked out once as a worktree in BEFORE_TREE), alternated, and the same
# burst over 10 flow keys of parallelism 50 beside 1,000 tasks without a flow; FLOWS_ARGS
# passes more, e.g. FLOWS_ARGS="--rounds 1 --jobs 1000 --critical 10 --free 200".
BEFORE ?= 8433c58^
BEFORE_TREE ?= /tmp/bench-before
FLOWS_ARGS ?= --rounds 2
bench-flows: $(STAMP) mariadb nginx
	@test -d $(BEFORE_TREE) || git worktree add --detach $(BEFORE_TREE) $(BEFORE)
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/flows_sitting.py --before $(BEFORE_TREE) \
		--before-label '$(BEFORE)' $(FLOWS_ARGS)

# The reliability campaign (issue 12): twelve load and fault scenarios on a MariaDB server of
# its own (started and stopped by bench/campaign.py), nginx as the tenant endpoint. Name
# scenarios or pass options with CAMPAIGN_ARGS, e.g. CAMPAIGN_ARGS="03-executor-killed".
# The default is the run recorded in RELIABILITY.md (the steady mix for 200 s: about half an
# hour); CAMPAIGN_ARGS="--steady-seconds 600" runs the issue's ten minutes (about an hour).
CAMPAIGN_ARGS ?= --steady-seconds 200
bench-campaign: $(STAMP) mariadb nginx redis
	@scripts/ensure_redis.sh
	$(PY) bench/campaign.py $(CAMPAIGN_ARGS)

# Celery 5 + Redis (broker db 9, flushed before and after), River + Postgres (bench/river, a
# Go program) and this project on the same burst; PEER_ARGS passes more, e.g.
# PEER_ARGS="--peers river --rounds 1" or "--broker-db 5".
PEER_ARGS ?= --rounds 2
bench-peer: $(STAMP) mariadb nginx redis postgres
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/peer.py $(PEER_ARGS)

# The result write with the console's per-minute counts against without, alternated.
bench-result-write: $(STAMP) mariadb
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/result_write.py

# The insert, claim and result write with the DLQ's index against without it, alternated.
bench-dlq-index: $(STAMP) mariadb
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/dead_letters_index.py

# Issue 23's scale: the tick, claim, archiver and API pages at 1,000,000 tasks and 5,000,000
# finished jobs against 20,000 tasks in one run, then a 100,000-job herd beside the 10,000
# burst (bench/scale.py); SCALE_ARGS passes more, e.g. SCALE_ARGS="--tasks 100000 --finished 500000".
SCALE_ARGS ?=
bench-scale: $(STAMP) mariadb nginx
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/scale.py $(SCALE_ARGS)

# Queue table layouts: MariaDB CPU per job over the whole row life, on scratch tables.
bench-layouts: $(STAMP) mariadb
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/row_life.py

# The executor's CPU per job and its py-spy profile (py-spy needs ptrace: root here).
bench-profile: $(STAMP) mariadb nginx
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/profile_executor.py

# The container image with podman (scripts/build_image.sh): localhost/at-cron-scheduler:latest
# on python:3.11-slim; on a machine without Docker Hub, on a local Debian base made with
# debootstrap: BASE_IMAGE=localhost/scheduler-base:bookworm make image.
image:
	@scripts/build_image.sh

# SCALING.md's unit costs: CPU of each part (MariaDB, scheduler, executor, archiver, every
# Cassandra node in CASSANDRA_HOSTS) per 1,000 jobs over the whole row life.
# On a cluster: CASSANDRA_HOSTS=127.0.0.11,127.0.0.12,127.0.0.13 CASSANDRA_REPLICATION=SimpleStrategy:3.
CAPACITY_ARGS ?=
bench-capacity: $(STAMP) mariadb nginx cassandra
	DATABASE_URL=$(TEST_DATABASE_URL) CASSANDRA_HOSTS=$(or $(CASSANDRA_HOSTS),127.0.0.1) \
		$(PY) bench/capacity.py $(CAPACITY_ARGS)

# SCALING.md's commit floor: single-row autocommit inserts on 1 and 8 connections (the
# server's cost of one durable commit, which the processes' batches spread over many jobs).
bench-commits: $(STAMP) mariadb
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) bench/commit_probe.py

clean:
	rm -rf $(VENV) db.sqlite3
