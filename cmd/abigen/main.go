// Command abigen generates Go bindings for an Antelope contract ABI.
//
// See abigen --help, and the README, for flags, examples and exit codes.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
