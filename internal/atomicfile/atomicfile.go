package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// newFileMode is the permission of a file Write creates; an
// existing target keeps its own permission bits.
const newFileMode os.FileMode = 0o644

// Write writes path through write, atomically: the bytes go to a
// temporary file in the same directory, which is flushed, fsynced and then
// renamed over path. If write (or any step) fails or panics, the temporary
// file is removed and an existing file at path is left untouched, so readers
// see either the old content or the complete new content, never a part.
//
// The rename is atomic on POSIX file systems when the temporary file and the
// target share a directory, which is why the temporary file is created there.
// Until the rename, the temporary file is registered for Cleanup, which a
// signal handler calls so that an interrupted run leaves no trace either.
func Write(path string, write func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := newFileMode
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("cannot write %s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	}
	var tmp *os.File
	_, key, err := beginTemp(func() (string, error) {
		f, err := os.CreateTemp(dir, "."+base+".tmp-*")
		if err != nil {
			return "", err
		}
		tmp = f
		return f.Name(), nil
	})
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, osCause(err))
	}
	defer end(key)
	committed := false
	defer func() {
		if !committed {
			// Best effort: the temporary file is ours and unnamed to users.
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()

	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, osCause(err))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, osCause(err))
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, osCause(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: sync: %w", path, osCause(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, osCause(err))
	}
	if err := update(key, func() error { return os.Rename(tmp.Name(), path) }, func() {}); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, osCause(err))
	}
	committed = true
	syncDir(dir)
	return nil
}

// osCause strips the file name from an operating-system error, which may
// be that of a temporary file the user never named: a *fs.PathError or
// *os.LinkError becomes its cause ("no such file or directory"), which
// errors.Is still matches against fs.ErrNotExist and the like.
func osCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// renamedError is an error whose message names the user's directory
// instead of the temporary one it was written in; it unwraps to the
// original.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

// inDir returns err with the temporary directory tmp in its message
// replaced by dir, the one the user asked for.
func inDir(err error, tmp, dir string) error {
	msg := strings.ReplaceAll(err.Error(), tmp, dir)
	if msg == err.Error() {
		return err
	}
	return &renamedError{msg: msg, err: err}
}

// syncDir fsyncs a directory so that a rename in it survives a crash. It is
// best effort: some file systems and platforms cannot sync a directory, and
// the new file is already complete and in place when this runs.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
