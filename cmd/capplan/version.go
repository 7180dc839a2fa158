package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version, when set at link time (-ldflags "-X main.version=v1.2.3"),
// overrides the module version of the build info.
var version = ""

// buildInfo is what `capplan version` reports, from the binary's build
// information (runtime/debug.ReadBuildInfo).
type buildInfo struct {
	// Version is the module version: a release tag, the pseudo-version
	// the go command stamps from the commit ("v0.0.0-20261126012254-
	// cd906f6c0b92", "+dirty" when modified), or "(devel)" without
	// version control information.
	Version string
	// Commit, Time and Modified come from the vcs.* settings; Commit is
	// "" when the binary was built without them.
	Commit, Time string
	Modified     bool
	// Go is the toolchain that built the binary.
	Go string
}

// readBuildInfo reads the build information of this binary; linked
// overrides its module version.
func readBuildInfo(bi *debug.BuildInfo, ok bool, linked string) buildInfo {
	out := buildInfo{Version: "(devel)"}
	if ok {
		out.Go = bi.GoVersion
		if bi.Main.Version != "" {
			out.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				out.Commit = s.Value
			case "vcs.time":
				out.Time = s.Value
			case "vcs.modified":
				out.Modified = s.Value == "true"
			}
		}
	}
	if linked != "" {
		out.Version = linked
	}
	return out
}

func currentBuild() buildInfo {
	bi, ok := debug.ReadBuildInfo()
	return readBuildInfo(bi, ok, version)
}

// String is the report of `capplan version`: the version on the first
// line, then the commit (or why it is unknown) and the toolchain.
func (b buildInfo) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "capplan %s\n", b.Version)
	if b.Commit == "" {
		s.WriteString("commit: unknown (built without version control information: build from a git clone, e.g. with make build, or with go build -buildvcs=true)\n")
	} else {
		fmt.Fprintf(&s, "commit: %s", b.Commit)
		if b.Time != "" {
			fmt.Fprintf(&s, " (%s)", b.Time)
		}
		if b.Modified {
			s.WriteString(", with uncommitted changes")
		}
		s.WriteByte('\n')
	}
	if b.Go != "" {
		fmt.Fprintf(&s, "go: %s\n", b.Go)
	}
	return s.String()
}

// generator names this tool in plan documents: "capplan " and the module
// version.
func generator() string { return "capplan " + currentBuild().Version }

func newVersionCmd(io *ioStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the capplan version and the commit it was built from",
		Args:  wrapArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(io.Out, currentBuild().String())
			return err
		},
	}
}
