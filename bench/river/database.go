package main

import (
	"context"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// freshDatabase drops and makes the URL's database, then puts River's tables in it: each run
// starts without an earlier run's jobs or leader.
func freshDatabase(ctx context.Context, databaseURL string) error {
	parsed, err := url.Parse(databaseURL)
	if err != nil {
		return err
	}
	name := parsed.Path[1:]
	parsed.Path = "/postgres"
	admin, err := pgx.Connect(ctx, parsed.String())
	if err != nil {
		return fmt.Errorf("postgres (scripts/ensure_postgres.sh starts it): %w", err)
	}
	defer admin.Close(ctx)
	quoted := pgx.Identifier{name}.Sanitize()
	for _, sql := range []string{
		"DROP DATABASE IF EXISTS " + quoted + " WITH (FORCE)",
		"CREATE DATABASE " + quoted,
	} {
		if _, err := admin.Exec(ctx, sql); err != nil {
			return err
		}
	}
	return migrate(ctx, databaseURL)
}

func migrate(ctx context.Context, databaseURL string) error {
	pool, err := pgxpool.New(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return err
	}
	_, err = migrator.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}
