package main

import (
	"io"
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

// A command runs with its arguments and streams, and returns the exit code.
type command func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// subcommands are the commands named by abigen's first argument; without
// one, abigen generates (runGenerate).
var subcommands = map[string]command{
	"diff": runDiff,
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
