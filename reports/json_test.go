package reports

import (
	"bytes"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	v := map[string]any{"b": []int{1, 2}, "a": "x<y", "c": map[string]int{"z": 1, "y": 2}}
	if err := WriteJSON(&buf, v); err != nil {
		t.Fatal(err)
	}
	// Keys sorted, two-space indent, no HTML escaping, trailing newline.
	want := `{
  "a": "x<y",
  "b": [
    1,
    2
  ],
  "c": {
    "y": 2,
    "z": 1
  }
}
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	if err := WriteJSON(&buf, func() {}); err == nil {
		t.Error("encoding a func succeeded")
	}
}
