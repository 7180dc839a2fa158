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
	// over is true when standard input is longer than limit, the limit
	// of its first reader; data is then nil.
	over  bool
	limit int64
}{r: os.Stdin}

// UseStdin sets the reader behind Stdin (the CLI passes its standard input
// stream) and forgets what was read from the previous one.
func UseStdin(r io.Reader) {
	stdin.Lock()
	defer stdin.Unlock()
	stdin.r, stdin.done, stdin.data, stdin.err, stdin.over, stdin.limit = r, false, nil, nil, false, 0
}

// readStdin reads standard input whole, once, up to the limit of its
// first caller (a document's reader reads at most MaxDocumentBytes of it,
// a streamed trace MaxInputBytes); callers apply their own limit to what
// it returns. over is true when it is longer than the first limit, which
// read is that.
func readStdin(limit int64) (data []byte, over bool, read int64, err error) {
	stdin.Lock()
	defer stdin.Unlock()
	if !stdin.done {
		stdin.data, stdin.err = readAll(stdin.r, nil, limit)
		stdin.over = stdin.err == errOverLimit
		if stdin.over {
			stdin.err = nil
		}
		stdin.done, stdin.limit = true, limit
	}
	return stdin.data, stdin.over, stdin.limit, stdin.err
}

// ReadFile reads one whole input file, or standard input when path is "-"
// (read once per process, see UseStdin). It refuses inputs over limit
// bytes (0 means MaxDocumentBytes; at most MaxInputBytes) rather than
// exhausting memory, and names the file in every error, in the user's
// words ("cluster.yaml: no such file"). A regular file larger than the
// limit is refused before it is read; a device or pipe is read up to the
// limit.
func ReadFile(path string, limit int64) ([]byte, error) {
	if path == Stdin {
		if limit <= 0 {
			limit = MaxDocumentBytes
		}
		limit = min(limit, MaxInputBytes)
		rc, name, err := openStdin(limit)
		if err != nil {
			return nil, err
		}
		return ReadAll(rc, name, limit)
	}
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
	data, err := readAll(r, data, limit)
	if err == errOverLimit {
		return nil, tooLarge(name, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: reading: %v", name, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, limit)
	}
	return data, nil
}

// readChunk is the piece size of readAll past data's capacity.
const readChunk = 1 << 20

// errOverLimit is readAll's error for an input longer than its limit.
var errOverLimit = errors.New("over the limit")

// readAll appends everything r yields to data. Past data's capacity (a
// device, a pipe or standard input, whose size is unknown) it reads into
// pieces of readChunk bytes and joins them once at the end, so that a
// read of n bytes holds about 2n bytes at its peak, not the 4n or more
// of a slice grown by append (reading 256 MiB of /dev/zero held 1 GB).
// Past limit bytes it stops and returns errOverLimit without joining.
func readAll(r io.Reader, data []byte, limit int64) ([]byte, error) {
	for len(data) < cap(data) {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
	var pieces [][]byte
	total := len(data)
	join := func() []byte {
		out := make([]byte, 0, total)
		out = append(out, data...)
		for _, p := range pieces {
			out = append(out, p...)
		}
		return out
	}
	for {
		p := make([]byte, readChunk)
		n, err := io.ReadFull(r, p)
		if n > 0 {
			pieces = append(pieces, p[:n])
			total += n
		}
		if int64(total) > limit {
			return nil, errOverLimit
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return join(), nil
		}
		if err != nil {
			return join(), err
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
		return openStdin(MaxInputBytes)
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

// openStdin returns standard input, read whole (once) up to limit.
func openStdin(limit int64) (io.ReadCloser, string, error) {
	name := inputerr.FileName(Stdin)
	data, over, read, err := readStdin(limit)
	if err != nil {
		return nil, name, fmt.Errorf("%s: reading: %v", name, err)
	}
	if over {
		return nil, name, tooLarge(name, read)
	}
	return io.NopCloser(bytes.NewReader(data)), name, nil
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
