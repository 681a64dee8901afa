package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const orngState = "../../testdata/fetch-responses/dfuse/state-abi.orng.wax.json-true.json"

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// The README's first command (run from the repository root, into a
// directory two levels down) and the go:generate line of randcontract give
// the committed package byte for byte.
func TestGenerateMatchesCommittedRandcontract(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "--abi", orngState, "--pkg", "randcontract", "--out", "../../generated/randcontract", "--check")
	if code != exitOK {
		t.Fatalf("go:generate's command: exit %d: %s%s", code, stdout, stderr)
	}
	t.Chdir("../..")
	tmp, err := os.MkdirTemp(".", ".readme-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	out := filepath.Join(tmp, "randcontract")
	code, _, stderr = runCLI(t, "", "--abi", "testdata/fetch-responses/dfuse/state-abi.orng.wax.json-true.json", "--pkg", "randcontract", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"abi.go", "abi.json", "actions.go", "doc.go", "tables.go", "types.go"} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("generated/randcontract", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from generated/randcontract/%s", name, name)
		}
	}
}

// TestSourceIsRelativeToOut: the same ABI and output directory give the same
// files whichever directory abigen runs in and however the path is spelled,
// and no absolute path reaches a header.
func TestSourceIsRelativeToOut(t *testing.T) {
	abi, err := os.ReadFile("../../testdata/abis/eosio.token.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	pkgDir := filepath.Join(root, "token")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkgDir, "token.abi.json"), abi, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	if code, _, stderr := runCLI(t, "", "--abi", "token/token.abi.json", "--out", "./token"); code != exitOK {
		t.Fatal(stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(pkgDir, "doc.go"))
	if !strings.Contains(string(doc), "// source:    token.abi.json\n") {
		t.Errorf("header: %s", doc[:300])
	}
	t.Chdir(pkgDir)
	for _, args := range [][]string{
		{"--abi", "token.abi.json", "--out", "."},
		{"--abi", "./token.abi.json", "--out", "../token/"},
		{"--abi", filepath.Join(pkgDir, "token.abi.json"), "--out", pkgDir}, // absolute
	} {
		code, stdout, stderr := runCLI(t, "", append(args, "--pkg", "token", "--check")...)
		if code != exitOK {
			t.Errorf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	entries, _ := os.ReadDir(pkgDir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(pkgDir, e.Name()))
		if strings.Contains(string(b), root) || strings.Contains(string(b), filepath.ToSlash(root)) {
			t.Errorf("%s holds the machine path %s", e.Name(), root)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, "", "--abi", orngState, "--out", dir, "--pkg", "randcontract"); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runCLI(t, "", "--abi", orngState, "--out", dir, "--pkg", "randcontract", "--check")
	if code != exitOK || stdout != "" {
		t.Fatalf("fresh output: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	path := filepath.Join(dir, "tables.go")
	old, _ := os.ReadFile(path)
	edited := strings.Replace(string(old), `IndexType: "i64"`, `IndexType: "i128"`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI(t, "", "--abi", orngState, "--out", dir, "--pkg", "randcontract", "--check")
	if code != exitDrift || !strings.Contains(stdout, `-			IndexType: "i128",`) || !strings.Contains(stdout, `+			IndexType: "i64",`) ||
		!strings.Contains(stderr, "1 file(s)") || !strings.Contains(stderr, "tables.go") {
		t.Fatalf("edited file: exit %d\nstdout:\n%s\nstderr: %s", code, stdout, stderr)
	}
	if after, _ := os.ReadFile(path); string(after) != edited {
		t.Fatal("--check wrote a file")
	}
	// A directory that does not exist yet: everything differs, nothing is created.
	missing := filepath.Join(dir, "none")
	if code, _, _ = runCLI(t, "", "--abi", orngState, "--out", missing, "--pkg", "x", "--check"); code != exitDrift {
		t.Fatalf("missing dir: exit %d", code)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("--check created the directory")
	}
}

func TestErrorsAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"no --abi", "", []string{"--pkg", "x"}, exitUsage, "--abi FILE or --account NAME"},
		{"unknown flag", "", []string{"--abi", orngState, "--bogus"}, exitUsage, "unknown flag: --bogus"},
		{"stray argument", "", []string{"--abi", orngState, "extra"}, exitUsage, `unexpected argument "extra"`},
		{"one dash", "", []string{"-abi", orngState}, exitUsage, "flags take two dashes: --abi"},
		{"one dash, a shorthand first", "", []string{"--abi", orngState, "-quiet"}, exitUsage, "flags take two dashes: --quiet"},
		{"misspelt command", "", []string{"difff", "a.json", "b.json"}, exitUsage, `unknown command "difff": abigen's commands are diff and mirror`},
		{"bad rename syntax", "", []string{"--abi", orngState, "--rename", "x"}, exitUsage, "expected abi_name=GoName"},
		{"no package name", "", []string{"--abi", orngState, "--out", "/"}, exitUsage, "--pkg is required"},
		{"bad package name", "", []string{"--abi", orngState, "--pkg", "Rand", "--out", dir}, exitGenerate, `invalid package name "Rand"`},
		{"keyword package name", "", []string{"--abi", orngState, "--pkg", "type", "--out", dir}, exitGenerate, `invalid package name "type": a Go keyword`},
		{"keyword directory", "", []string{"--abi", orngState, "--out", filepath.Join(dir, "go")}, exitUsage,
			`--pkg is required: the directory's name gives "go", a Go keyword`},
		{"account mismatch", "", []string{"--abi", orngState, "--pkg", "x", "--out", dir, "--account", "eosio"}, exitUsage, "is the ABI of orng.wax"},
		{"missing file", "", []string{"--abi", "nosuch.json", "--pkg", "x", "--out", dir}, exitIO, "nosuch.json"},
		{"unknown type", "", []string{"--abi", "../../testdata/abis/eosio.token.bad.abi.json", "--pkg", "x", "--out", dir},
			exitBadABI, `tables[2] "global": unknown type "global"`},
		{"not an ABI", `{"code":401,"message":"token expired"}`, []string{"--abi", "-", "--pkg", "x", "--out", dir},
			exitBadABI, "an API error response, not an ABI: token expired"},
		{"garbage", "hello", []string{"--abi", "-", "--pkg", "x", "--out", dir}, exitBadABI, `(stdin): neither JSON nor a packed ABI: the input starts with "hello"`},
		{"html page", "<html><body>Bad Gateway</body></html>", []string{"--abi", "-", "--pkg", "x", "--out", dir}, exitBadABI, `neither JSON nor a packed ABI: the input starts with "<html><body>Bad Gateway<"…`},
		{"packed, broken", "\x0eeosio::abi/1.1\xff\xff", []string{"--abi", "-", "--pkg", "x", "--out", dir}, exitBadABI, "packed ABI (binary): "},
		{"JSON syntax", "{\n  \"version\": \"eosio::abi/1.1\",\n  v\n}", []string{"--abi", "-", "--pkg", "x", "--out", dir}, exitBadABI,
			"abigen: (stdin):3:3: invalid JSON: invalid character 'v' looking for beginning of object key string"},
		{"invalid account", "", []string{"--abi", orngState, "--account", "Not.Valid", "--pkg", "x", "--out", dir}, exitUsage,
			`--account "Not.Valid": character 'N' is not in .12345abcdefghijklmnopqrstuvwxyz`},
		{"account too long", "", []string{"--account", "abcdefghijklmn", "--chain-url", "http://127.0.0.1:1", "--pkg", "x", "--out", dir}, exitUsage,
			`--account "abcdefghijklmn": longer than 13 characters`},
		{"rename not exported", "", []string{"--abi", orngState, "--pkg", "x", "--out", dir, "--rename", "jobs_a=job"}, exitGenerate, "not an exported Go identifier"},
		{"--abi-encoding with a file", "", []string{"--abi", orngState, "--pkg", "x", "--out", dir, "--abi-encoding", "xml"}, exitUsage,
			"--abi-encoding applies only to fetching the ABI"},
		{"--block-num with a file", "", []string{"--abi", orngState, "--pkg", "x", "--out", dir, "--block-num", "5"}, exitUsage,
			"--block-num applies only to fetching the ABI"},
		{"--timeout with a file", "", []string{"--abi", orngState, "--pkg", "x", "--out", dir, "--timeout", "1s"}, exitUsage,
			"--timeout applies only to fetching the ABI"},
		{"--api-key-file with nodeos", "", []string{"--account", "eosio", "--chain-url", "http://127.0.0.1:1", "--pkg", "x", "--out", dir, "--api-key-file", "key.txt"}, exitUsage,
			"--api-key-file and --no-token-cache apply only to the state API"},
		{"--no-token-cache with nodeos", "", []string{"--account", "eosio", "--chain-url", "http://127.0.0.1:1", "--pkg", "x", "--out", dir, "--no-token-cache"}, exitUsage,
			"--api-key-file and --no-token-cache apply only to the state API"},
		{"package.json", `{"name":"my-dapp","version":"1.0.0","dependencies":{}}`, []string{"--abi", "-", "--pkg", "x", "--out", dir}, exitBadABI,
			`(stdin): the input is not an ABI: its "version" is "1.0.0"`},
		{"rename unknown", "", []string{"--abi", orngState, "--pkg", "x", "--out", dir, "--rename", "nosuch=X"}, exitGenerate, "the ABI has no"},
	} {
		code, _, stderr := runCLI(t, c.stdin, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d containing %q", c.name, code, stderr, c.code, c.msg)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") > 3 {
			t.Errorf("%s: error is not short: %q", c.name, stderr)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "--help")
	for _, want := range []string{"--abi", "--check", "--rename", "Exit codes", "Examples"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if code, stdout, _ := runCLI(t, "", "--version"); code != 0 || !strings.HasPrefix(stdout, "abigen ") {
		t.Errorf("--version: %d %q", code, stdout)
	}
}

// Every saved form of an ABI generates, and the account the response names
// becomes DefaultAccount.
func TestEverySavedForm(t *testing.T) {
	for _, c := range []struct{ file, account string }{
		{"dfuse/state-abi.orng.wax.json-true.json", "orng.wax"},
		{"dfuse/state-abi.eosio.test.json-false.json", "eosio.test"},
		{"nodeos/get_abi.eosio.token.json", "eosio.token"},
		{"nodeos/get_raw_abi.eosio.token.json", "eosio.token"},
		{"nodeos/get_abi.corecorecore.json", "corecorecore"},
		{"nodeos/get_raw_abi.corecorecore.json", "corecorecore"},
		{"nodeos/get_abi.eosio.json", "eosio"},
	} {
		dir := t.TempDir()
		code, _, stderr := runCLI(t, "", "--abi", "../../testdata/fetch-responses/"+c.file, "--pkg", "x", "--out", dir)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", c.file, code, stderr)
			continue
		}
		actions, _ := os.ReadFile(filepath.Join(dir, "actions.go"))
		if !strings.Contains(string(actions), "DefaultAccount is the account the ABI was read from, "+c.account+".") {
			t.Errorf("%s: DefaultAccount is not %s", c.file, c.account)
		}
	}
	// stdin, and --account for a plain ABI.
	abi, _ := os.ReadFile("../../testdata/abis/eosio.token.abi.json")
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, string(abi), "--abi", "-", "--account", "eosio.token", "--out", dir, "--pkg", "token"); code != 0 {
		t.Fatal(stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "doc.go"))
	if !strings.Contains(string(doc), "source:    (stdin)") || !strings.Contains(string(doc), "account:   eosio.token") {
		t.Errorf("header: %s", doc[:400])
	}
}

// Renamed clashes and off-chain table names are reported; --quiet hides it.
func TestNotesAndQuiet(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "", "--abi", "../../golden/hazardcollisions/input.abi.json", "--pkg", "x", "--out", dir)
	if code != 0 || !strings.Contains(stderr, `abigen: note: struct "foo.bar" is named FooBar_: FooBar is taken by struct "foo_bar" (use --rename to choose a name)`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "--abi", "../../testdata/abieos-abis/state_history_plugin.abi.json", "--pkg", "x", "--out", dir)
	if code != 0 || !strings.Contains(stderr, `abigen: warning: tables[1] "account_metadata": not a valid name`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "", "--abi", "../../golden/hazardcollisions/input.abi.json", "--pkg", "x", "--out", dir, "-q"); code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}
