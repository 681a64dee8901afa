package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// syncBuffer is stdout written by run and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serve runs the command until the test ends (its context canceled, as
// Ctrl-C cancels main's) and returns its printed lines once it is ready,
// and a function that stops it and returns its exit code and output.
func serve(t *testing.T, args ...string) (lines map[string]string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"--addr", "127.0.0.1:0", "--auth-addr", "127.0.0.1:0"}, args...), out, errOut)
	}()
	for !strings.Contains(out.String(), "ready") {
		select {
		case code := <-done:
			cancel()
			t.Fatalf("exited %d before ready: %s%s", code, out, errOut)
		case <-time.After(10 * time.Millisecond):
		}
	}
	lines = map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ": "); ok {
			lines[k] = v
		}
	}
	var once sync.Once
	code := 0
	stop = func() (int, string) {
		once.Do(func() {
			cancel()
			code = <-done
		})
		return code, out.String() + errOut.String()
	}
	t.Cleanup(func() { stop() })
	return lines, stop
}

func TestServesAForkToPlainHTTPAndSHiP(t *testing.T) {
	// The live chain: eosio.token (real wasm) with a balance.
	live := chaintest.New()
	defer live.Close()
	tok, alice, bob := antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("bob")
	tokKey, aliceKey := live.NewAccount(tok), live.NewAccount(alice)
	live.NewAccount(bob)
	wasm, err := os.ReadFile(filepath.Join("..", "..", "chain", "chaintest", "testdata", "wasm", "eosio.token.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	abi, err := os.ReadFile(filepath.Join("..", "..", "chain", "chaintest", "testdata", "wasm", "eosio.token.abi"))
	if err != nil {
		t.Fatal(err)
	}
	if err := live.DeployWASM(tok, wasm, abi); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	token := eosiotoken.Contract{Account: tok}
	send := func(c *chain.Client, key antelope.PrivateKey) func(antelope.Action, error) {
		return func(a antelope.Action, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Transact(ctx, key, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	lc := live.Client()
	send(lc, tokKey)(token.Create(eosiotoken.Create{Issuer: alice, MaximumSupply: antelope.MustAsset("1000.0000 TOK")}, antelope.Active(tok)))
	send(lc, aliceKey)(token.Issue(eosiotoken.Issue{To: alice, Quantity: antelope.MustAsset("100.0000 TOK")}, antelope.Active(alice)))

	keys := filepath.Join(t.TempDir(), "keys.txt")
	lines, stop := serve(t, "--fork-url", live.URL(), "--account", "alice", "--account", "carol", "--keys-file", keys)
	url := lines["chain API and state service"]
	if url == "" || lines["state history"] == "" || lines["account alice"] == "" {
		t.Fatalf("printed %v", lines)
	}
	// Private keys are in the file, not in the output.
	data, err := os.ReadFile(keys)
	if err != nil {
		t.Fatal(err)
	}
	signers := map[string]antelope.PrivateKey{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(l)
		k, err := antelope.ParsePrivateKey(f[2])
		if err != nil {
			t.Fatal(err)
		}
		signers[f[0]] = k
		if strings.Contains(strings.Join(mapValues(lines), " "), f[2]) {
			t.Fatal("a private key was printed")
		}
	}

	// A plain HTTP client reads alice's forked balance.
	resp, err := http.Post(url+"/v1/chain/get_currency_balance", "application/json",
		strings.NewReader(`{"code":"eosio.token","account":"alice","symbol":"TOK"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var balances []string
	if err := json.Unmarshal(body, &balances); err != nil || len(balances) != 1 || balances[0] != "100.0000 TOK" {
		t.Fatalf("get_currency_balance: %s", body)
	}
	// alice, forked with a new key, transfers on the fork.
	fc := chain.New(url)
	res, err := func() (*chain.TransactResult, error) {
		a, err := token.Transfer(eosiotoken.Transfer{From: alice, To: antelope.MustName("carol"), Quantity: antelope.MustAsset("1.0000 TOK")}, antelope.Active(alice))
		if err != nil {
			return nil, err
		}
		return fc.Transact(ctx, signers["alice"], a)
	}()
	if err != nil {
		t.Fatal(err)
	}
	// A SHiP reader sees it.
	found := false
	for ev, err := range ship.NewClient(lines["state history"]).Stream(ctx, ship.Request{Start: res.BlockNum, End: res.BlockNum + 1}) {
		if err != nil {
			t.Fatal(err)
		}
		for tr, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer) {
			if err != nil {
				t.Fatal(err)
			}
			found = found || tr.Data.To == antelope.MustName("carol")
		}
	}
	if !found {
		t.Fatal("the SHiP reader did not see the transfer")
	}
	// The live chain has neither the transfer nor carol.
	if _, err := lc.GetAccount(ctx, antelope.MustName("carol")); err == nil {
		t.Fatal("the fork's account reached the live chain")
	}
	if code, out := stop(); code != 0 || !strings.Contains(out, "stopping") {
		t.Fatalf("stopped with %d: %s", code, out)
	}
	// Stopped: the address no longer answers.
	if _, err := http.Post(url+"/v1/chain/get_info", "application/json", nil); err == nil {
		t.Fatal("the chain still answers after it stopped")
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestFlagsRefuseAccountsWithoutKeysFile(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"--account", "alice"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--keys-file") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}

func TestServesAPastBlockForkThenReplaysItOffline(t *testing.T) {
	live := chaintest.New(chaintest.WithAPIKey("k-test"))
	defer live.Close()
	tok := antelope.MustName("eosio.token")
	live.NewAccount(antelope.MustName("alice"))
	if err := live.DeployToken(tok); err != nil {
		t.Fatal(err)
	}
	before := live.Produce().Num // the fork block: alice exists, nothing after it is seen
	live.Produce()
	live.NewAccount(antelope.MustName("bob")) // created at the head's time, after the fork block's

	t.Setenv("CHAINTEST_TEST_KEY", "k-test")
	cache := t.TempDir()
	args := []string{"--fork-url", live.URL(), "--state-url", live.URL(), "--auth-url", live.AuthURL(), "--api-key-env", "CHAINTEST_TEST_KEY",
		"--block", strconv.FormatUint(uint64(before), 10), "--cache", cache}
	get := func(url, account string) int {
		resp, err := http.Post(url+"/v1/chain/get_account", "application/json", strings.NewReader(`{"account_name":"`+account+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, offline := range []bool{false, true} {
		a := args
		if offline {
			a = append(append([]string{}, args...), "--offline")
		}
		lines, stop := serve(t, a...)
		if lines["fork block"] != strconv.FormatUint(uint64(before), 10) {
			t.Fatalf("offline %v: printed %v, want fork block %d", offline, lines, before)
		}
		url := lines["chain API and state service"]
		if get(url, "alice") != 200 || get(url, "bob") == 200 {
			t.Fatalf("offline %v: alice must exist at block %d and bob, made after it, not: %d %d", offline, before, get(url, "alice"), get(url, "bob"))
		}
		if code, out := stop(); code != 0 {
			t.Fatalf("offline %v: exit %d: %s", offline, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "fork.json")); err != nil {
		t.Fatal(err)
	}
}

// --hyperion-addr serves the chain's own Hyperion v2 API, so that a history
// reader (examples/transferlog, any language) runs against it offline.
func TestServesHyperion(t *testing.T) {
	lines, _ := serve(t, "--hyperion-addr", "127.0.0.1:0")
	url := lines["hyperion"]
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("no hyperion address printed: %q", lines)
	}
	resp, err := http.Get(url + "/v2/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var health struct {
		Health []struct{ Service string } `json:"health"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&health); resp.StatusCode != http.StatusOK || err != nil || len(health.Health) == 0 {
		t.Fatalf("/v2/health: %s, %v, %+v", resp.Status, err, health)
	}
}

// A port already taken is reported with the flag that chose it.
func TestBusyAddressNamesItsFlag(t *testing.T) {
	for _, flag := range []string{"--addr", "--auth-addr", "--hyperion-addr"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"--addr", "127.0.0.1:0", "--auth-addr", "127.0.0.1:0", flag, ln.Addr().String()}
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, &out, &errOut)
		ln.Close()
		if code != 1 || !strings.Contains(errOut.String(), flag+" "+ln.Addr().String()) {
			t.Errorf("%s taken: exit %d: %s", flag, code, errOut.String())
		}
	}
}

// --help says what the command is and where its guide is, then the flags.
func TestHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, &out, &errOut); code != 0 ||
		!strings.Contains(errOut.String(), "docs/fork.md") || !strings.Contains(errOut.String(), "--hyperion-addr") {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
}
