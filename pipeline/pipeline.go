package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/gen"
	"github.com/antelopego/abigen/model"
)

// Stage is where a run failed.
type Stage int

// The stages of a run, in order.
const (
	// Fetching: the source could not give the ABI (a file that cannot be
	// read, a service that failed or refused the key, no such account).
	Fetching Stage = iota + 1
	// Checking: the job contradicts the ABI (Job.Account is not the
	// account the ABI names).
	Checking
	// Loading: the ABI cannot be read, or is invalid.
	Loading
	// Generating: the ABI is valid but cannot be turned into Go (a rename
	// clash, an invalid package name).
	Generating
	// Writing: reading or writing the output files failed.
	Writing
)

// Error is a failed run: where, and what went wrong. Its message is the
// CLI's, without the command's name in front.
type Error struct {
	Stage Stage // where the run failed
	Err   error // what went wrong
}

// Error returns the message of Err.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Job is one run: where the ABI comes from and what to make of it.
type Job struct {
	// Source is where the ABI comes from.
	Source fetch.Source
	// Account is the contract account, which generated code calls
	// DefaultAccount; "" takes the account the ABI's container names, if
	// any. It must match that account.
	Account string
	// Package is the Go package name.
	Package string
	// Renames override Go names (gen.Options.Renames).
	Renames map[string]string
	// OffChain says the ABI never goes on chain, as nodeos's state-history
	// ABI does not: its table names need not be names
	// (model.ResolveOptions).
	OffChain bool
	// Out is the output directory: Run writes there (or, with Check,
	// compares with the files there), and the header records a file
	// source's path relative to it, so the output is the same from any
	// working directory.
	Out string
	// Check makes Run write nothing: it compares the files with those in
	// Out, in Result.Drift.
	Check bool
	// Timeout bounds fetching, retries included (0: ctx alone).
	Timeout time.Duration
	// Slow, when set, is called once if fetching takes over a second (the
	// CLI prints a progress note); see fetch.Within.
	Slow func()
}

// Result is what a run made.
type Result struct {
	Source   *model.Source     // the ABI as loaded, with its account and block
	Model    *model.Model      // the ABI resolved
	Files    map[string][]byte // the generated files by name
	Warnings []string          // problems that do not stop generation, such as an off-chain table name
	Notes    []string          // names gen chose to avoid a clash
	// Drift lists, with Job.Check, the files whose content on disk is not
	// what the ABI generates, in name order; empty when Out is up to date.
	Drift []Drift
}

// Run fetches the ABI, loads and resolves it, generates the package and
// writes it to Out — or with Check compares it with the files there. A
// failure is an *Error; when writing or comparing fails, the result so far
// is returned with it.
func Run(ctx context.Context, job Job) (*Result, error) {
	fetched, err := fetch.Within(ctx, job.Source, job.Timeout, job.Slow)
	if err != nil {
		return nil, &Error{Fetching, err}
	}
	src, err := load(fetched.Source, fetched)
	if err != nil {
		return nil, err
	}
	if job.Account != "" {
		if src.Account != "" && src.Account != job.Account {
			return nil, &Error{Checking, fmt.Errorf("--account %s, but %s is the ABI of %s", job.Account, fetched.Source, src.Account)}
		}
		src.Account = job.Account
	}
	m, err := resolve(fetched.Source, src, model.ResolveOptions{OffChain: job.OffChain})
	if err != nil {
		return nil, err
	}
	recorded := fetched.Source
	if file, ok := job.Source.(fetch.FileSource); ok && file.Path != "-" {
		recorded = relativeTo(file.Path, job.Out)
	}
	out, err := gen.Generate(m, src, gen.Options{Package: job.Package, Renames: job.Renames, Source: recorded})
	if err != nil {
		return nil, &Error{Generating, err}
	}
	res := &Result{Source: src, Model: m, Files: out.Files, Warnings: m.Warnings, Notes: out.Notes}
	if job.Check {
		res.Drift, err = Check(job.Out, res.Files)
	} else {
		err = Write(job.Out, res.Files)
	}
	if err != nil {
		return res, &Error{Writing, err}
	}
	return res, nil
}

// Load reads a fetched ABI and resolves it. label names the ABI in errors
// (a file, a service, "the ABI given now"). A failure is an *Error of
// stage Loading: a JSON syntax error says file:line:column, as compilers
// and editors do; an invalid ABI lists every problem, one a line.
func Load(label string, f *fetch.Fetched) (*model.Source, *model.Model, error) {
	src, err := load(label, f)
	if err != nil {
		return nil, nil, err
	}
	m, err := resolve(label, src, model.ResolveOptions{})
	if err != nil {
		return nil, nil, err
	}
	return src, m, nil
}

func load(label string, f *fetch.Fetched) (*model.Source, error) {
	src, err := f.Load()
	var se *model.SyntaxError
	switch {
	case errors.As(err, &se):
		return nil, &Error{Loading, &labeled{fmt.Sprintf("%s:%d:%d: invalid JSON: %s", label, se.Line, se.Column, se.Msg), err}}
	case err != nil:
		return nil, &Error{Loading, fmt.Errorf("%s: %w", label, err)}
	}
	return src, nil
}

func resolve(label string, src *model.Source, opts model.ResolveOptions) (*model.Model, error) {
	m, err := model.ResolveWith(src.ABI, opts)
	if err != nil {
		return nil, &Error{Loading, &labeled{fmt.Sprintf("%s: invalid ABI:\n  %s", label, strings.ReplaceAll(err.Error(), "\n", "\n  ")), err}}
	}
	return m, nil
}

// labeled is an error said in other words, which still unwraps to it.
type labeled struct {
	msg string
	err error
}

func (e *labeled) Error() string { return e.msg }
func (e *labeled) Unwrap() error { return e.err }

// relativeTo is how the header records an ABI file: relative to the output
// directory, slash-separated, so that the same ABI and output give the
// same files from any working directory and on any machine (no absolute
// path). A path that cannot be made relative (another Windows volume) is
// recorded as its file name.
func relativeTo(abi, out string) string {
	absABI, err1 := filepath.Abs(abi)
	absOut, err2 := filepath.Abs(out)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absOut, absABI); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(abi)
}
