package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/riverqueue/river"
)

// The X-Scheduled-At format of this project's executor and of the Celery peer.
const stampLayout = "2006-01-02T15:04:05.000000Z"

type callArgs struct {
	URL       string `json:"url"`
	Key       string `json:"key"`
	Scheduled string `json:"scheduled"`
}

func (callArgs) Kind() string { return "peer_call" }

type callWorker struct {
	river.WorkerDefaults[callArgs]
	client *http.Client
}

func (w *callWorker) Work(ctx context.Context, job *river.Job[callArgs]) error {
	request, err := http.NewRequestWithContext(
		ctx, http.MethodPost, job.Args.URL, bytes.NewReader([]byte("{}")),
	)
	if err != nil {
		return err
	}
	request.Header.Set("Content-Type", "application/json")
	request.Header.Set("Idempotency-Key", job.Args.Key)
	request.Header.Set("X-Scheduled-At", job.Args.Scheduled)
	request.Header.Set("X-Attempt", strconv.Itoa(job.Attempt))
	response, err := w.client.Do(request)
	if err != nil {
		return err
	}
	defer response.Body.Close()
	// Read to the end, or the connection is not reused.
	_, _ = io.Copy(io.Discard, response.Body)
	if response.StatusCode >= 300 {
		return fmt.Errorf("endpoint answered %d", response.StatusCode)
	}
	return nil
}
