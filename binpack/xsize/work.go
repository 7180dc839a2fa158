package xsize

import (
	"fmt"
	"time"

	"github.com/capplan/capplan/binpack/internal/work"
)

// checkWork returns the work cap of a run (def when maxWork is 0); a
// negative maxWork or timeLimit gives an *InputError.
func checkWork(maxWork int64, timeLimit time.Duration, def int64) (int64, error) {
	m, err := work.Resolve(maxWork, timeLimit, def)
	if err != nil {
		return 0, &InputError{"Options", -1, -1, fmt.Sprint(err)}
	}
	return m, nil
}
