package main

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

type peer struct {
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx]
}

// startPeer starts the one River client before the insert, so it is the leader (whose
// scheduler makes the due jobs available) well before the due time.
func startPeer(ctx context.Context, o options) (*peer, error) {
	config, err := pgxpool.ParseConfig(o.databaseURL)
	if err != nil {
		return nil, err
	}
	// The pool River's docs suggest for a busy client: room for its fetches, completions
	// and notifications beside the insert.
	config.MaxConns = 20
	pool, err := pgxpool.NewWithConfig(ctx, config)
	if err != nil {
		return nil, err
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &callWorker{client: httpClient(o.workers)})
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: o.workers}},
		Workers: workers,
	})
	if err == nil {
		err = client.Start(ctx)
	}
	if err != nil {
		pool.Close()
		return nil, err
	}
	return &peer{pool: pool, client: client}, nil
}

func (p *peer) insert(ctx context.Context, keys []key, o options) error {
	params := make([]river.InsertManyParams, len(keys))
	for n, k := range keys {
		// River's priorities run from 1 (first) to 4.
		priority := 4
		if k.critical {
			priority = 1
		}
		args := callArgs{URL: o.url, Key: k.id, Scheduled: o.due.UTC().Format(stampLayout)}
		params[n] = river.InsertManyParams{
			Args:       args,
			InsertOpts: &river.InsertOpts{ScheduledAt: o.due, Priority: priority},
		}
	}
	_, err := p.client.InsertManyFast(ctx, params)
	return err
}

// stop lets the running calls finish, then prints how many jobs River holds in each state.
func (p *peer) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.client.Stop(ctx); err != nil {
		return err
	}
	rows, err := p.pool.Query(ctx, "SELECT state, count(*) FROM river_job GROUP BY state ORDER BY 1")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var state string
		var count int
		if err := rows.Scan(&state, &count); err != nil {
			return err
		}
		log.Printf("river_job %s: %d", state, count)
	}
	return rows.Err()
}

func (p *peer) close() {
	p.pool.Close()
}

func httpClient(workers int) *http.Client {
	// One keep-alive connection per worker, as each Celery process and executor slot keeps.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConns = workers
	transport.MaxIdleConnsPerHost = workers
	return &http.Client{Transport: transport, Timeout: 30 * time.Second}
}
