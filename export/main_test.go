package export

import (
	"testing"

	"github.com/capplan/capplan/pipeline/pipelinetest"
)

func TestMain(m *testing.M) { pipelinetest.Main(m) }
