// Package inputerr is capplan's one home for errors about bad input: a
// Problem names the file, where in it (a field path such as
// nodes[2].capacity.cpu, or "line 12") and what is wrong; an *Error lists
// every problem found in an input, so a user fixes them all in one pass;
// a List collects them while a reader walks its input. It also holds the
// byte-offset-to-line helpers every reader uses to say where a syntax
// error is.
//
// It imports only the standard library, so that input readers (datasets),
// document decoders (plan), the pipeline and algorithm packages that
// validate their own inputs can all share it.
package inputerr
