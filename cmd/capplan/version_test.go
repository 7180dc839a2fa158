package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion (issue 12, item 8): `capplan version` reports the module
// version and the commit from the build information, never "dev".
func TestVersion(t *testing.T) {
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/capplan/capplan", Version: "v0.0.0-20261126012254-cd906f6c0b92+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "cd906f6c0b92b20b7ba2993dc677b2c6e3e448ce"},
			{Key: "vcs.time", Value: "2026-11-26T01:22:54Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	cases := []struct {
		name   string
		bi     *debug.BuildInfo
		ok     bool
		linked string
		want   string
	}{
		{"a build from a clone", stamped, true, "",
			"capplan v0.0.0-20261126012254-cd906f6c0b92+dirty\ncommit: cd906f6c0b92b20b7ba2993dc677b2c6e3e448ce (2026-11-26T01:22:54Z), with uncommitted changes\ngo: go1.26.8\n"},
		{"a release linked with -X main.version", stamped, true, "v1.2.0",
			"capplan v1.2.0\ncommit: cd906f6c0b92b20b7ba2993dc677b2c6e3e448ce (2026-11-26T01:22:54Z), with uncommitted changes\ngo: go1.26.8\n"},
		{"no version control information", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, true, "",
			"capplan (devel)\ncommit: unknown (built without version control information: build from a git clone, e.g. with make build, or with go build -buildvcs=true)\ngo: go1.26.8\n"},
	}
	for _, tc := range cases {
		if got := readBuildInfo(tc.bi, tc.ok, tc.linked).String(); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
	code, out, _ := runCapplan(t, "version")
	if code != 0 || !strings.HasPrefix(out, "capplan ") || strings.Contains(out, "dev\n") || !strings.Contains(out, "\ncommit: ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}
