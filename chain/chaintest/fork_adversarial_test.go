package chaintest_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// Adversarial tests of a fork: what the live chain answers that a fork
// must not take silently.

// A contract whose code was cleared (setcode with no code) after the fork
// block had code at it: the fork must not run it as an account with no
// code — its actions would then succeed doing nothing.
func TestForkRefusesCodeClearedAfterForkBlock(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("gone", "alice", "bob")
	w.deploy("gone", "eosio.token")
	l := &liveChain{wasmTester: w}
	if _, err := pushToken(w, "gone", "gone", "create", eosiotoken.Create{Issuer: antelope.MustName("alice"), MaximumSupply: asset(t, "1000.0000 TOK")}); err != nil {
		t.Fatal(err)
	}
	l.forkBlock = w.c.Produce().Num
	w.c.Produce()
	if err := w.c.DeployWASM(antelope.MustName("gone"), nil, nil); err != nil {
		t.Fatal(err)
	}
	past := l.forkOf(t, l.stateFork(t, ""))
	_, err := pushToken(past, "gone", "alice", "issue", eosiotoken.Issue{To: antelope.MustName("alice"), Quantity: asset(t, "1.0000 TOK"), Memo: "m"})
	wantForkError(t, err, "the code of gone was set at")
	if n := past.c.NewerCode(); len(n) != 1 || n[0].Account != antelope.MustName("gone") {
		t.Fatalf("NewerCode() = %+v", n)
	}
}

// hookTransport calls hook with each request's path and body before
// sending it: the live chain moving while a fork reads it.
type hookTransport struct {
	base http.RoundTripper
	hook func(path string, body []byte)
}

func (h hookTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.hook(r.URL.Path, body)
	}
	return h.base.RoundTrip(r)
}

// A row erased on the live chain between the page that names its key
// (next_key) and the request for the row: nodeos then answers the row
// after it, which the fork must not install under the erased row's key.
func TestForkFromNodeosRefusesRowThatVanishedWhileRead(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("eosio.token", "alice", "bob")
	w.deploy("eosio.token", "eosio.token")
	l := &liveChain{wasmTester: w}
	alice := antelope.MustName("alice")
	for _, s := range []string{"TOK", "XYZ"} {
		l.mustToken("eosio.token", "create", eosiotoken.Create{Issuer: alice, MaximumSupply: asset(t, "1000.0000 "+s)})
		l.mustToken("alice", "issue", eosiotoken.Issue{To: alice, Quantity: asset(t, "10.0000 "+s), Memo: "m"})
	}
	// alice's TOK balance (the lower key of her two) is zero: she may close it.
	l.mustToken("alice", "transfer", transfer(t, "alice", "bob", "10.0000 TOK"))
	closeTOK, err := eosiotoken.Contract{Account: eosioToken}.Close(eosiotoken.Close{Owner: alice, Symbol: symbolOf(t, "4,TOK")}, antelope.Active(alice))
	if err != nil {
		t.Fatal(err)
	}
	f := l.nodeosFork(t, "")
	var closed bool
	f.HTTP = &http.Client{Transport: hookTransport{base: l.c.HTTPClient().Transport, hook: func(path string, body []byte) {
		var q struct {
			Scope string `json:"scope"`
			Table string `json:"table"`
			Limit int    `json:"limit"`
		}
		if closed || !strings.HasSuffix(path, "/get_table_rows") || json.Unmarshal(body, &q) != nil {
			return
		}
		if q.Table == "accounts" && q.Scope == fmt.Sprint(uint64(alice)) && q.Limit == 1 {
			closed = true
			w.mustPush(closeTOK)
		}
	}}}
	fk := l.forkOf(t, f)
	_, err = pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "bob", "1.0000 XYZ"))
	if !closed {
		t.Fatal("the fork never read alice's balances row by row")
	}
	if err != nil && !strings.Contains(err.Error(), "chaintest_fork_exception") {
		t.Fatalf("the fork read alice's balances wrong: %v", err)
	}
	// Asked again, the fork reads the live chain as it now is.
	if _, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "bob", "1.0000 XYZ")); err != nil {
		t.Fatal(err)
	}
}

// rewriteTransport lets rewrite change each request before it is sent.
type rewriteTransport struct {
	base    http.RoundTripper
	rewrite func(r *http.Request)
}

func (rt rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	rt.rewrite(r)
	return rt.base.RoundTrip(r)
}

// A state service that answers a table at another block than the fork's
// (here: one that ignores block_num and answers at its head, saying so in
// up_to_block_num) must not fill the fork with rows of that block.
func TestForkRefusesStateTableOfAnotherBlock(t *testing.T) {
	l := newLiveChain(t)
	f := l.stateFork(t, "")
	f.HTTP = &http.Client{Transport: rewriteTransport{base: l.c.HTTPClient().Transport, rewrite: func(r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/v0/state/table") {
			q := r.URL.Query()
			q.Del("block_num")
			r.URL.RawQuery = q.Encode()
		}
	}}}
	fk := l.forkOf(t, f)
	want, err := l.c.State().At(l.forkBlock).Table(t.Context(), eosioToken, antelope.MustName("alice"), antelope.MustName("accounts"))
	if err != nil {
		t.Fatal(err)
	}
	q := antelope.TableQuery{Code: eosioToken, Scope: antelope.MustName("alice"), Table: antelope.MustName("accounts")}
	page, err := fk.cl.GetTableRows(t.Context(), q, 10)
	if err != nil {
		// The state client refuses it first (state.At checks the block an
		// answer is as of); the fork's own check stands behind it.
		wantForkError(t, err, "the answer is as of block")
		return
	}
	if len(page.Rows) != len(want.Rows) || !bytes.Equal(page.Rows[0].Data, want.Rows[0].Data) {
		t.Fatalf("the fork at block %d has alice's balances %x, the live chain had %x at that block", l.forkBlock, page.Rows, want.Rows)
	}
}

// answerTransport lets edit change the body of each answer to path.
type answerTransport struct {
	base http.RoundTripper
	path string
	edit func(body []byte) []byte
}

func (at answerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := at.base.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.URL.Path, at.path) {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	body = at.edit(body)
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// A node that ignores show_payer answers rows as bare hex: the fork must
// not install them paid by no one.
func TestForkFromNodeosRefusesRowsWithoutPayer(t *testing.T) {
	l := newLiveChain(t)
	f := l.nodeosFork(t, "")
	f.HTTP = &http.Client{Transport: answerTransport{base: l.c.HTTPClient().Transport, path: "/get_table_rows", edit: func(body []byte) []byte {
		var page map[string]any
		if json.Unmarshal(body, &page) != nil {
			return body
		}
		rows, _ := page["rows"].([]any)
		for i, r := range rows {
			if m, ok := r.(map[string]any); ok {
				rows[i] = m["data"]
			}
		}
		out, _ := json.Marshal(page)
		return out
	}}}
	fk := l.forkOf(t, f)
	q := antelope.TableQuery{Code: eosioToken, Scope: antelope.MustName("alice"), Table: antelope.MustName("accounts")}
	page, err := fk.cl.GetTableRows(t.Context(), q, 10)
	if err != nil {
		wantForkError(t, err, "payer")
		return
	}
	for _, r := range page.Rows {
		if r.Payer != antelope.MustName("alice") {
			t.Fatalf("alice's balance on the fork is paid by %q, on the live chain by alice", r.Payer)
		}
	}
}

// get_account answering another account than the one asked for (a broken
// proxy, a tampered cache) must not become the account asked for.
func TestForkRefusesAccountAnswerOfAnotherAccount(t *testing.T) {
	l := newLiveChain(t)
	f := l.nodeosFork(t, "")
	f.HTTP = &http.Client{Transport: answerTransport{base: l.c.HTTPClient().Transport, path: "/get_account", edit: func(body []byte) []byte {
		return bytes.ReplaceAll(body, []byte(`"account_name":"carol"`), []byte(`"account_name":"bob"`))
	}}}
	fk := l.forkOf(t, f)
	raw, err := fk.cl.GetAccount(t.Context(), antelope.MustName("carol"))
	if err != nil {
		wantForkError(t, err, "account carol", "answered account bob")
		return
	}
	if raw.AccountName != antelope.MustName("carol") {
		t.Fatalf("get_account carol on the fork answers account %s", raw.AccountName)
	}
}

// An index whose keys are not the field key_names names, though in the
// same order (a contract's key extractor computing from the field): the
// order check cannot see it, but a read by key gives other rows than on
// the live chain. The fork must check the keys themselves, or refuse.
func TestForkChecksRebuiltIndexKeysNotOnlyTheirOrder(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("kv")
	kv := antelope.MustName("kv")
	if err := w.c.DeployWASM(kv, contractFile(t, "test_api_multi_index", "wasm"), multiIndexABI(t, true)); err != nil {
		t.Fatal(err)
	}
	table := antelope.MustName("indextable1")
	for _, r := range []struct{ id, sec, key uint64 }{{1, 10, 20}, {2, 30, 40}, {3, 50, 60}} {
		data := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, r.id), r.sec)
		w.c.SetTableRow(kv, kv, table, r.id, data, kv, antelope.KeyUint64(r.key))
	}
	w.c.Produce()
	l := &liveChain{wasmTester: w, forkBlock: w.c.Head().Num}
	fk := l.forkOf(t, l.nodeosFork(t, ""))
	for _, key := range []uint64{10, 20, 40, 50} {
		q := antelope.TableQuery{Code: kv, Scope: kv, Table: table, Index: 2, Lower: antelope.KeyUint64(key), Upper: antelope.KeyUint64(key)}
		want, err := w.cl.GetTableRows(t.Context(), q, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fk.cl.GetTableRows(t.Context(), q, 10)
		if err != nil {
			wantForkError(t, err, "secondary index 1")
			continue
		}
		if fmt.Sprint(got.Rows) != fmt.Sprint(want.Rows) {
			t.Fatalf("the rows of key %d by index 2: the fork has %x, the live chain %x", key, got.Rows, want.Rows)
		}
	}
}

// Random tables of small keys (0 and 1 among them) whose index keys are
// the key_names field or not: the fork answers every read by key as the
// live chain does, or refuses; and it never refuses keys that are the
// field's.
func TestForkRandomIndexKeysMatchOrAreRefused(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 32))
		w := newWasmTester(t, chaintest.WithManualFinality())
		w.accounts("kv")
		kv := antelope.MustName("kv")
		if err := w.c.DeployWASM(kv, contractFile(t, "test_api_multi_index", "wasm"), multiIndexABI(t, true)); err != nil {
			t.Fatal(err)
		}
		honest := r.IntN(2) == 0
		t64, t128 := antelope.MustName("indextable1"), antelope.MustName("indextable3")
		for id := range uint64(1 + r.IntN(5)) {
			sec := uint64(r.IntN(4))
			key := sec
			if !honest && r.IntN(2) == 0 {
				key = uint64(r.IntN(4))
			}
			data := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, id), sec)
			w.c.SetTableRow(kv, kv, t64, id, data, kv, antelope.KeyUint64(key))
			data = binary.LittleEndian.AppendUint64(data, 0) // a uint128 sec
			w.c.SetTableRow(kv, kv, t128, id, data, kv, antelope.KeyUint128(antelope.Uint128{Lo: key}))
		}
		w.c.Produce()
		l := &liveChain{wasmTester: w, forkBlock: w.c.Head().Num}
		fk := l.forkOf(t, l.nodeosFork(t, ""))
		for _, tbl := range []antelope.Name{t64, t128} {
			for key := range uint64(5) {
				k := antelope.KeyUint64(key)
				if tbl == t128 {
					k = antelope.KeyUint128(antelope.Uint128{Lo: key})
				}
				q := antelope.TableQuery{Code: kv, Scope: kv, Table: tbl, Index: 2, Lower: k, Upper: k}
				if key == 0 {
					q.Lower, q.KeyType = antelope.TableKey{}, k.Type()
					q.Upper = antelope.TableKey{}
				}
				want, err := w.cl.GetTableRows(t.Context(), q, 10)
				if err != nil {
					t.Fatal(err)
				}
				got, err := fk.cl.GetTableRows(t.Context(), q, 10)
				switch {
				case err != nil && honest:
					t.Fatalf("seed %d: %s by key %d: the fork refuses keys that are the field's: %v", seed, tbl, key, err)
				case err != nil:
					wantForkError(t, err, "secondary index 1")
				case fmt.Sprint(got.Rows) != fmt.Sprint(want.Rows):
					t.Fatalf("seed %d: %s by key %d: the fork has %x, the live chain %x", seed, tbl, key, got.Rows, want.Rows)
				}
			}
		}
	}
}

// An ABI whose key_types list fewer indexes than the contract has: the
// index it does not declare has rows on the live chain, so the fork must
// not serve it empty.
func TestForkRefusesIndexItsABIDoesNotDeclare(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("short")
	abi := strings.Replace(string(multiIndexABI(t, true)), `"key_names":["id","sec"],"key_types":["uint64","uint64"]`, `"key_names":["id"],"key_types":["uint64"]`, 1)
	if !strings.Contains(abi, `"key_names":["id"],"key_types":["uint64"]`) {
		t.Fatalf("indextable1's ABI was not changed: %s", abi)
	}
	if err := w.c.DeployWASM(antelope.MustName("short"), contractFile(t, "test_api_multi_index", "wasm"), []byte(abi)); err != nil {
		t.Fatal(err)
	}
	w.mustPush(act("short", "s1store", nil, "short"))
	l := &liveChain{wasmTester: w, forkBlock: w.c.Produce().Num}
	w.mustPush(act("short", "s1check", nil, "short")) // on the live chain
	for _, f := range []chaintest.Remote{l.nodeosFork(t, ""), l.stateFork(t, "")} {
		fk := l.forkOf(t, f)
		if _, err := fk.push(act("short", "s1check", nil, "short")); err != nil {
			wantForkError(t, err, "table indextable1 of short in scope short: secondary index 1")
		}
	}
}

// A contract deployed without an ABI has rows all the same: the fork,
// which cannot read them, must not serve its tables empty.
func TestForkRefusesTablesOfAContractWithoutABI(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("noabi")
	if err := w.c.DeployWASM(antelope.MustName("noabi"), contractFile(t, "test_api_multi_index", "wasm"), nil); err != nil {
		t.Fatal(err)
	}
	w.mustPush(act("noabi", "s1store", nil, "noabi"))
	l := &liveChain{wasmTester: w, forkBlock: w.c.Produce().Num}
	w.mustPush(act("noabi", "s1check", nil, "noabi")) // on the live chain
	for _, f := range []chaintest.Remote{l.nodeosFork(t, ""), l.stateFork(t, "")} {
		fk := l.forkOf(t, f)
		if _, err := fk.push(act("noabi", "s1check", nil, "noabi")); err != nil {
			wantForkError(t, err, "table indextable1 of noabi in scope noabi")
		}
	}
}

// An answer of the cache filed under another name (a file copied or
// renamed by hand, a merge gone wrong) is refused: alice's balances must
// not become bob's.
func TestForkCacheRefusesAnswerFiledUnderAnotherName(t *testing.T) {
	l := newLiveChain(t)
	cache := t.TempDir()
	fk := l.forkOf(t, l.stateFork(t, cache))
	script(t, fk)
	for _, kind := range []string{"table/eosio.token/%s/accounts.json", "account/%s.json"} {
		alice, err := os.ReadFile(filepath.Join(cache, fmt.Sprintf(kind, "alice")))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cache, fmt.Sprintf(kind, "bob")), alice, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	off := l.stateFork(t, cache)
	off.Offline = true
	replay := l.forkOf(t, off)
	q := antelope.TableQuery{Code: eosioToken, Scope: antelope.MustName("bob"), Table: antelope.MustName("accounts")}
	page, err := replay.cl.GetTableRows(t.Context(), q, 10)
	if err == nil {
		t.Fatalf("bob's balances replayed from alice's answer: %x", page.Rows)
	}
	wantForkError(t, err, "not the answer of")
	if _, err := replay.cl.GetAccount(t.Context(), antelope.MustName("bob")); err == nil {
		t.Fatal("bob's account replayed from alice's answer")
	}
}

// A table the node no longer has (its last row erased after the fork
// block) has a payer nobody can tell the fork: get_table_by_scope does not
// list it, and its first row's payer need not be the table's. Erasing its
// last row on the fork refunds the table to that payer: the RAM deltas
// must be the live chain's, or the transaction refused.
func TestForkDoesNotGuessThePayerOfATableTheNodeNoLongerHas(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("eosio.token", "alice", "bob", "carol")
	w.deploy("eosio.token", "eosio.token")
	l := &liveChain{wasmTester: w}
	alice, bob, carol := antelope.MustName("alice"), antelope.MustName("bob"), antelope.MustName("carol")
	l.mustToken("eosio.token", "create", eosiotoken.Create{Issuer: alice, MaximumSupply: asset(t, "1000.0000 XYZ")})
	l.mustToken("eosio.token", "create", eosiotoken.Create{Issuer: bob, MaximumSupply: asset(t, "1000.0000 TOK")})
	l.mustToken("alice", "issue", eosiotoken.Issue{To: alice, Quantity: asset(t, "10.0000 XYZ"), Memo: "m"})
	l.mustToken("bob", "issue", eosiotoken.Issue{To: bob, Quantity: asset(t, "10.0000 TOK"), Memo: "m"})
	// carol's table is made by alice (XYZ); bob's TOK row, of the lower
	// key, comes after.
	l.mustToken("alice", "transfer", transfer(t, "alice", "carol", "1.0000 XYZ"))
	l.mustToken("bob", "transfer", transfer(t, "bob", "carol", "1.0000 TOK"))
	l.forkBlock = w.c.Produce().Num
	fk := l.forkOf(t, l.stateFork(t, ""))

	tok := eosiotoken.Contract{Account: eosioToken}
	active := antelope.Active(carol)
	var actions []antelope.Action
	for _, a := range []func() (antelope.Action, error){
		func() (antelope.Action, error) {
			return tok.Transfer(transfer(t, "carol", "alice", "1.0000 XYZ"), active)
		},
		func() (antelope.Action, error) {
			return tok.Transfer(transfer(t, "carol", "bob", "1.0000 TOK"), active)
		},
		func() (antelope.Action, error) {
			return tok.Close(eosiotoken.Close{Owner: carol, Symbol: symbolOf(t, "4,XYZ")}, active)
		},
		func() (antelope.Action, error) {
			return tok.Close(eosiotoken.Close{Owner: carol, Symbol: symbolOf(t, "4,TOK")}, active)
		},
	} {
		act, err := a()
		if err != nil {
			t.Fatal(err)
		}
		actions = append(actions, act)
	}
	live := outcomeOf(t, w.mustPush(actions...), nil) // the live chain, from the fork block
	w.c.Produce()
	res, err := fk.push(actions...)
	if err != nil {
		wantForkError(t, err, "payer")
		return
	}
	if got := outcomeOf(t, res, nil); fmt.Sprint(got) != fmt.Sprint(live) {
		t.Fatalf("the fork's traces\n%v\nthe live chain's\n%v", got, live)
	}
}

// A node that does not list linked_actions in get_account (nodeos before
// they were added) hides alice's linkauth: a fork that takes that for "no
// links" refuses her hot key's transfer, which the live chain accepts.
func TestForkRefusesAccountsWhoseLinksTheNodeDoesNotList(t *testing.T) {
	l := newLiveChain(t)
	links := regexp.MustCompile(`,?"(eosio_any_)?linked_actions":\[[^\]]*\]`)
	f := l.stateFork(t, "")
	f.HTTP = &http.Client{Transport: answerTransport{base: l.c.HTTPClient().Transport, path: "/get_account", edit: func(body []byte) []byte {
		return links.ReplaceAll(body, nil)
	}}}
	fk := l.forkOf(t, f)
	forkOut := hotScript(l)(t, fk)
	if err := l.c.Rollback(l.forkBlock); err != nil {
		t.Fatal(err)
	}
	liveOut := hotScript(l)(t, l.wasmTester)
	for i := range forkOut {
		if forkOut[i].Error != "" && strings.Contains(forkOut[i].Error, "chaintest_fork_exception") {
			if !strings.Contains(forkOut[i].Error, "linked_actions") {
				t.Fatalf("refused for another reason: %s", forkOut[i].Error)
			}
			continue
		}
		if fmt.Sprint(forkOut[i]) != fmt.Sprint(liveOut[i]) {
			t.Fatalf("transaction %d: the fork %+v, the live chain %+v", i, forkOut[i], liveOut[i])
		}
	}
}

// Fetching from the live chain takes network time inside a transaction;
// that time is no CPU of the transaction: a slow live chain must not make
// the fork answer tx_cpu_usage_exceeded for a transfer the live chain
// runs.
func TestForkFetchTimeIsNotTheTransactionsCPU(t *testing.T) {
	l := newLiveChain(t)
	f := l.nodeosFork(t, "")
	slow := false
	f.HTTP = &http.Client{Transport: hookTransport{base: l.c.HTTPClient().Transport, hook: func(path string, body []byte) {
		if slow && strings.HasSuffix(path, "/get_table_rows") {
			time.Sleep(150 * time.Millisecond)
		}
	}}}
	c, err := chaintest.NewFork(f, chaintest.WithoutNetwork(), chaintest.WithManualFinality(), chaintest.WithDeadline(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	fk := &wasmTester{t: t, c: c, cl: c.Client(), keys: l.keys}
	if !fk.c.AccountExists(antelope.MustName("alice")) || !fk.c.AccountExists(antelope.MustName("bob")) {
		t.Fatal("no alice or bob")
	}
	slow = true
	if _, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "bob", "1.0000 TOK")); err != nil {
		t.Fatalf("a transfer the live chain runs: %v", err)
	}
}

// Float keys, zero among them (an open bound when written as a bound):
// honest keys are rebuilt and served as the live chain serves them.
func TestForkRebuildsHonestFloatKeysWithZero(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("fl")
	fl := antelope.MustName("fl")
	var abi map[string]any
	if err := json.Unmarshal(multiIndexABI(t, true), &abi); err != nil {
		t.Fatal(err)
	}
	abi["structs"] = append(abi["structs"].([]any), map[string]any{"name": "frec", "base": "", "fields": []any{
		map[string]any{"name": "id", "type": "uint64"}, map[string]any{"name": "sec", "type": "float64"}}})
	abi["tables"] = append(abi["tables"].([]any), map[string]any{"name": "flt", "type": "frec", "index_type": "i64",
		"key_names": []string{"id", "sec"}, "key_types": []string{"uint64", "float64"}})
	raw, err := json.Marshal(abi)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.c.DeployWASM(fl, contractFile(t, "test_api_multi_index", "wasm"), raw); err != nil {
		t.Fatal(err)
	}
	table := antelope.MustName("flt")
	for id, sec := range []float64{0, -1.5, 0.25, 0, 3} {
		data := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, uint64(id)), math.Float64bits(sec))
		w.c.SetTableRow(fl, fl, table, uint64(id), data, fl, antelope.KeyFloat64(sec))
	}
	w.c.Produce()
	l := &liveChain{wasmTester: w, forkBlock: w.c.Head().Num}
	fk := l.forkOf(t, l.nodeosFork(t, ""))
	for _, key := range []float64{-1.5, 0.25, 3, 7} {
		q := antelope.TableQuery{Code: fl, Scope: fl, Table: table, Index: 2, Lower: antelope.KeyFloat64(key), Upper: antelope.KeyFloat64(key)}
		want, err := w.cl.GetTableRows(t.Context(), q, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fk.cl.GetTableRows(t.Context(), q, 10)
		if err != nil {
			t.Fatalf("key %v: %v", key, err)
		}
		if fmt.Sprint(got.Rows) != fmt.Sprint(want.Rows) {
			t.Fatalf("key %v: the fork has %x, the live chain %x", key, got.Rows, want.Rows)
		}
	}
	if got, want := tableView(t, fk, "fl", "fl", "flt", 2, antelope.IndexFloat64), tableView(t, w, "fl", "fl", "flt", 2, antelope.IndexFloat64); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("by index 2: the fork %v, the live chain %v", got, want)
	}
}

// A node (or a proxy in front of it) that takes limit 0 for its default
// answers rows where a fork asked for a key only: a table of few rows
// then comes with more=false, and must not be taken for empty.
func TestForkRefusesRowsAnsweredToLimitZero(t *testing.T) {
	l := newLiveChain(t)
	f := l.nodeosFork(t, "")
	f.HTTP = &http.Client{Transport: rewriteTransport{base: l.c.HTTPClient().Transport, rewrite: func(r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/get_table_rows") || r.Body == nil {
			return
		}
		body, _ := io.ReadAll(r.Body)
		body = bytes.Replace(body, []byte(`"limit":0`), []byte(`"limit":10`), 1)
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}}}
	fk := l.forkOf(t, f)
	q := antelope.TableQuery{Code: eosioToken, Scope: antelope.MustName("alice"), Table: antelope.MustName("accounts")}
	got, err := fk.cl.GetTableRows(t.Context(), q, 10)
	if err != nil {
		wantForkError(t, err, "limit 0")
		return
	}
	want, err := l.cl.GetTableRows(t.Context(), q, 10)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Rows) != fmt.Sprint(want.Rows) {
		t.Fatalf("alice's balances: the fork %x, the live chain %x", got.Rows, want.Rows)
	}
}
