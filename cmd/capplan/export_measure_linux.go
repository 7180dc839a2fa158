//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// measureProcess runs program with args and returns its peak resident set
// size, its CPU time (user + system) and its wall time, from the kernel's
// resource usage of the finished child (getrusage: ru_maxrss in KiB on
// Linux).
func measureProcess(program string, args []string) (shardMeasurement, error) {
	cmd := exec.Command(program, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		return shardMeasurement{}, fmt.Errorf("%v: %s", err, msg)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return shardMeasurement{}, fmt.Errorf("no resource usage for the process")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return shardMeasurement{peakRSS: ru.Maxrss << 10, cpu: cpu.Seconds(), wall: wall.Seconds()}, nil
}
