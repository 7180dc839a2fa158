package reports

import (
	"fmt"
	"io"

	"github.com/capplan/capplan/plan"
)

// WriteJSON writes v as JSON indented by two spaces, followed by a newline
// (plan.EncodeDocument, so a document written here has the digest a plan
// bundle records for it). The output is deterministic: encoding/json sorts
// map keys and struct fields keep their declaration order. HTML characters
// are not escaped.
func WriteJSON(w io.Writer, v any) error {
	data, err := plan.EncodeDocument(v)
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	_, err = w.Write(data)
	return err
}
