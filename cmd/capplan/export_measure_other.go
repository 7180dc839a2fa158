//go:build !linux

package main

import "errors"

// measureProcess is implemented on Linux only.
func measureProcess(string, []string) (shardMeasurement, error) {
	return shardMeasurement{}, errors.New("measuring a shard works on Linux only: give --cpu and --memory")
}
