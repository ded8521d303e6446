// River (Go, Postgres) on the peer benchmark's burst: the jobs of a key file inserted in one
// COPY (InsertManyFast), all scheduled at one instant, then worked by one River client whose
// workers POST to the endpoint with the headers this project's executor sends, so the
// endpoint's log measures River as it measures Celery and this project.
//
//	river-peer -database-url postgres://postgres@127.0.0.1:55432/river_peer \
//	  -keys keys.csv -due 2026-12-02T16:00:00Z -url http://127.0.0.1:8080/hook -ready ready
//
// It runs until SIGTERM or SIGINT, then stops the client and prints River's job states.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type options struct {
	databaseURL string
	keys        string
	due         time.Time
	url         string
	ready       string
	workers     int
}

func parseOptions() options {
	var o options
	var due string
	flag.StringVar(&o.databaseURL, "database-url", "", "Postgres URL; the database is made anew")
	flag.StringVar(&o.keys, "keys", "", `file of "key,group" lines, group "critical" or "rest"`)
	flag.StringVar(&due, "due", "", "the instant every job is scheduled at (RFC 3339)")
	flag.StringVar(&o.url, "url", "", "the endpoint every job POSTs to")
	flag.StringVar(&o.ready, "ready", "", "file touched once the jobs are in and the client runs")
	flag.IntVar(&o.workers, "workers", 200, "MaxWorkers of the one queue")
	flag.Parse()
	moment, err := time.Parse(time.RFC3339Nano, due)
	if err != nil || o.databaseURL == "" || o.keys == "" || o.url == "" {
		fmt.Fprintln(os.Stderr, "need -database-url, -keys, -url and an RFC 3339 -due")
		flag.Usage()
		os.Exit(2)
	}
	o.due = moment
	return o
}

func main() {
	o := parseOptions()
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	if err := run(ctx, o); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, o options) error {
	keys, err := readKeys(o.keys)
	if err != nil {
		return err
	}
	if err := freshDatabase(context.Background(), o.databaseURL); err != nil {
		return err
	}
	peer, err := startPeer(context.Background(), o)
	if err != nil {
		return err
	}
	defer peer.close()
	started := time.Now()
	if err := peer.insert(context.Background(), keys, o); err != nil {
		return err
	}
	log.Printf("inserted %d jobs in %.2f s", len(keys), time.Since(started).Seconds())
	if time.Now().After(o.due) {
		log.Printf("warning: still inserting at the due time; raise the lead")
	}
	if o.ready != "" {
		if err := os.WriteFile(o.ready, nil, 0o644); err != nil {
			return err
		}
	}
	<-ctx.Done()
	return peer.stop()
}
