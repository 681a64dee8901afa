package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

const diffCases = "../../abidiff/testdata/"

func TestDiffFiles(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "diff", diffCases+"field-removed/old.abi.json", diffCases+"field-removed/new.abi.json")
	if code != exitDrift || !strings.Contains(stdout, "BREAKS SENDERS") || !strings.Contains(stdout, "field memo: removed") || stderr != "" {
		t.Errorf("breaking: exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "\x1b[") {
		t.Error("colour in a report that is not on a terminal")
	}
	code, stdout, _ = runCLI(t, "", "diff", "--color", "always", diffCases+"extension-appended/old.abi.json", diffCases+"extension-appended/new.abi.json")
	if code != exitOK || !strings.Contains(stdout, "\x1b[32m") {
		t.Errorf("compatible, coloured: exit %d\n%q", code, stdout)
	}
	// A field retyped to an alias of its type is no change, Go included.
	code, stdout, _ = runCLI(t, "", "diff", diffCases+"alias-retyped/old.abi.json", diffCases+"alias-retyped/new.abi.json")
	if code != exitOK || strings.Contains(stdout, "BREAKS") {
		t.Errorf("retyped to an alias: exit %d\n%s", code, stdout)
	}
	// JSON for tools, and the old ABI from stdin.
	old, _ := os.ReadFile(diffCases + "type-changed/old.abi.json")
	code, stdout, _ = runCLI(t, string(old), "diff", "--json", "-", diffCases+"type-changed/new.abi.json")
	var rep struct {
		Old      string `json:"old"`
		Breaking bool   `json:"breaking"`
		Changes  []struct{ Kind, Where, What string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitDrift || !rep.Breaking || rep.Old != "(stdin)" || rep.Changes[0].Kind != "breaks stored data" {
		t.Errorf("JSON: exit %d, %v\n%s", code, err, stdout)
	}
	// Unreadable and invalid inputs, and usage errors.
	oldABI, newABI := diffCases+"type-changed/old.abi.json", diffCases+"type-changed/new.abi.json"
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"diff", "nosuch.json", diffCases + "type-changed/new.abi.json"}, exitIO, "nosuch.json"},
		{[]string{"diff", "../../testdata/abis/eosio.token.bad.abi.json", diffCases + "type-changed/new.abi.json"}, exitBadABI, "invalid ABI"},
		{[]string{"diff", diffCases + "type-changed/new.abi.json"}, exitUsage, "give two ABI files"},
		{[]string{"diff", "--history", diffCases + "type-changed/new.abi.json"}, exitUsage, "--history needs --account"},
		{[]string{"diff", "--color", "sometimes", "a", "b"}, exitUsage, "--color"},
		{[]string{"diff", "--account", "Not.Valid", "--chain-url", "http://127.0.0.1:1", "x"}, exitUsage, "character 'N'"},
		// Flags that only a fetch uses are refused with two files, not
		// ignored, as abigen --abi refuses them; and nodeos has no past ABI.
		{[]string{"diff", "--from-block", "5", oldABI, newABI}, exitUsage, "--from-block applies only"},
		{[]string{"diff", "--to-block", "5", oldABI, newABI}, exitUsage, "--to-block applies only"},
		{[]string{"diff", "--base-url", "http://127.0.0.1:1", oldABI, newABI}, exitUsage, "--base-url applies only"},
		{[]string{"diff", "--chain-url", "http://127.0.0.1:1", oldABI, newABI}, exitUsage, "--chain-url applies only"},
		{[]string{"diff", "--timeout", "30s", oldABI, newABI}, exitUsage, "--timeout applies only"},
		{[]string{"diff", "--api-key-file", "key.txt", oldABI, newABI}, exitUsage, "--api-key-file applies only"},
		{[]string{"diff", "--no-token-cache", oldABI, newABI}, exitUsage, "--no-token-cache applies only"},
		{[]string{"diff", "--account", "eosio", "--chain-url", "http://127.0.0.1:1", "--from-block", "5", newABI}, exitUsage, "nodeos serves only the current ABI"},
		{[]string{"diff", "--account", "eosio", "--base-url", "http://127.0.0.1:1", "--auth-url", "http://127.0.0.1:1", "--to-block", "5", newABI}, exitUsage, "--to-block chooses NEW"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d with %q", c.args, code, stderr, c.code, c.msg)
		}
	}
	if code, stdout, _ := runCLI(t, "", "diff", "--help"); code != 0 || !strings.Contains(stdout, "--history") || !strings.Contains(stdout, "Exit codes") {
		t.Errorf("--help: %d %s", code, stdout)
	}
}

// An account with three ABI versions in chaintest's state service: the
// default comparison is the current version against the one before,
// --from-block/--to-block choose, --history lists every step, and nodeos's
// current ABI can be compared with a file.
func TestDiffAccountHistory(t *testing.T) {
	node := chaintest.New(chaintest.WithAPIKey("test-key"))
	defer node.Close()
	acct := antelope.MustName("upgrader")
	var blocks []uint32
	for _, c := range []string{"field-appended-without-ext/old.abi.json", "extension-appended/new.abi.json", "field-appended-without-ext/new.abi.json"} {
		abi, err := os.ReadFile(diffCases + c)
		if err != nil {
			t.Fatal(err)
		}
		if err := node.SetContract(acct, abi, nil); err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, node.Head().Num)
		node.ProduceBlocks(3)
	}
	t.Setenv("ABIGEN_API_KEY", "test-key")
	t.Setenv("ABIGEN_TOKEN_CACHE_DIR", t.TempDir())
	state := []string{"--account", "upgrader", "--base-url", node.URL(), "--auth-url", node.AuthURL(), "-q"}
	code, stdout, stderr := runCLI(t, "", append([]string{"diff"}, state...)...)
	// current (v3: note without $) against v2 (note$): the extension made required.
	if code != exitDrift || !strings.Contains(stdout, "no longer a binary extension") {
		t.Errorf("default: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "", append([]string{"diff", "--from-block", itoa(blocks[0]), "--to-block", itoa(blocks[1])}, state...)...)
	if code != exitOK || !strings.Contains(stdout, "binary extension string$ appended") {
		t.Errorf("v1 → v2: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "", append([]string{"diff", "--history"}, state...)...)
	if code != exitDrift || !strings.Contains(stdout, "upgrader: 3 ABI versions, set at blocks "+itoa(blocks[0])+" "+itoa(blocks[1])+" "+itoa(blocks[2])) ||
		strings.Count(stdout, "abigen diff: ") != 2 {
		t.Errorf("--history: exit %d\n%s", code, stdout)
	}
	// --from-block bounds the history (it was ignored): from the version in
	// force there.
	code, stdout, _ = runCLI(t, "", append([]string{"diff", "--history", "--from-block", itoa(blocks[1] + 1)}, state...)...)
	if code != exitDrift || !strings.Contains(stdout, "upgrader: 2 ABI versions, set at blocks "+itoa(blocks[1])+" "+itoa(blocks[2])+"\n") {
		t.Errorf("--history --from-block: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runCLI(t, "", append([]string{"diff", "--history", "--from-block", itoa(blocks[2]), "--to-block", itoa(blocks[1])}, state...)...)
	if code != exitUsage || !strings.Contains(stderr, "backwards") {
		t.Errorf("--history with a backwards range: exit %d\n%s", code, stderr)
	}
	// --timeout 0 is no limit, as it is for generating (it timed out at once).
	code, stdout, stderr = runCLI(t, "", append([]string{"diff", "--history", "--timeout", "0"}, state...)...)
	if code != exitDrift || !strings.Contains(stdout, "upgrader: 3 ABI versions") {
		t.Errorf("--history --timeout 0: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "", append([]string{"diff", "--history", "--json"}, state...)...)
	var steps []struct{ Breaking bool }
	if err := json.Unmarshal([]byte(stdout), &steps); err != nil || code != exitDrift || len(steps) != 2 || steps[0].Breaking || !steps[1].Breaking {
		t.Errorf("--history --json: exit %d, %v\n%s", code, err, stdout)
	}
	// nodeos's current ABI against a file.
	code, stdout, _ = runCLI(t, "", "diff", "--account", "upgrader", "--chain-url", node.URL(), "-q", diffCases+"field-appended-without-ext/new.abi.json")
	if code != exitOK || !strings.Contains(stdout, "no change") {
		t.Errorf("nodeos vs the same file: exit %d\n%s", code, stdout)
	}
	// An account whose ABI was set once has no version before it: said so,
	// with the block, not as an ABI missing at the block before.
	once := antelope.MustName("setonce")
	abi, _ := os.ReadFile(diffCases + "extension-appended/new.abi.json")
	if err := node.SetContract(once, abi, nil); err != nil {
		t.Fatal(err)
	}
	setAt := node.Head().Num
	node.ProduceBlocks(2)
	code, _, stderr = runCLI(t, "", "diff", "--account", "setonce", "--base-url", node.URL(), "--auth-url", node.AuthURL(), "-q")
	if code != exitFetch || !strings.Contains(stderr, "setonce has no earlier ABI to compare with: its first was set at block "+itoa(setAt)) {
		t.Errorf("one version: exit %d %s", code, stderr)
	}
	code, stdout, _ = runCLI(t, "", "diff", "--account", "setonce", "--base-url", node.URL(), "--auth-url", node.AuthURL(), "-q", "--history")
	if code != exitOK || !strings.Contains(stdout, "setonce: 1 ABI version, set at block "+itoa(setAt)+"\n") {
		t.Errorf("--history of one version: exit %d\n%s", code, stdout)
	}
	// An account with no ABI.
	code, _, stderr = runCLI(t, "", "diff", "--account", "nobody", "--base-url", node.URL(), "--auth-url", node.AuthURL(), "-q")
	if code != exitFetch || !strings.Contains(stderr, "no ABI") {
		t.Errorf("no ABI: exit %d %s", code, stderr)
	}
}

// --check explains drift that comes from a changed ABI with the report.
func TestCheckReportsABIChange(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "pkg")
	if code, _, stderr := runCLI(t, "", "--abi", diffCases+"field-removed/old.abi.json", "--pkg", "pkg", "--out", out); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runCLI(t, "", "--abi", diffCases+"field-removed/new.abi.json", "--pkg", "pkg", "--out", out, "--check")
	if code != exitDrift || !strings.Contains(stdout, "BREAKS SENDERS") || !strings.Contains(stdout, "field memo: removed") ||
		!strings.Contains(stderr, "break users") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The report comes first: the Go diff of a real upgrade is thousands
	// of lines, and the report is what CI's reader needs.
	if r, d := strings.Index(stdout, "abigen diff:"), strings.Index(stdout, "\n--- "); r != 0 || d < 0 {
		t.Errorf("the report is not before the Go diff (report at %d, diff at %d):\n%s", r, d, stdout)
	}
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
