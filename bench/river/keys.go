package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

type key struct {
	id       string
	critical bool
}

// readKeys reads the benchmark's "key,group" lines: the caller chose the keys, so it knows
// which calls the endpoint should see, and which of them are the critical ones.
func readKeys(path string) ([]key, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var keys []key
	lines := bufio.NewScanner(file)
	for lines.Scan() {
		id, group, found := strings.Cut(lines.Text(), ",")
		if !found || (group != "critical" && group != "rest") {
			return nil, fmt.Errorf("%s: %q is not a key,critical|rest line", path, lines.Text())
		}
		keys = append(keys, key{id: id, critical: group == "critical"})
	}
	return keys, lines.Err()
}
