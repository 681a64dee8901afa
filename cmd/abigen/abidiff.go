package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"

	"github.com/antelopego/abigen/abidiff"
	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/model"
	"github.com/antelopego/abigen/pipeline"
	"github.com/spf13/pflag"
)

const diffUsage = `abigen diff reports what changed between two versions of a contract's ABI,
and whom each change breaks: stored data (table rows), senders (action
payloads), Go code (the regenerated bindings), or nobody (compatible).

Usage:
  abigen diff OLD NEW                                  two ABIs, in any form --abi reads ("-": stdin)
  abigen diff --account NAME --base-url URL --auth-url URL [--from-block N] [--to-block M]
                                                       the state API: the ABI at M (default: the head)
                                                       against the one at N (default: the version before)
  abigen diff --account NAME --base-url URL --auth-url URL --history
                                                       every version, and the change at each step
  abigen diff --account NAME --chain-url URL NEW       nodeos's current ABI against a file

Exit codes: 0 compatible, 1 something breaks, 2 usage error, 3 an ABI is not
an ABI or is invalid, 4 the bindings of an ABI cannot be generated to compare,
5 a file cannot be read, 6 an ABI could not be fetched, 7 the API key or token
was refused.

Flags:
`

// diffSide is one ABI of a comparison, loaded.
type diffSide struct {
	label string
	m     *model.Model
	src   *model.Source
}

// diffError is a failure with its exit code.
type diffError struct {
	code int
	err  error
}

func (e *diffError) Error() string { return e.err.Error() }

func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f fetchOptions
	var account, color string
	var jsonOut, history, quiet bool
	var fromBlock, toBlock uint64
	fl := pflag.NewFlagSet("abigen diff", pflag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.StringVar(&account, "account", "", "the contract `account`, fetched through the state API or nodeos")
	f.register(fl)
	fl.Uint64Var(&fromBlock, "from-block", 0, "state API: OLD is the ABI in force at this `block` (default: the version before NEW); with --history, the first block listed")
	fl.Uint64Var(&toBlock, "to-block", 0, "state API: NEW is the ABI in force at this `block` (default: the head)")
	fl.BoolVar(&history, "history", false, "state API: list every version of the account's ABI, with the change at each step")
	fl.BoolVar(&jsonOut, "json", false, "print the report as JSON, for tools")
	fl.StringVar(&color, "color", "auto", "colour the report: auto (on a terminal), always or never")
	fl.BoolVarP(&quiet, "quiet", "q", false, "no progress notes")
	help := fl.BoolP("help", "h", false, "show this help")
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(stderr, "abigen diff: %s\nRun abigen diff --help for usage.\n", flagError(fl, args, err))
		return exitUsage
	}
	if *help {
		fmt.Fprint(stdout, diffUsage, fl.FlagUsages())
		return exitOK
	}
	useColor := color == "always" || color == "auto" && isTerminal(stdout)
	if color != "auto" && color != "always" && color != "never" {
		fmt.Fprintf(stderr, "abigen diff: --color %q: use auto, always or never\n", color)
		return exitUsage
	}
	f.fromEnv()
	f.encoding = "json"
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	fail := func(err error) int {
		fmt.Fprintf(stderr, "abigen diff: %v\n", err)
		var de *diffError
		var pe *pipeline.Error
		switch {
		case errors.As(err, &de):
			return de.code
		case errors.As(err, &pe):
			return exitCode(err, false)
		}
		return fetchExitCode(err)
	}
	files := fl.Args()
	if account != "" {
		if _, err := parseAccount(account); err != nil {
			fmt.Fprintf(stderr, "abigen diff: --account %q: %v\n", account, err)
			return exitUsage
		}
	}
	switch {
	case history:
		if account == "" || f.baseURL == "" || f.authURL == "" || len(files) > 0 {
			fmt.Fprintln(stderr, "abigen diff: --history needs --account and the state API (--base-url, --auth-url), and no files")
			return exitUsage
		}
		if fromBlock > 0 && toBlock > 0 && fromBlock > toBlock {
			fmt.Fprintf(stderr, "abigen diff: --from-block %d is after --to-block %d: the range is backwards\n", fromBlock, toBlock)
			return exitUsage
		}
		return diffHistory(ctx, account, f, fromBlock, toBlock, jsonOut, useColor, quiet, stdout, stderr)
	case account == "" && len(files) == 2:
		if name := changedFlag(fl, diffFetchOnly); name != "" {
			fmt.Fprintf(stderr, "abigen diff: --%s applies only to fetching an ABI (--account with a service); two files are compared as they are: leave it out\n", name)
			return exitUsage
		}
		var sides [2]*diffSide
		for i, name := range files {
			s, err := fileSide(ctx, name, stdin)
			if err != nil {
				return fail(err)
			}
			sides[i] = s
		}
		return report(sides[0], sides[1], jsonOut, useColor, stdout, stderr)
	case account != "" && f.chainURL != "" && len(files) == 1:
		if name := changedFlag(fl, []string{"from-block", "to-block"}); name != "" {
			fmt.Fprintf(stderr, "abigen diff: --%s needs the state API (--base-url, --auth-url): nodeos serves only the current ABI\n", name)
			return exitUsage
		}
		old, err := fetchSide(ctx, account, f, 0, quiet, stderr)
		if err != nil {
			return fail(err)
		}
		nw, err := fileSide(ctx, files[0], stdin)
		if err != nil {
			return fail(err)
		}
		return report(old, nw, jsonOut, useColor, stdout, stderr)
	case account != "" && f.baseURL != "" && len(files) <= 1:
		if len(files) == 1 && fl.Changed("to-block") {
			fmt.Fprintln(stderr, "abigen diff: --to-block chooses NEW, which is the file: leave it out (--from-block chooses OLD)")
			return exitUsage
		}
		var nw *diffSide
		var err error
		if len(files) == 1 {
			nw, err = fileSide(ctx, files[0], stdin)
		} else {
			nw, err = fetchSide(ctx, account, f, toBlock, quiet, stderr)
		}
		if err != nil {
			return fail(err)
		}
		from := fromBlock
		before := from == 0 && len(files) == 0
		if before {
			// The version before NEW: the ABI in force just before NEW was set.
			if !nw.src.HasBlock || nw.src.BlockNum <= 1 {
				fmt.Fprintf(stderr, "abigen diff: %s has no earlier ABI to compare with\n", nw.label)
				return exitFetch
			}
			from = nw.src.BlockNum - 1
		}
		old, err := fetchSide(ctx, account, f, from, quiet, stderr)
		if before && errors.Is(err, fetch.ErrNotFound) {
			// No ABI just before NEW's: NEW is the account's first.
			fmt.Fprintf(stderr, "abigen diff: %s has no earlier ABI to compare with: its first was set at block %d\n", account, nw.src.BlockNum)
			return exitFetch
		}
		if err != nil {
			return fail(err)
		}
		return report(old, nw, jsonOut, useColor, stdout, stderr)
	}
	fmt.Fprint(stderr, "abigen diff: give two ABI files, or --account with a service (see abigen diff --help)\n")
	return exitUsage
}

// diffFetchOnly are the flags of abigen diff that only fetching uses: with
// two files they would be silently ignored, so they are refused.
var diffFetchOnly = append([]string{"base-url", "auth-url", "chain-url", "from-block", "to-block"}, fetchOnly...)

// fileSide loads an ABI the way --abi does.
func fileSide(ctx context.Context, name string, stdin io.Reader) (*diffSide, error) {
	got, err := fetch.FileSource{Path: name, Stdin: stdin}.Fetch(ctx)
	if err != nil {
		return nil, &diffError{exitIO, err}
	}
	return loadSide(got.Source, got)
}

// fetchSide fetches the account's ABI at block (0: the head; nodeos: the
// current one).
func fetchSide(ctx context.Context, account string, f fetchOptions, block uint64, quiet bool, stderr io.Writer) (*diffSide, error) {
	if f.chainURL != "" {
		f.baseURL, f.authURL = "", ""
	}
	f.blockNum = block
	src, host, err := networkSource(account, f)
	if err != nil {
		return nil, err
	}
	what := "the ABI of " + account + " from " + host
	if block > 0 {
		what += " at block " + strconv.FormatUint(block, 10)
	}
	got, err := fetch.Within(ctx, src, f.timeout, slowNote(stderr, what, quiet))
	if err != nil {
		return nil, err
	}
	s, err := loadSide(got.Source, got)
	if err != nil {
		return nil, err
	}
	s.label = account
	if s.src.HasBlock {
		s.label += " (set at block " + strconv.FormatUint(s.src.BlockNum, 10) + ")"
	} else {
		s.label += " (current, " + host + ")"
	}
	return s, nil
}

// loadSide loads one ABI of a comparison, with pipeline.Load as every
// command does.
func loadSide(label string, f *fetch.Fetched) (*diffSide, error) {
	src, m, err := pipeline.Load(label, f)
	if err != nil {
		return nil, err
	}
	return &diffSide{label: label, m: m, src: src}, nil
}

// report compares and prints; the exit code says whether anything breaks.
func report(old, nw *diffSide, jsonOut, color bool, stdout, stderr io.Writer) int {
	r, err := abidiff.Compare(old.m, nw.m, old.src, nw.src)
	if err != nil {
		fmt.Fprintf(stderr, "abigen diff: %v\n", err)
		return exitGenerate
	}
	if jsonOut {
		err = r.WriteJSON(stdout, old.label, nw.label)
	} else {
		err = r.WriteText(stdout, old.label, nw.label, color)
	}
	if err != nil {
		fmt.Fprintf(stderr, "abigen diff: %v\n", err)
		return exitIO
	}
	if r.Breaking() {
		return exitDrift
	}
	return exitOK
}

// diffHistory lists every version of the account's ABI and the change at
// each step, oldest first: from the version in force at block from (0: the
// first) to the one in force at upTo (0: the head).
func diffHistory(ctx context.Context, account string, f fetchOptions, from, upTo uint64, jsonOut, color, quiet bool, stdout, stderr io.Writer) int {
	src, host, err := networkSource(account, f)
	if err != nil {
		fmt.Fprintf(stderr, "abigen diff: %v\n", err)
		return fetchExitCode(err)
	}
	state := src.(fetch.StateSource).API
	if f.timeout > 0 { // 0: no limit, as fetch.Within reads it
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	if !quiet {
		fmt.Fprintf(stderr, "abigen: reading the ABI history of %s from %s…\n", account, host)
	}
	versions, err := state.History(ctx, account, from, upTo, 0)
	if err != nil {
		fmt.Fprintf(stderr, "abigen diff: %v\n", err)
		return fetchExitCode(err)
	}
	var sides []*diffSide
	for i := len(versions) - 1; i >= 0; i-- {
		s, err := loadSide(account+" (set at block "+strconv.FormatUint(versions[i].Block, 10)+")", versions[i].Fetched)
		if err != nil {
			fmt.Fprintf(stderr, "abigen diff: %v\n", err)
			return exitBadABI
		}
		sides = append(sides, s)
	}
	if !jsonOut {
		if len(sides) == 1 {
			fmt.Fprintf(stdout, "%s: 1 ABI version, set at block", account)
		} else {
			fmt.Fprintf(stdout, "%s: %d ABI versions, set at blocks", account, len(sides))
		}
		for _, v := range sides {
			fmt.Fprintf(stdout, " %d", v.src.BlockNum)
		}
		fmt.Fprintln(stdout)
	} else {
		fmt.Fprintln(stdout, "[")
	}
	code := exitOK
	for i := 1; i < len(sides); i++ {
		if !jsonOut {
			fmt.Fprintln(stdout)
		} else if i > 1 {
			fmt.Fprintln(stdout, ",")
		}
		if c := report(sides[i-1], sides[i], jsonOut, color, stdout, stderr); c == exitDrift {
			code = exitDrift
		} else if c != exitOK {
			return c
		}
	}
	if jsonOut {
		fmt.Fprintln(stdout, "]")
	}
	return code
}

// isTerminal reports whether w is a terminal that wants colour (NO_COLOR
// and TERM=dumb say no).
func isTerminal(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// abiDrift explains drift that comes from the ABI: when the ABI embedded
// in the committed package (abi.json) is not the one given now, it prints
// abigen diff's report of the change (and a blank line), before the diff of
// Go, so CI says what changed first.
func abiDrift(dir string, res *pipeline.Result, stdout, stderr io.Writer) {
	path := filepath.Join(dir, "abi.json")
	old, err := os.ReadFile(path)
	if err != nil || bytes.Equal(bytes.TrimSpace(old), bytes.TrimSpace(res.Source.JSON)) {
		return // no committed ABI, or the same ABI: the generator changed
	}
	label := filepath.ToSlash(path)
	src, m, err := pipeline.Load(label, &fetch.Fetched{Body: old, Source: label})
	if err != nil {
		return
	}
	committed := &diffSide{label: label, m: m, src: src}
	code := report(committed, &diffSide{label: "the ABI given now", m: res.Model, src: res.Source}, false, isTerminal(stdout), stdout, stderr)
	fmt.Fprintln(stdout)
	if code == exitDrift {
		fmt.Fprintln(stderr, "abigen: the ABI changed in ways that break users (see the report before the diff)")
	}
}
