package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/capplan/capplan/internal/suggest"
	"github.com/capplan/capplan/pipeline"
)

// Exit codes, documented in the README.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitWarnings: `capplan plan` wrote the bundle, but with warnings (a
	// demand no machine can hold, no feasible node mix, a job larger than
	// every machine): it holds the feasible part of the plan.
	exitWarnings = 3
	// exitCheckFailed: `capplan plan --check` found a file, an input or a
	// result that does not verify.
	exitCheckFailed = 4
	// exitSignal plus the signal's number: a run interrupted by SIGINT
	// (130) or SIGTERM (143), as shells report it.
	exitSignal = 128
)

// usageErrorf marks an error in how the command was invoked, as a
// *pipeline.OptionError: the usage text follows it and the exit code is
// exitUsage, as for the option errors the pipeline returns.
func usageErrorf(format string, args ...any) error {
	return &pipeline.OptionError{Err: fmt.Errorf(format, args...)}
}

// exitCode maps an error from a command to the process exit code. It is
// the only place that does so.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var warned *planWarningsError
	var failed *planCheckError
	var interrupted *interruptedError
	switch {
	case errors.As(err, &interrupted):
		if sig, ok := interrupted.sig.(syscall.Signal); ok {
			return exitSignal + int(sig)
		}
		return exitFailure
	case pipeline.IsOptionError(err) || isCobraUsage(err):
		return exitUsage
	case errors.As(err, &warned):
		return exitWarnings
	case errors.As(err, &failed):
		return exitCheckFailed
	}
	// Everything else, including a run stopped at --max-memory and an
	// input refused for its size, is a failure.
	return exitFailure
}

// isCobraUsage recognises the errors cobra itself returns for unknown
// commands and bad arguments, which carry no type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "flag needs an argument", "invalid argument"} {
		if strings.HasPrefix(msg, p) || strings.Contains(msg, " "+p) {
			return true
		}
	}
	return false
}

// wrapArgs turns cobra's positional-argument check failures into usage
// errors.
func wrapArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return &pipeline.OptionError{Err: err}
		}
		return nil
	}
}

// subcommandArgs is the argument check of a command that only groups
// subcommands: an argument is an unknown subcommand, with the nearest
// ones suggested (cobra's SuggestionsFor: within SuggestionsMinimumDistance
// or a prefix).
func subcommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = suggest.MaxDistance
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return &pipeline.OptionError{Err: errors.New(msg)}
}

// unknownFlagRE finds the name in pflag's "unknown flag: --name".
var unknownFlagRE = regexp.MustCompile(`^unknown flag: --([^ =]+)`)

// suggestFlag adds to pflag's unknown-flag error the nearest flag of the
// command (suggest.Closest), if one is near.
func suggestFlag(cmd *cobra.Command, err error) error {
	m := unknownFlagRE.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if best, ok := suggest.Closest(m[1], names); ok {
		return fmt.Errorf("%w; did you mean --%s?", err, best)
	}
	return err
}

// goPackagePrefixRE finds the "pkg: " prefixes Go packages give their
// errors (STYLE: sentinel errors name their package), at the start of the
// message or of a wrapped part.
var goPackagePrefixRE = regexp.MustCompile(`(^|: |\n|\()(?:atomicfile|binpack|dag|dags|datasets|export|flow|inputerr|kvlist|lp|par|pipeline|plan|policies|reports|sim|vbp|vbpfile|workloads|xselect|xsize): `)

// userMessage is an error's message in the user's words: without the Go
// package names of the layers it crossed ("pipeline: xsize: no shape
// fits" says "no shape fits").
func userMessage(err error) string {
	msg := err.Error()
	for {
		next := goPackagePrefixRE.ReplaceAllString(msg, "$1")
		if next == msg {
			return msg
		}
		msg = next
	}
}
