// Package work counts the work of capplan's packing searches against a
// cap and an optional wall-clock deadline: the one work budget of the
// binpack packages (vbp, xsize, xselect). A search charges units as it
// goes (what one unit is, each algorithm says in its doc comment) and
// stops when it reaches its phase's stop, the cap, or the deadline.
// Without a deadline the clock is never read, so a search stops after the
// same work on any machine and its result cannot depend on speed.
//
// It imports only the standard library; only binpack packages import it.
package work
