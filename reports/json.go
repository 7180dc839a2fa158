package reports

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteJSON writes v as JSON indented by two spaces, followed by a newline.
// The output is deterministic: encoding/json sorts map keys and struct
// fields keep their declaration order. HTML characters are not escaped.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("reports: encode JSON: %w", err)
	}
	return nil
}
