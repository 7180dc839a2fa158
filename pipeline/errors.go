package pipeline

import (
	"errors"
	"fmt"
)

// OptionError is an error in a job's options rather than in its input
// files: a node group the cluster does not have, a rounding for a resource
// the problem lacks, machines that do not suit the input, a malformed
// KEY=VALUE list. The CLI reports it as a usage error (exit code 2).
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *OptionError) Unwrap() error { return e.Err }

// optionErrorf formats an *OptionError; %w wraps as in fmt.Errorf.
func optionErrorf(format string, args ...any) error {
	return &OptionError{fmt.Errorf(format, args...)}
}

// IsOptionError reports whether err is, or wraps, an *OptionError.
func IsOptionError(err error) bool {
	var oe *OptionError
	return errors.As(err, &oe)
}
