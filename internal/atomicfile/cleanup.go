package atomicfile

import (
	"os"
	"slices"
	"sync"
)

// pending holds the undo step of every write in progress: what must
// happen to leave the targets as they were if the process stops now.
// Steps that change what is on disk (renames) run under its lock, so an
// undo never sees a write half-way through one.
var pending struct {
	sync.Mutex
	next int
	undo map[int]func()
}

// testHookTempCreated, when set by a test, runs between creating a
// temporary path and registering it: where a signal once left it behind.
var testHookTempCreated func()

// beginTemp starts a write: under the lock it runs mk, which creates the
// write's temporary file or directory and returns its path, and registers
// removing that path as the write's undo step. Creating and registering
// under one lock means a Cleanup runs either before the path exists or
// after it is registered, never in between, so no signal can leave it
// behind.
func beginTemp(mk func() (string, error)) (path string, key int, err error) {
	pending.Lock()
	defer pending.Unlock()
	path, err = mk()
	if err != nil {
		return "", 0, err
	}
	if testHookTempCreated != nil {
		testHookTempCreated()
	}
	if pending.undo == nil {
		pending.undo = map[int]func(){}
	}
	pending.next++
	pending.undo[pending.next] = func() { removeQuietly(path) }
	return path, pending.next, nil
}

// update replaces the undo step of a write, running fn under the lock
// first: the rename fn makes and the new undo step take effect together.
// A nil undo keeps the write's current step (fn then only needs the lock).
func update(key int, fn func() error, undo func()) error {
	pending.Lock()
	defer pending.Unlock()
	err := fn()
	if err == nil && undo != nil {
		pending.undo[key] = undo
	}
	return err
}

// end unregisters a finished (committed or cleaned-up) write.
func end(key int) {
	pending.Lock()
	defer pending.Unlock()
	delete(pending.undo, key)
}

// Cleanup undoes every write of this process still in progress, newest
// first: it removes their temporary files and directories and, for a
// ReplaceDir caught between its two renames, puts the old directory
// back, so every target holds its previous content (or stays absent).
// It is for a signal handler just before the process exits: it keeps
// the registry locked, so any write that has not yet renamed its output
// into place blocks and never does.
func Cleanup() {
	pending.Lock()
	keys := make([]int, 0, len(pending.undo))
	for k := range pending.undo {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i := len(keys) - 1; i >= 0; i-- {
		pending.undo[keys[i]]()
	}
	pending.undo = nil
}

// removeQuietly removes a temporary path of ours, ignoring errors: it may
// already be gone.
func removeQuietly(path string) { _ = os.RemoveAll(path) }
