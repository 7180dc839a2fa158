package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// ioStreams holds the process's standard streams and whether stdout and
// stderr are terminals (tables and progress only for people).
type ioStreams struct {
	In             io.Reader
	Out, ErrOut    io.Writer
	OutTerminal    bool
	ErrOutTerminal bool
}

func newIOStreams() *ioStreams {
	return &ioStreams{
		In:             os.Stdin,
		Out:            os.Stdout,
		ErrOut:         os.Stderr,
		OutTerminal:    isatty.IsTerminal(os.Stdout.Fd()),
		ErrOutTerminal: isatty.IsTerminal(os.Stderr.Fd()),
	}
}
