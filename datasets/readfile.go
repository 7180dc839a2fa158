package datasets

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxInputBytes bounds a whole-file read of one input (ReadFile). Inputs
// larger than this are either streamed by their reader (Alibaba
// batch_task, openb CSVs) or refused with a message naming the limit.
const MaxInputBytes = 1 << 30

// Stdin is the path that names standard input.
const Stdin = "-"

// stdin is the reader behind Stdin; tests replace it.
var stdin io.Reader = os.Stdin

// ReadFile reads one whole input file, or standard input when path is "-".
// It refuses inputs over limit bytes (0 means MaxInputBytes) rather than
// exhausting memory, and names the file in every error, in the user's
// words ("cluster.yaml: no such file").
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxInputBytes
	}
	var r io.Reader
	name := path
	if path == Stdin {
		r, name = stdin, "standard input"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", path, describeOpenError(err))
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory, not an input file", path)
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: reading: %v", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d MiB, the limit for an input read whole", name, limit>>20)
	}
	return data, nil
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
