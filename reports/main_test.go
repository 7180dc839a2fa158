package reports

import (
	"testing"

	"github.com/capplan/capplan/internal/testplans"
)

func TestMain(m *testing.M) { testplans.Main(m) }
