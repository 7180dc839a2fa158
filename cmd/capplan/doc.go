// Command capplan is an offline planning and capacity-optimization toolkit
// for shared compute clusters. See the README for the command surface.
//
// This package is the cobra CLI and nothing else: each planning command
// binds its flags straight into the options struct of one pipeline
// function (pipeline.FairShare, Shapes, Pack, Size, DAGSchedule,
// DAGBounds, DAGCheck), checks what only a command line can get wrong
// (flag combinations, positional arguments, output flags), calls that one
// function and hands the document to reports for the view the flags ask
// for (table, JSON, CSV, xlsx; files written atomically). Errors map to
// exit codes in one place (errors.go): 0 ok, 1 failure, 2 usage
// (*pipeline.OptionError).
//
// It may import cobra and the other CLI libraries, pipeline, plan,
// reports, datasets and datasets/dags (the input utilities behind
// validate, import and example) and internal helpers; algorithm packages only for names and
// callback types (lp.Backends, xsize.Step). It computes nothing itself.
package main
