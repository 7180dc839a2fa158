package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/capplan/capplan/internal/inputerr"
)

// MaxInputBytes bounds a whole-file read of one input (ReadFile). Inputs
// larger than this are either streamed by their reader (Alibaba
// batch_task, openb CSVs) or refused with a message naming the limit.
const MaxInputBytes = 1 << 30

// Stdin is the path that names standard input.
const Stdin = inputerr.Stdin

// stdin is the reader behind Stdin, read once: later reads of Stdin in
// the same process (a plan check reading an input for its digest, then to
// parse it) get the same bytes.
var stdin = struct {
	sync.Mutex
	r    io.Reader
	done bool
	data []byte
	err  error
}{r: os.Stdin}

// UseStdin sets the reader behind Stdin (the CLI passes its standard input
// stream) and forgets what was read from the previous one.
func UseStdin(r io.Reader) {
	stdin.Lock()
	defer stdin.Unlock()
	stdin.r, stdin.done, stdin.data, stdin.err = r, false, nil, nil
}

// readStdin reads standard input whole, once, up to limit+1 bytes.
func readStdin(limit int64) ([]byte, error) {
	stdin.Lock()
	defer stdin.Unlock()
	if !stdin.done {
		stdin.data, stdin.err = io.ReadAll(io.LimitReader(stdin.r, limit+1))
		stdin.done = true
	}
	return stdin.data, stdin.err
}

// ReadFile reads one whole input file, or standard input when path is "-"
// (read once per process, see UseStdin).
// It refuses inputs over limit bytes (0 means MaxInputBytes) rather than
// exhausting memory, and names the file in every error, in the user's
// words ("cluster.yaml: no such file").
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxInputBytes
	}
	name := inputerr.FileName(path)
	var data []byte
	var err error
	if path == Stdin {
		data, err = readStdin(limit)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", path, describeOpenError(err))
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory, not an input file", path)
		}
		data, err = io.ReadAll(io.LimitReader(f, limit+1))
		if err != nil {
			return nil, fmt.Errorf("%s: reading: %v", name, err)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: reading: %v", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MiB, the limit for an input read whole", name, limit>>20)
	}
	return data, nil
}

// OpenInput opens an input file for streaming, or standard input when path
// is "-" (read whole, see ReadFile, so that it can be read again). Errors
// name the file in the user's words.
func OpenInput(path string) (io.ReadCloser, error) {
	if path == Stdin {
		data, err := ReadFile(path, 0)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", path, describeOpenError(err))
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a directory, not an input file", path)
	}
	return f, nil
}

// describeOpenError says why a file could not be opened without Go's
// "open PATH:" prefix (the caller names the file).
func describeOpenError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
