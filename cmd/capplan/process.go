package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/capplan/capplan/internal/atomicfile"
	"github.com/capplan/capplan/internal/memguard"
)

// runMain runs capplan as a process: run, plus a handler that, on SIGINT
// or SIGTERM, removes the temporary output files and directories of the
// writes in progress (leaving every previous output intact) and exits
// with the signal's code.
func runMain(args []string, io *ioStreams) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		err := &interruptedError{sig: sig}
		stop(io, err)
	}()
	return run(args, io)
}

// stop ends the process at once on err: the writes in progress are undone,
// the error is printed, and the exit code is exitCode(err).
func stop(io *ioStreams, err error) {
	atomicfile.Cleanup()
	fmt.Fprintf(io.ErrOut, "capplan: %v\n", err)
	os.Exit(exitCode(err))
}

// interruptedError is a run ended by a signal.
type interruptedError struct{ sig os.Signal }

func (e *interruptedError) Error() string {
	return fmt.Sprintf("interrupted (%v); no output was written, previous outputs are unchanged", e.sig)
}

// memoryFlag is --max-memory: a byte quantity, 0 for no limit.
type memoryFlag struct{ bytes uint64 }

func (m *memoryFlag) String() string {
	if m.bytes == 0 {
		return "0"
	}
	return resource.NewQuantity(int64(m.bytes), resource.BinarySI).String()
}

func (m *memoryFlag) Set(s string) error {
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return fmt.Errorf("want a byte quantity such as 1536Mi or 4Gi (0: no limit)")
	}
	v, ok := q.AsInt64()
	if !ok || v < 0 {
		return fmt.Errorf("want a whole number of bytes ≥ 0, such as 1536Mi or 4Gi (0: no limit)")
	}
	if v > 0 && v < minMaxMemory {
		return fmt.Errorf("want at least %s, or 0 for no limit", memguard.Bytes(minMaxMemory))
	}
	m.bytes = uint64(v)
	return nil
}

func (m *memoryFlag) Type() string { return "bytes" }

// minMaxMemory is the smallest --max-memory: capplan's own footprint.
const minMaxMemory = 64 << 20

// startMemoryGuard starts the --max-memory guard of one run: past the
// limit, the run stops cleanly with a message naming the flag.
func startMemoryGuard(io *ioStreams, limit uint64) *memguard.Guard {
	return memguard.Start(limit, func(e *memguard.ErrLimit) { stop(io, e) })
}
