package main

import (
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressThrottle bounds how often a progress bar redraws.
const progressThrottle = 100 * time.Millisecond

// newProgress returns a progress callback for a pipeline job and the
// function that ends it. On a terminal stderr, a bar titled what counts
// finished work items once there is more than one (a total below zero
// means unknown: a spinner with a count); elsewhere both do nothing.
func newProgress(streams *ioStreams, what string) (progress func(done, total int), finish func()) {
	if !streams.ErrOutTerminal {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	progress = func(done, total int) {
		if bar == nil && (total > 1 || total < 0) {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(streams.ErrOut),
				progressbar.OptionSetDescription(what),
				progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(progressThrottle),
				progressbar.OptionClearOnFinish(),
			)
		}
		if bar != nil {
			_ = bar.Set(done)
		}
	}
	finish = func() {
		if bar != nil {
			_ = bar.Finish()
		}
	}
	return progress, finish
}
