package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

const testKey = "server_abigen0123456789"

// The blocks of orng.wax's two ABI versions on the test chain: the real one
// was set at 9,135,393; an older, smaller one a few blocks before.
const (
	orngBlock = 9_135_393
	oldBlock  = 9_135_381
)

// fetchEnv starts a chain (its nodeos API, state service and token
// service) with orng.wax's history and sets the variables a user would
// set.
func fetchEnv(t *testing.T) *chaintest.Chain {
	node := chaintest.New(chaintest.WithAPIKey(testKey), chaintest.WithStartBlock(oldBlock-1))
	t.Cleanup(node.Close)
	// The exact bytes of the saved response's "abi", so that fetching gives
	// the same package as generating from the saved file.
	resp, err := os.ReadFile(orngState)
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ ABI json.RawMessage }
	if err := json.Unmarshal(resp, &r); err != nil {
		t.Fatal(err)
	}
	saved := []byte(r.ABI)
	orng := antelope.MustName("orng.wax")
	if err := node.SetContract(orng, []byte(`{"version":"eosio::abi/1.0","structs":[{"name":"old","base":"","fields":[]}]}`), nil); err != nil {
		t.Fatal(err)
	}
	node.ProduceBlocks(orngBlock - oldBlock - 1)
	if err := node.SetContract(orng, saved, nil); err != nil {
		t.Fatal(err)
	}
	if node.Head().Num != orngBlock {
		t.Fatalf("orng.wax's ABI went into block %d", node.Head().Num)
	}
	t.Setenv("ABIGEN_API_KEY", testKey)
	t.Setenv("ABIGEN_TOKEN_CACHE_DIR", t.TempDir())
	t.Setenv("ABIGEN_BASE_URL", "")
	t.Setenv("ABIGEN_AUTH_URL", "")
	t.Setenv("ABIGEN_CHAIN_URL", "")
	return node
}

// withoutSource drops the provenance line that names where the ABI came
// from, the one line that differs between a fetch and a saved file.
func withoutSource(b []byte) string {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "// source:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func TestFetchFromStateAPI(t *testing.T) {
	env := fetchEnv(t)
	dir := t.TempDir()
	args := []string{"--account", "orng.wax", "--base-url", env.URL(), "--auth-url", env.AuthURL(), "--pkg", "randcontract", "--out", dir}
	code, stdout, stderr := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The same package as from the saved response, but for the source line.
	for _, name := range []string{"abi.go", "actions.go", "doc.go", "tables.go", "types.go"} {
		got, _ := os.ReadFile(filepath.Join(dir, name))
		want, _ := os.ReadFile(filepath.Join("../../generated/randcontract", name))
		if withoutSource(got) != withoutSource(want) {
			t.Errorf("%s differs from generated/randcontract beyond the source line", name)
		}
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "doc.go"))
	if !strings.Contains(string(doc), "// source:    "+env.URL()+"/v0/state/abi?account=orng.wax&json=true") ||
		!strings.Contains(string(doc), "// block_num: 9135393") {
		t.Errorf("provenance:\n%s", doc[:500])
	}
	// A second run reuses the cached token.
	if code, _, stderr := runCLI(t, "", args...); code != 0 {
		t.Fatal(stderr)
	}
	if n := env.Stats().TokensIssued; n != 1 {
		t.Errorf("%d tokens issued for two runs", n)
	}
	// Nothing written or printed contains the key or a token (the token
	// cache is the one file allowed to).
	written := stdout + stderr
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			written += string(b)
		}
		return nil
	})
	if strings.Contains(written, testKey) || strings.Contains(written, "eyJ") {
		t.Error("the API key or a token appears in the output")
	}
}

func TestFetchOptionsAndFaults(t *testing.T) {
	env := fetchEnv(t)
	state := []string{"--base-url", env.URL(), "--auth-url", env.AuthURL(), "--pkg", "x", "--out", t.TempDir()}
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte(testKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	restoreKey := func() { t.Setenv("ABIGEN_API_KEY", testKey) }
	requestsBefore := 0
	for _, c := range []struct {
		name  string
		setup func()
		args  []string
		code  int
		msg   string
	}{
		{"older block", nil, append([]string{"--account", "orng.wax", "--block-num", strconv.Itoa(orngBlock - 5)}, state...), 0, ""},
		{"packed", nil, append([]string{"--account", "orng.wax", "--abi-encoding", "packed"}, state...), 0, ""},
		{"chain", nil, []string{"--account", "orng.wax", "--chain-url", env.URL(), "--pkg", "x", "--out", t.TempDir()}, 0, ""},
		{"chain raw", nil, []string{"--account", "orng.wax", "--chain-url", env.URL(), "--abi-encoding", "packed", "--pkg", "x", "--out", t.TempDir()}, 0, ""},
		{"env urls", func() { t.Setenv("ABIGEN_CHAIN_URL", env.URL()) }, []string{"--account", "orng.wax", "--pkg", "x", "--out", t.TempDir()}, 0, ""},
		{"unknown account", func() { t.Setenv("ABIGEN_CHAIN_URL", "") }, append([]string{"--account", "nosuch"}, state...), exitFetch, "account nosuch has no ABI at the head block"},
		{"wrong key", func() { t.Setenv("ABIGEN_API_KEY", "server_wrong") }, append([]string{"--account", "orng.wax", "--no-token-cache"}, state...), exitAuth, "refused the API key"},
		{"JWT as key", func() { t.Setenv("ABIGEN_API_KEY", "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.c2ln") }, append([]string{"--account", "orng.wax"}, state...), exitUsage, "looks like a JWT"},
		{"no key", func() { t.Setenv("ABIGEN_API_KEY", "") }, append([]string{"--account", "orng.wax"}, state...), exitUsage, "no API key"},
		{"key file", nil, append([]string{"--account", "orng.wax", "--api-key-file", keyFile}, state...), 0, ""},
		{"429 then ok", func() { restoreKey(); env.RateLimitNext(1, time.Second) }, append([]string{"--account", "orng.wax"}, state...), 0, ""},
		{"401 mid-run", func() { env.RejectNextTokens(1) }, append([]string{"--account", "orng.wax"}, state...), 0, ""},
		{"invalid account", func() { requestsBefore = env.Stats().Requests }, append([]string{"--account", "BAD"}, state...), exitUsage, `--account "BAD": character 'B' is not in`},
		{"no request for it", func() {
			if n := env.Stats().Requests; n != requestsBefore {
				t.Errorf("an invalid --account sent %d requests", n-requestsBefore)
			}
		}, []string{"--account", "a.b.c.d.e.f.g."}, exitUsage, "--account"},
		{"token refused twice", func() { env.RejectNextTokens(2) }, append([]string{"--account", "orng.wax"}, state...), exitAuth, "refused a freshly issued token"},
		{"block-num with chain", nil, []string{"--account", "orng.wax", "--chain-url", env.URL(), "--block-num", "5"}, exitUsage, "--block-num needs the state API"},
		{"both sources", nil, []string{"--account", "orng.wax", "--chain-url", env.URL(), "--base-url", env.URL()}, exitUsage, "choose one"},
		{"half a state API", nil, []string{"--account", "orng.wax", "--base-url", env.URL()}, exitUsage, "needs both --base-url"},
		{"no source", nil, []string{"--account", "orng.wax"}, exitUsage, "--account needs a source"},
		{"--abi with a URL", nil, []string{"--abi", orngState, "--chain-url", env.URL()}, exitUsage, "give one or the other"},
		{"bad encoding", nil, append([]string{"--account", "orng.wax", "--abi-encoding", "xml"}, state...), exitUsage, "use json or packed"},
		{"dead server", func() { env.FailNext(100, 503) }, []string{"--account", "orng.wax", "--chain-url", env.URL(), "--timeout", "2s", "--pkg", "x", "--out", t.TempDir()}, exitFetch, "HTTP 503"},
	} {
		if c.setup != nil {
			c.setup()
		}
		code, _, stderr := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want %d with %q", c.name, code, stderr, c.code, c.msg)
		}
		if strings.Contains(stderr, testKey) {
			t.Errorf("%s: the key leaked into stderr", c.name)
		}
	}
}

// A fetch slower than a second says so on stderr, once; --quiet hides it.
func TestProgressNote(t *testing.T) {
	env := fetchEnv(t)
	env.Delay(1200 * time.Millisecond)
	args := []string{"--account", "orng.wax", "--chain-url", env.URL(), "--pkg", "x", "--out", t.TempDir()}
	code, _, stderr := runCLI(t, "", args...)
	host := strings.TrimPrefix(env.URL(), "http://")
	if code != 0 || stderr != "abigen: fetching the ABI of orng.wax from "+host+"…\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr = runCLI(t, "", append(args, "--quiet")...); code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}
