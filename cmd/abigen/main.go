// Command abigen generates Go bindings for an Antelope contract ABI.
//
// See abigen --help, and the README, for flags, examples and exit codes.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// A run lives for a fraction of a second and peaks at a few tens of MB:
	// collecting garbage less often saves a sixth of its time (formatting
	// the output allocates heavily) for memory it would free at exit anyway.
	debug.SetGCPercent(400)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
