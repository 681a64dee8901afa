package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/pipeline"
	"github.com/spf13/pflag"
)

// Exit codes, documented in --help and docs/generate.md.
const (
	exitOK       = 0 // generated (or, with --check, nothing to change)
	exitDrift    = 1 // --check: the files on disk differ from what the ABI generates
	exitUsage    = 2 // bad flags or arguments
	exitBadABI   = 3 // the ABI cannot be read, or is invalid
	exitGenerate = 4 // the ABI is valid but cannot be turned into Go (e.g. a --rename clash)
	exitIO       = 5 // reading or writing files failed
)

const usageText = `abigen generates a Go package for an Antelope contract ABI: types with
binary and JSON codecs byte-exact with the chain, action builders, table rows.

Usage:
  abigen --abi FILE [--pkg NAME] [--out DIR] [flags]
  abigen diff OLD NEW [flags]    what changed between two ABIs, and whom it breaks (abigen diff --help)
  abigen mirror --abi FILE --account NAME --ship URL --db sqlite:FILE
                                 the contract's tables in SQL, block by block (abigen mirror --help)
  abigen --account NAME --base-url URL --auth-url URL [--block-num N] [flags]
  abigen --account NAME --chain-url URL [flags]

The ABI file may be ABI JSON (eosio::abi/1.0 to 1.3), a saved state API
response {"block_num","account","abi"}, a saved nodeos get_abi or get_raw_abi
response, or a packed ABI as hex text or raw bytes. "-" reads stdin.

Examples:
  # Generate the orng.wax bindings from the saved state API response:
  abigen --abi testdata/fetch-responses/dfuse/state-abi.orng.wax.json-true.json \
         --pkg randcontract --out ./randcontract

  # From a go:generate line in the package directory, after
  # go get -tool github.com/antelopego/abigen/cmd/abigen:
  //go:generate go tool abigen --abi token.abi.json --pkg token --out .

  # In CI, fail when the committed bindings are stale (prints a diff):
  abigen --abi token.abi.json --pkg token --out ./token --check

  # Fetch through the state API (key in ABIGEN_API_KEY; tokens are cached):
  abigen --account orng.wax --base-url https://wax.example.io \
         --auth-url https://auth.example.io --pkg randcontract --out ./randcontract

  # Fetch from a nodeos node:
  abigen --account eosio.token --chain-url https://wax.example.io --pkg token

  # Choose Go names yourself:
  abigen --abi x.abi.json --pkg x --rename jobs_a=Job --rename jobs_a.assoc_id=Association

Flags:
`

const exitText = `
Exit codes:
  0  done (with --check: the files are up to date)
  1  --check: the files differ from what the ABI generates (a diff is printed)
  2  usage error
  3  the ABI cannot be parsed or is invalid (a file that cannot be opened: 5)
  4  the ABI cannot be turned into Go (a --rename clash, an invalid --pkg)
  5  reading or writing files failed
  6  the ABI could not be fetched (network, service, unknown account, no ABI)
  7  the API key or token was refused
`

type options struct {
	fetch    fetchOptions
	abi      string
	account  string
	pkg      string
	out      string
	renames  []string
	check    bool
	quiet    bool
	offChain bool
	version  bool
}

// runGenerate is abigen without a subcommand: flags in, pipeline.Run, exit
// code out.
func runGenerate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	fl := pflag.NewFlagSet("abigen", pflag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.StringVar(&o.abi, "abi", "", "the ABI `file`, in any of the forms above; - for stdin")
	fl.StringVar(&o.account, "account", "", "the contract `account`: the one to fetch, and Default's account; must match --abi's file when it names one")
	o.fetch.register(fl)
	fl.Uint64Var(&o.fetch.blockNum, "block-num", 0, "state API: the ABI as it was at this `block` (default: the head block)")
	fl.StringVar(&o.fetch.encoding, "abi-encoding", "json", "ask the service for the ABI as `json` or packed (the exact bytes on chain:\nstate API json=false, nodeos get_raw_abi)")
	fl.StringVar(&o.pkg, "pkg", "", "Go package `name` (default: the --out directory's name)")
	fl.StringVar(&o.out, "out", ".", "output `dir`ectory; created if missing")
	fl.StringArrayVar(&o.renames, "rename", nil, "override a Go name (repeatable): `old=New`, where old is abi_name for a type,\nstruct.field for a field, action:name for a Contract method, table:name for a table variable")
	fl.BoolVar(&o.check, "check", false, "write nothing: compare with the files in --out, print a unified diff, exit 1 if they differ")
	fl.BoolVar(&o.offChain, "off-chain", false, "the ABI is never deployed on chain (nodeos's state-history ABI): table names need not be names")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "do not print notes (such as names changed to avoid a clash)")
	fl.BoolVar(&o.version, "version", false, "print the version and exit")
	help := fl.BoolP("help", "h", false, "show this help")
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(stderr, "abigen: %s\nRun abigen --help for usage.\n", flagError(fl, args, err))
		return exitUsage
	}
	switch {
	case *help:
		fmt.Fprint(stdout, usageText, fl.FlagUsages(), exitText)
		return exitOK
	case o.version:
		fmt.Fprintln(stdout, "abigen", version())
		return exitOK
	case fl.NArg() > 0 && fl.Arg(0) == args[0] && looksLikeCommand(args[0]):
		fmt.Fprintf(stderr, "abigen: unknown command %q: abigen's commands are %s; the ABI is given with --abi\nRun abigen --help for usage.\n",
			args[0], strings.Join(slices.Sorted(maps.Keys(subcommands)), " and "))
		return exitUsage
	case fl.NArg() > 0:
		fmt.Fprintf(stderr, "abigen: unexpected argument %q: the ABI is given with --abi\n", fl.Arg(0))
		return exitUsage
	case o.abi == "" && o.account == "":
		fmt.Fprintln(stderr, "abigen: --abi FILE or --account NAME (with a service to fetch from) is required\nRun abigen --help for usage.")
		return exitUsage
	case o.abi != "" && (o.fetch.baseURL != "" || o.fetch.authURL != "" || o.fetch.chainURL != ""):
		fmt.Fprintln(stderr, "abigen: --abi reads a file; --base-url, --auth-url and --chain-url fetch one: give one or the other")
		return exitUsage
	case o.abi != "" && fetchOnlyFlag(fl) != "":
		fmt.Fprintf(stderr, "abigen: --%s applies only to fetching the ABI (--account with --base-url/--auth-url or --chain-url); --abi reads a file: leave it out\n", fetchOnlyFlag(fl))
		return exitUsage
	}
	if o.account != "" {
		if _, err := parseAccount(o.account); err != nil {
			fmt.Fprintf(stderr, "abigen: --account %q: %v\n", o.account, err)
			return exitUsage
		}
	}
	renames, err := parseRenames(o.renames)
	if err != nil {
		fmt.Fprintf(stderr, "abigen: %v\n", err)
		return exitUsage
	}
	if o.pkg == "" {
		if o.pkg, err = packageFromDir(o.out); err != nil {
			fmt.Fprintf(stderr, "abigen: %v\n", err)
			return exitUsage
		}
	}
	job := pipeline.Job{Account: o.account, Package: o.pkg, Renames: renames, Out: o.out, Check: o.check, OffChain: o.offChain,
		Timeout: o.fetch.timeout}
	if o.abi != "" {
		job.Source = fetch.FileSource{Path: o.abi, Stdin: stdin}
	} else {
		o.fetch.fromEnv()
		var host string
		if job.Source, host, err = networkSource(o.account, o.fetch); err != nil {
			fmt.Fprintf(stderr, "abigen: %v\n", err)
			return fetchExitCode(err)
		}
		job.Slow = slowNote(stderr, "the ABI of "+o.account+" from "+host, o.quiet)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := pipeline.Run(ctx, job)
	if res != nil && !o.quiet {
		for _, w := range res.Warnings {
			fmt.Fprintf(stderr, "abigen: warning: %s\n", w)
		}
		for _, n := range res.Notes {
			fmt.Fprintf(stderr, "abigen: note: %s\n", n)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "abigen: %v\n", err)
		return exitCode(err, o.abi != "")
	}
	if len(res.Drift) > 0 {
		// What changed in the ABI first, then the Go diff, which for a real
		// upgrade runs to thousands of lines.
		abiDrift(o.out, res, stdout, stderr)
		names := make([]string, len(res.Drift))
		for i, d := range res.Drift {
			fmt.Fprint(stdout, d.Diff)
			names[i] = d.Name
		}
		fmt.Fprintf(stderr, "abigen: %d file(s) in %s differ from what the ABI generates (%s); run abigen without --check to update them\n",
			len(names), o.out, strings.Join(names, ", "))
		return exitDrift
	}
	return exitOK
}

// exitCode is the exit code of a failed run; fromFile says the ABI came
// from a file (which fails as I/O, not as a fetch).
func exitCode(err error, fromFile bool) int {
	var pe *pipeline.Error
	if !errors.As(err, &pe) {
		return exitIO
	}
	switch pe.Stage {
	case pipeline.Fetching:
		if fromFile {
			return exitIO
		}
		return fetchExitCode(err)
	case pipeline.Checking:
		return exitUsage
	case pipeline.Loading:
		return exitBadABI
	case pipeline.Generating:
		return exitGenerate
	}
	return exitIO
}
