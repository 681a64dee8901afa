package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/gen"
	"github.com/antelopego/abigen/model"
	"github.com/spf13/pflag"
)

// Exit codes, documented in --help and the README.
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
  3  the ABI cannot be read or is invalid
  4  the ABI cannot be turned into Go (a --rename clash)
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

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "diff" {
		return runDiff(args[1:], stdin, stdout, stderr)
	}
	var o options
	fl := pflag.NewFlagSet("abigen", pflag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.StringVar(&o.abi, "abi", "", "the ABI `file`, in any of the forms above; - for stdin")
	fl.StringVar(&o.account, "account", "", "the contract `account`: the one to fetch, and Default's account; must match --abi's file when it names one")
	fl.StringVar(&o.fetch.baseURL, "base-url", "", "state service `URL` (or ABIGEN_BASE_URL): fetch --account's ABI through the state API")
	fl.StringVar(&o.fetch.authURL, "auth-url", "", "token service `URL` (or ABIGEN_AUTH_URL) issuing the state API's tokens;\nthe API key comes from ABIGEN_API_KEY or --api-key-file")
	fl.StringVar(&o.fetch.chainURL, "chain-url", "", "nodeos chain API `URL` (or ABIGEN_CHAIN_URL): fetch --account's current ABI with get_abi")
	fl.Uint64Var(&o.fetch.blockNum, "block-num", 0, "state API: the ABI as it was at this `block` (default: the head block)")
	fl.StringVar(&o.fetch.apiKeyFile, "api-key-file", "", "read the state API key from this `file` instead of ABIGEN_API_KEY")
	fl.DurationVar(&o.fetch.timeout, "timeout", 30*time.Second, "give up fetching after this `duration`, retries included")
	fl.BoolVar(&o.fetch.noTokenCache, "no-token-cache", false, "issue a new token instead of reusing the cached one (cache: ABIGEN_TOKEN_CACHE_DIR,\nor abigen/tokens in the user cache directory)")
	fl.StringVar(&o.fetch.encoding, "abi-encoding", "json", "ask the service for the ABI as `json` or packed (the exact bytes on chain:\nstate API json=false, nodeos get_raw_abi)")
	fl.StringVar(&o.pkg, "pkg", "", "Go package `name` (default: the --out directory's name)")
	fl.StringVar(&o.out, "out", ".", "output `dir`ectory; created if missing")
	fl.StringArrayVar(&o.renames, "rename", nil, "override a Go name (repeatable): `old=New`, where old is abi_name for a type,\nstruct.field for a field, action:name for a Contract method, table:name for a table variable")
	fl.BoolVar(&o.check, "check", false, "write nothing: compare with the files in --out, print a unified diff, exit 1 if they differ")
	fl.BoolVar(&o.offChain, "off-chain", false, "the ABI is never deployed on chain (nodeos's state-history ABI): table names need not be names")
	fl.BoolVarP(&o.quiet, "quiet", "q", false, "do not print notes (such as names changed to avoid a clash)")
	fl.BoolVar(&o.version, "version", false, "print the version and exit")
	help := fl.BoolP("help", "h", false, "show this help")
	usage := func(w io.Writer) {
		fmt.Fprint(w, usageText)
		fmt.Fprint(w, fl.FlagUsages())
		fmt.Fprint(w, exitText)
	}
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(stderr, "abigen: %v\nRun abigen --help for usage.\n", err)
		return exitUsage
	}
	switch {
	case *help:
		usage(stdout)
		return exitOK
	case o.version:
		fmt.Fprintln(stdout, "abigen", version())
		return exitOK
	case fl.NArg() > 0:
		fmt.Fprintf(stderr, "abigen: unexpected argument %q: the ABI is given with --abi\n", fl.Arg(0))
		return exitUsage
	case o.abi == "" && o.account == "":
		fmt.Fprintln(stderr, "abigen: --abi FILE or --account NAME (with a service to fetch from) is required\nRun abigen --help for usage.")
		return exitUsage
	case o.abi != "" && (o.fetch.baseURL != "" || o.fetch.authURL != "" || o.fetch.chainURL != ""):
		fmt.Fprintln(stderr, "abigen: --abi reads a file; --base-url, --auth-url and --chain-url fetch one: give one or the other")
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

	var source fetch.Source
	note := ""
	if o.abi != "" {
		source = fetch.FileSource{Path: o.abi, Stdin: stdin}
	} else {
		o.fetch.fromEnv()
		var host string
		if source, host, err = networkSource(o.account, o.fetch); err != nil {
			fmt.Fprintf(stderr, "abigen: %v\n", err)
			return fetchExitCode(err)
		}
		note = "the ABI of " + o.account + " from " + host
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fetched, err := fetchWithNote(ctx, source, note, o.fetch.timeout, o.quiet || note == "", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "abigen: %v\n", err)
		if o.abi != "" {
			return exitIO
		}
		return fetchExitCode(err)
	}
	data, from := fetched.Body, fetched.Source
	src, err := model.Load(data)
	if err != nil {
		var se *model.SyntaxError
		if errors.As(err, &se) {
			// file:line:column, as compilers and editors read it.
			fmt.Fprintf(stderr, "abigen: %s:%d:%d: invalid JSON: %s\n", from, se.Line, se.Column, se.Msg)
		} else {
			fmt.Fprintf(stderr, "abigen: %s: %v\n", from, err)
		}
		return exitBadABI
	}
	if o.account != "" {
		if src.Account != "" && src.Account != o.account {
			fmt.Fprintf(stderr, "abigen: --account %s, but %s is the ABI of %s\n", o.account, from, src.Account)
			return exitUsage
		}
		src.Account = o.account
	}
	m, err := model.ResolveWith(src.ABI, model.ResolveOptions{OffChain: o.offChain})
	if err != nil {
		fmt.Fprintf(stderr, "abigen: %s: invalid ABI:\n  %s\n", from, strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return exitBadABI
	}
	recorded := from
	if o.abi != "" && o.abi != "-" {
		recorded = recordedSource(o.abi, o.out)
	}
	res, err := gen.Generate(m, src, gen.Options{Package: o.pkg, Renames: renames, Source: recorded})
	if err != nil {
		fmt.Fprintf(stderr, "abigen: %v\n", err)
		return exitGenerate
	}
	if !o.quiet {
		for _, w := range m.Warnings {
			fmt.Fprintf(stderr, "abigen: warning: %s\n", w)
		}
		for _, n := range res.Notes {
			fmt.Fprintf(stderr, "abigen: note: %s\n", n)
		}
	}
	if o.check {
		code := check(o.out, res.Files, stdout, stderr)
		if code == exitDrift {
			abiDrift(o.out, src, m, stdout, stderr)
		}
		return code
	}
	if err := writeFiles(o.out, res.Files); err != nil {
		fmt.Fprintf(stderr, "abigen: %v\n", err)
		return exitIO
	}
	return exitOK
}

// version is the module version go install recorded, or "devel" for a
// build from a checkout (which reports "(devel)") or without build info.
func version() string {
	return versionOf(debug.ReadBuildInfo())
}

func versionOf(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12]
			for _, m := range bi.Settings {
				if m.Key == "vcs.modified" && m.Value == "true" {
					v += ", modified"
				}
			}
			v += ")"
		}
	}
	return v
}

// recordedSource is how the header records an --abi file: relative to the
// output directory, slash-separated, so that the same ABI and output give
// the same files from any working directory and on any machine (no absolute
// path). A path that cannot be made relative (another Windows volume) is
// recorded as its file name.
func recordedSource(abi, out string) string {
	absABI, err1 := filepath.Abs(abi)
	absOut, err2 := filepath.Abs(out)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absOut, absABI); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(abi)
}

// parseAccount checks an account name as the chain would, with the reason
// (not the repeated input) as the error.
func parseAccount(s string) (antelope.Name, error) {
	n, err := antelope.ParseName(s)
	var ve *antelope.ValueError
	if errors.As(err, &ve) {
		return 0, errors.New(ve.Msg)
	}
	return n, err
}

func parseRenames(list []string) (map[string]string, error) {
	m := map[string]string{}
	for _, r := range list {
		k, v, ok := strings.Cut(r, "=")
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("--rename %q: expected abi_name=GoName", r)
		}
		if prev, dup := m[k]; dup && prev != v {
			return nil, fmt.Errorf("--rename %s given twice (%s and %s)", k, prev, v)
		}
		m[k] = v
	}
	return m, nil
}

// packageFromDir derives a package name from the output directory's name.
func packageFromDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	base := strings.ToLower(filepath.Base(abs))
	var b strings.Builder
	for _, r := range base {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return "", fmt.Errorf("--pkg is required: no package name can be derived from the directory %q", dir)
	}
	return name, nil
}

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// writeFiles writes each file atomically (a temporary file renamed over the
// old one), so an interrupted run never leaves a half-written file.
func writeFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue // unchanged: keep the file's time stamp
		}
		tmp, err := os.CreateTemp(dir, "."+name+".*.tmp")
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		_, werr := tmp.Write(files[name])
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}

// check compares files with the directory and prints a diff per difference.
func check(dir string, files map[string][]byte, stdout, stderr io.Writer) int {
	var differ []string
	for _, name := range sortedNames(files) {
		path := filepath.Join(dir, name)
		old, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "abigen: %v\n", err)
			return exitIO
		}
		if d := unifiedDiff(filepath.ToSlash(path), filepath.ToSlash(path)+" (generated)", string(old), string(files[name])); d != "" {
			fmt.Fprint(stdout, d)
			differ = append(differ, name)
		}
	}
	if len(differ) > 0 {
		fmt.Fprintf(stderr, "abigen: %d file(s) in %s differ from what the ABI generates (%s); run abigen without --check to update them\n",
			len(differ), dir, strings.Join(differ, ", "))
		return exitDrift
	}
	return exitOK
}

// abiDrift explains drift that comes from the ABI: when the ABI embedded
// in the committed package (abi.json) is not the one given now, it prints
// abigen diff's report of the change, so CI says what changed, not only a
// diff of Go.
func abiDrift(dir string, src *model.Source, m *model.Model, stdout, stderr io.Writer) {
	old, err := os.ReadFile(filepath.Join(dir, "abi.json"))
	if err != nil || bytes.Equal(bytes.TrimSpace(old), bytes.TrimSpace(src.JSON)) {
		return // no committed ABI, or the same ABI: the generator changed
	}
	side, err := loadSide(filepath.ToSlash(filepath.Join(dir, "abi.json")), old)
	if err != nil {
		return
	}
	fmt.Fprintln(stdout)
	if code := report(side, &diffSide{label: "the ABI given now", m: m, src: src}, false, isTerminal(stdout), stdout, stderr); code == exitDrift {
		fmt.Fprintln(stderr, "abigen: the ABI changed in ways that break users (see the report above)")
	}
}
