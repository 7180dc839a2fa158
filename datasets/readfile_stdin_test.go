package datasets

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestReadStdinLimit: standard input is read once, up to the limit of its
// first reader (a document's MaxDocumentBytes, not the 1 GiB of a streamed
// trace: `-c - < /dev/zero` held 1 GiB before it was refused); a later
// read gets the same bytes, and one with a larger limit still learns that
// the input was too large for the first.
func TestReadStdinLimit(t *testing.T) {
	defer UseStdin(strings.NewReader(""))
	data := bytes.Repeat([]byte("x"), 100)

	UseStdin(bytes.NewReader(data))
	if _, err := ReadFile(Stdin, 10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("100 bytes under a limit of 10: err %v, want ErrTooLarge", err)
	}
	if _, err := ReadFile(Stdin, 1000); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("read again with a larger limit: err %v, want ErrTooLarge (only 10 bytes were kept)", err)
	}

	UseStdin(bytes.NewReader(data))
	for i := 0; i < 2; i++ {
		got, err := ReadFile(Stdin, 1000)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %d: %d bytes, %v; want the 100 bytes", i+1, len(got), err)
		}
	}
	rc, name, err := Open(Stdin)
	if err != nil || name != "standard input" {
		t.Fatalf("Open after ReadFile: %q, %v", name, err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(rc); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("Open after ReadFile read %d bytes, %v", buf.Len(), err)
	}
}
