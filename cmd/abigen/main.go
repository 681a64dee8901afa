package main

import (
	"io"
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

// A command runs with its arguments and streams, and returns the exit code.
type command func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// subcommands are the commands named by abigen's first argument; without
// one, abigen generates (runGenerate).
var subcommands = map[string]command{
	"diff":   runDiff,
	"mirror": runMirror,
}

// run runs abigen with args (os.Args[1:]).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if cmd, ok := subcommands[args[0]]; ok {
			return cmd(args[1:], stdin, stdout, stderr)
		}
	}
	return runGenerate(args, stdin, stdout, stderr)
}

// looksLikeCommand says whether a first argument abigen does not know was
// meant as a command (a misspelt "diff"): a lower-case word that names no
// file, where an ABI file's name has a dot or a slash.
func looksLikeCommand(arg string) bool {
	for _, r := range arg {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	_, err := os.Stat(arg)
	return arg != "" && err != nil
}
