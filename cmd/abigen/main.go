// Command abigen generates Go bindings for an Antelope contract ABI.
//
// See abigen --help, and the README, for flags, examples and exit codes.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// A run lives for a fraction of a second and allocates a few tens of
	// MB (formatting the output allocates heavily): collecting that garbage
	// was a tenth of its instructions, for memory it frees at exit anyway.
	// So the collector waits until the heap reaches 512 MiB, which only an
	// ABI far larger than any real contract's comes near.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
