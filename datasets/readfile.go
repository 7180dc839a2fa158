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

// MaxDocumentBytes is the default limit of ReadFile (limit 0): the size of
// a YAML or JSON document (cluster, demand, workload, kubectl node list,
// plan documents and schedules). Such a document is parsed whole into a
// tree several times its size, so the limit keeps that tree within memory;
// 256 MiB is a kubectl node list of tens of thousands of nodes.
const MaxDocumentBytes = 256 << 20

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

// readStdin reads standard input whole, once, up to MaxInputBytes+1 bytes;
// callers apply their own limit to what it returns.
func readStdin() ([]byte, error) {
	stdin.Lock()
	defer stdin.Unlock()
	if !stdin.done {
		stdin.data, stdin.err = readAll(io.LimitReader(stdin.r, MaxInputBytes+1), nil)
		stdin.done = true
	}
	return stdin.data, stdin.err
}

// ReadFile reads one whole input file, or standard input when path is "-"
// (read once per process, see UseStdin). It refuses inputs over limit
// bytes (0 means MaxDocumentBytes; at most MaxInputBytes) rather than
// exhausting memory, and names the file in every error, in the user's
// words ("cluster.yaml: no such file"). A regular file larger than the
// limit is refused before it is read; a device or pipe is read up to the
// limit.
func ReadFile(path string, limit int64) ([]byte, error) {
	rc, name, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return ReadAll(rc, name, limit)
}

// ReadAll reads the rest of an input opened with Open, named name in
// messages, under ReadFile's limit (0 means MaxDocumentBytes).
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxDocumentBytes
	}
	limit = min(limit, MaxInputBytes)
	size := int64(-1)
	switch f := r.(type) {
	case *os.File:
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil {
				size = st.Size() - off
			}
		}
	case *bytes.Reader: // standard input, already read
		size = int64(f.Len())
	}
	if size > limit {
		return nil, tooLarge(name, limit)
	}
	var data []byte
	if size >= 0 {
		// One allocation of the known size (+1 to see a file that grew).
		data = make([]byte, 0, size+1)
	}
	data, err := readAll(io.LimitReader(r, limit+1), data)
	if err != nil {
		return nil, fmt.Errorf("%s: reading: %v", name, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, limit)
	}
	return data, nil
}

// readAll appends everything r yields to data, growing it as io.ReadAll
// does.
func readAll(r io.Reader, data []byte) ([]byte, error) {
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}

// tooLarge is the error for an input over the whole-file limit.
func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%s: larger than %d MiB, the limit for an input read whole (%w)", name, limit>>20, ErrTooLarge)
}

// ErrTooLarge is wrapped by the errors of inputs refused for their size.
var ErrTooLarge = errors.New("input too large")

// Open opens one input for streaming, or standard input when path is "-"
// (read whole once, see UseStdin, so that it can be read again), with
// ReadFile's messages; name is how messages call it ("standard input" or
// the path). The caller closes it.
func Open(path string) (rc io.ReadCloser, name string, err error) {
	if path == Stdin {
		name = inputerr.FileName(path)
		data, err := readStdin()
		if err != nil {
			return nil, name, fmt.Errorf("%s: reading: %v", name, err)
		}
		if int64(len(data)) > MaxInputBytes {
			return nil, name, tooLarge(name, MaxInputBytes)
		}
		return io.NopCloser(bytes.NewReader(data)), name, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, fmt.Errorf("%s: %s", path, describeOpenError(err))
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, path, fmt.Errorf("%s: is a directory, not an input file", path)
	}
	return f, path, nil
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
