// Command capplan is an offline planning and capacity-optimization toolkit
// for shared compute clusters. See the README for the command surface.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], newIOStreams()))
}
