package chaintest_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

// A "live" chain in the test process — real eosio.token and
// test_api_multi_index wasm, a history of blocks — forked at a past block
// through its state service and at its head through nodeos; the same real
// transactions run on each fork and on the live chain taken back to the
// fork block must give the same rows, payers, traces and errors.

// liveChain is the remote of the fork tests.
type liveChain struct {
	*wasmTester
	forkBlock uint32              // a past block: history follows it
	hotKey    antelope.PrivateKey // alice@xfer's, linked to eosio.token::transfer
}

var (
	tokSym     = "4,TOK"
	multi      = "multi"    // test_api_multi_index with an ABI that describes its indexes
	multiPlain = "multiraw" // the same with CDT's usual ABI: no key_names, no key_types
	upgraded   = "upgraded" // a contract whose code changes after the fork block
	late       = "late"     // an account created after the fork block
)

// multiIndexABI is test_api_multi_index's ABI with the two tables its
// s1store/s2store actions fill (leap's test_api_multi_index.cpp: record_idx64
// and record_idx128, secondary index "bysecondary" on sec), described with
// key_names and key_types when keys is set, without (as CDT writes them)
// when not.
func multiIndexABI(t *testing.T, keys bool) []byte {
	var abi map[string]any
	if err := json.Unmarshal(contractFile(t, "test_api_multi_index", "abi"), &abi); err != nil {
		t.Fatal(err)
	}
	field := func(n, typ string) map[string]any { return map[string]any{"name": n, "type": typ} }
	abi["structs"] = append(abi["structs"].([]any),
		map[string]any{"name": "record_idx64", "base": "", "fields": []any{field("id", "uint64"), field("sec", "uint64")}},
		map[string]any{"name": "record_idx128", "base": "", "fields": []any{field("id", "uint64"), field("sec", "uint128")}})
	table := func(name, typ, secType string) map[string]any {
		t := map[string]any{"name": name, "type": typ, "index_type": "i64", "key_names": []string{}, "key_types": []string{}}
		if keys {
			t["key_names"], t["key_types"] = []string{"id", "sec"}, []string{"uint64", secType}
		}
		return t
	}
	abi["tables"] = []any{table("indextable1", "record_idx64", "uint64"), table("indextable3", "record_idx128", "uint128")}
	out, err := json.Marshal(abi)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func newLiveChain(t *testing.T) *liveChain {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("eosio.token", "alice", "bob", "carol", multi, multiPlain, upgraded)
	w.deploy("eosio.token", "eosio.token")
	w.deploy(upgraded, "eosio.token")
	for acct, keys := range map[string]bool{multi: true, multiPlain: false} {
		if err := w.c.DeployWASM(antelope.MustName(acct), contractFile(t, "test_api_multi_index", "wasm"), multiIndexABI(t, keys)); err != nil {
			t.Fatal(err)
		}
	}
	l := &liveChain{wasmTester: w}
	l.mustToken("eosio.token", "create", eosiotoken.Create{Issuer: antelope.MustName("alice"), MaximumSupply: asset(t, "1000.0000 TOK")})
	l.mustToken("alice", "issue", eosiotoken.Issue{To: antelope.MustName("alice"), Quantity: asset(t, "100.0000 TOK"), Memo: "m"})
	l.mustToken("alice", "transfer", transfer(t, "alice", "bob", "10.0000 TOK"))
	for _, acct := range []string{multi, multiPlain} {
		w.mustPush(act(acct, "s1store", nil, acct), act(acct, "s2store", nil, acct))
	}
	// alice's hot key may only transfer (linkauth).
	hot, err := antelope.GeneratePrivateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	hotPub, _ := hot.PublicKey()
	l.hotKey = hot
	must(t, w.c.SetPermission(antelope.MustName("alice"), antelope.MustName("xfer"), 0, chain.Authority{Threshold: 1, Keys: []chain.KeyWeight{{Key: hotPub, Weight: 1}}}))
	must(t, w.c.LinkPermission(antelope.MustName("alice"), eosioToken, antelope.MustName("transfer"), antelope.MustName("xfer")))
	w.c.Produce()
	l.forkBlock = w.c.Head().Num
	// History after the fork block: balances change, and a contract's code.
	l.mustToken("alice", "transfer", transfer(t, "alice", "carol", "5.0000 TOK"))
	l.mustToken("bob", "transfer", transfer(t, "bob", "alice", "1.0000 TOK"))
	w.mustPush(act(multi, "s1g", nil, multi))
	w.c.Produce()
	if err := w.c.DeployWASM(antelope.MustName(upgraded), contractFile(t, "exchange", "wasm"), nil); err != nil {
		t.Fatal(err)
	}
	w.accounts(late)
	return l
}

func transfer(t *testing.T, from, to, q string) eosiotoken.Transfer {
	return eosiotoken.Transfer{From: antelope.MustName(from), To: antelope.MustName(to), Quantity: asset(t, q), Memo: "fork"}
}

func (l *liveChain) mustToken(signer, name string, data any) {
	l.t.Helper()
	if _, err := pushToken(l.wasmTester, "eosio.token", signer, name, data); err != nil {
		l.t.Fatal(err)
	}
}

// pushToken sends one eosio.token action, signed by signer's key.
func pushToken(w *wasmTester, contract, signer, name string, data any) (*chain.TransactResult, error) {
	tok := eosiotoken.Contract{Account: antelope.MustName(contract)}
	auth := antelope.Active(antelope.MustName(signer))
	var a antelope.Action
	var err error
	switch d := data.(type) {
	case eosiotoken.Create:
		a, err = tok.Create(d, auth)
	case eosiotoken.Issue:
		a, err = tok.Issue(d, auth)
	case eosiotoken.Transfer:
		a, err = tok.Transfer(d, auth)
	}
	if err != nil {
		return nil, err
	}
	return w.push(a)
}

// forkOf makes a fork of l as a wasmTester holding l's keys.
func (l *liveChain) forkOf(t *testing.T, f chaintest.Remote) *wasmTester {
	t.Helper()
	c, err := chaintest.NewFork(f, chaintest.WithoutNetwork(), chaintest.WithManualFinality())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &wasmTester{t: t, c: c, cl: c.Client(), keys: l.keys}
}

func (l *liveChain) nodeosFork(t *testing.T, cache string) chaintest.Remote {
	return chaintest.Remote{NodeURL: l.c.URL(), HTTP: l.c.HTTPClient(), Cache: cache}
}

func (l *liveChain) stateFork(t *testing.T, cache string) chaintest.Remote {
	return chaintest.Remote{NodeURL: l.c.URL(), StateURL: l.c.URL(), AuthURL: l.c.AuthURL(), APIKey: "chaintest-key",
		Block: l.forkBlock, HTTP: l.c.HTTPClient(), Cache: cache}
}

// outcome is what a transaction did, as far as a fork must reproduce it:
// each action's receiver, action, console, RAM deltas (by payer) and
// return value, or the error's exception name and message.
type outcome struct {
	Traces []map[string]any
	Error  string
}

func outcomeOf(t *testing.T, res *chain.TransactResult, err error) outcome {
	t.Helper()
	if err != nil {
		var ae *chain.APIError
		if !errors.As(err, &ae) {
			return outcome{Error: err.Error()}
		}
		msg := ""
		if len(ae.Details) > 0 {
			msg = ae.Details[0].Message
		}
		return outcome{Error: ae.Name + ": " + msg}
	}
	var p struct {
		ActionTraces []map[string]any `json:"action_traces"`
	}
	if err := json.Unmarshal(res.Processed, &p); err != nil {
		t.Fatal(err)
	}
	var o outcome
	for _, tr := range p.ActionTraces {
		o.Traces = append(o.Traces, map[string]any{"receiver": tr["receiver"], "act": tr["act"], "console": tr["console"],
			"account_ram_deltas": tr["account_ram_deltas"], "return_value_hex_data": tr["return_value_hex_data"],
			"action_ordinal": tr["action_ordinal"], "creator_action_ordinal": tr["creator_action_ordinal"]})
	}
	return o
}

// script is the transactions the tests run on forks and on the live chain:
// transfers (one to an account with no balance at the fork block, one
// overdrawn), a multi_index check of secondary indexes filled before the
// fork, and the same on the contract whose ABI describes no keys.
func script(t *testing.T, w *wasmTester) []outcome {
	t.Helper()
	var out []outcome
	add := func(res *chain.TransactResult, err error) { out = append(out, outcomeOf(t, res, err)) }
	add(pushToken(w, "eosio.token", "alice", "transfer", transfer(t, "alice", "carol", "3.0000 TOK")))
	add(pushToken(w, "eosio.token", "bob", "transfer", transfer(t, "bob", "alice", "2.5000 TOK")))
	add(pushToken(w, "eosio.token", "carol", "transfer", transfer(t, "carol", "bob", "50.0000 TOK")))
	add(w.push(act(multi, "s1check", nil, multi)))
	add(w.push(act(multi, "s2check", nil, multi)))
	return out
}

// tableView is a table in a scope as get_table_rows serves it by an index:
// rows and payers in order.
func tableView(t *testing.T, w *wasmTester, code, scope, table string, index int, kt antelope.IndexKeyType) []string {
	t.Helper()
	q := antelope.TableQuery{Code: antelope.MustName(code), Scope: antelope.MustName(scope), Table: antelope.MustName(table), Index: index, KeyType: kt}
	var rows []string
	for r, err := range w.cl.TableRows(t.Context(), q) {
		if err != nil {
			t.Fatalf("%s %s %s index %d: %v", code, scope, table, index, err)
		}
		rows = append(rows, fmt.Sprintf("%x@%s", r.Data, r.Payer))
	}
	return rows
}

// tables is every table the script touches, by each of its indexes.
func tables(t *testing.T, w *wasmTester) map[string][]string {
	out := map[string][]string{}
	for _, who := range []string{"alice", "bob", "carol"} {
		out["accounts/"+who] = tableView(t, w, "eosio.token", who, "accounts", 1, "")
	}
	sym := symbolOf(t, tokSym)
	out["stat"] = tableView(t, w, "eosio.token", antelope.Name(sym.Code).String(), "stat", 1, "")
	out["indextable1"] = tableView(t, w, multi, multi, "indextable1", 1, "")
	out["indextable1/2"] = tableView(t, w, multi, multi, "indextable1", 2, antelope.IndexI64)
	out["indextable3"] = tableView(t, w, multi, multi, "indextable3", 1, "")
	out["indextable3/2"] = tableView(t, w, multi, multi, "indextable3", 2, antelope.IndexI128)
	return out
}

func TestForkMatchesLiveChain(t *testing.T) {
	l := newLiveChain(t)
	head := l.c.Head()
	before := tables(t, l.wasmTester)
	liveStats := l.c.Stats()

	// At the head, through nodeos.
	atHead := l.forkOf(t, l.nodeosFork(t, t.TempDir()))
	if got := atHead.c.ForkBlock(); got != head.Num {
		t.Fatalf("the nodeos fork is at block %d, want the head %d", got, head.Num)
	}
	headOut, headTables := script(t, atHead), tables(t, atHead)

	// At a past block, through the state service, recording a cache.
	cache := t.TempDir()
	past := l.forkOf(t, l.stateFork(t, cache))
	pastOut, pastTables := script(t, past), tables(t, past)
	if st := past.c.ForkStats(); st.Requests == 0 || st.Bytes == 0 {
		t.Fatalf("fork stats %+v: the fork asked nothing of the live chain", st)
	}

	// The live chain is untouched by both.
	if l.c.Head().ID != head.ID || l.c.Stats().Executions != liveStats.Executions || !reflect.DeepEqual(tables(t, l.wasmTester), before) {
		t.Fatal("forking changed the live chain")
	}

	// The same transactions on the live chain, at its head…
	liveHead, liveHeadTables := script(t, l.wasmTester), tables(t, l.wasmTester)
	compare(t, "nodeos fork at the head", headOut, liveHead, headTables, liveHeadTables)

	// …and taken back to the fork block.
	if err := l.c.Rollback(l.forkBlock); err != nil {
		t.Fatal(err)
	}
	livePast, livePastTables := script(t, l.wasmTester), tables(t, l.wasmTester)
	compare(t, "state-service fork at a past block", pastOut, livePast, pastTables, livePastTables)
	for _, out := range [][]outcome{headOut, pastOut} {
		for i, o := range out {
			if failed := o.Error != ""; failed != (i == 2) {
				t.Fatalf("transaction %d: %+v", i, o)
			}
		}
		if !strings.Contains(out[2].Error, "overdrawn balance") {
			t.Fatalf("the overdrawn transfer: %+v", out[2])
		}
	}

	// Replayed from the cache with no network: the same, and nothing asked.
	off := l.stateFork(t, cache)
	off.Offline, off.HTTP = true, &http.Client{Transport: noNetwork{t}}
	replay := l.forkOf(t, off)
	replayOut, replayTables := script(t, replay), tables(t, replay)
	compare(t, "offline replay of the cache", replayOut, pastOut, replayTables, pastTables)
	if st := replay.c.ForkStats(); st.Requests != 0 || st.Cached == 0 {
		t.Fatalf("offline replay stats %+v: want no request and cached answers", st)
	}
}

// noNetwork fails the test on any request.
type noNetwork struct{ t *testing.T }

func (n noNetwork) RoundTrip(r *http.Request) (*http.Response, error) {
	n.t.Errorf("an offline fork sent %s", r.URL)
	return nil, errors.New("no network")
}

func compare(t *testing.T, what string, got, want []outcome, gotTables, wantTables map[string][]string) {
	t.Helper()
	for i := range want {
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if string(g) != string(w) {
			t.Errorf("%s: transaction %d:\n got %s\nwant %s", what, i, g, w)
		}
	}
	for k, w := range wantTables {
		if !reflect.DeepEqual(gotTables[k], w) {
			t.Errorf("%s: table %s:\n got %v\nwant %v", what, k, gotTables[k], w)
		}
	}
}

func wantForkError(t *testing.T, err error, parts ...string) {
	t.Helper()
	var ae *chain.APIError
	if !errors.As(err, &ae) || ae.Name != "chaintest_fork_exception" || len(ae.Details) == 0 {
		t.Fatalf("got %v, want chaintest_fork_exception", err)
	}
	for _, p := range parts {
		if !strings.Contains(ae.Details[0].Message, p) {
			t.Fatalf("got %q, want it to say %q", ae.Details[0].Message, p)
		}
	}
}

// hotScript uses alice's linked hot key: for a transfer (linked), and for
// an issue (not linked: refused).
func hotScript(l *liveChain) func(t *testing.T, w *wasmTester) []outcome {
	return func(t *testing.T, w *wasmTester) []outcome {
		tok := eosiotoken.Contract{Account: eosioToken}
		hot := antelope.PermissionLevel{Actor: antelope.MustName("alice"), Permission: antelope.MustName("xfer")}
		var out []outcome
		for _, build := range []func() (antelope.Action, error){
			func() (antelope.Action, error) { return tok.Transfer(transfer(t, "alice", "bob", "1.0000 TOK"), hot) },
			func() (antelope.Action, error) {
				return tok.Issue(eosiotoken.Issue{To: antelope.MustName("alice"), Quantity: asset(t, "1.0000 TOK"), Memo: "m"}, hot)
			},
		} {
			a, err := build()
			if err != nil {
				t.Fatal(err)
			}
			res, err := w.cl.Transact(t.Context(), l.hotKey, a)
			out = append(out, outcomeOf(t, res, err))
		}
		return out
	}
}

func TestForkKeepsLinkedPermissions(t *testing.T) {
	l := newLiveChain(t)
	// The live chain lists the link as nodeos does.
	body, err := l.cl.Call(t.Context(), "/v1/chain/get_account", map[string]string{"account_name": "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"perm_name":"xfer"`) || !strings.Contains(string(body), `"linked_actions":[{"account":"eosio.token","action":"transfer"}]`) ||
		!strings.Contains(string(body), `"eosio_any_linked_actions":[]`) {
		t.Fatalf("get_account: %s", body)
	}
	fk := l.forkOf(t, l.stateFork(t, ""))
	forkOut := hotScript(l)(t, fk)
	if err := l.c.Rollback(l.forkBlock); err != nil {
		t.Fatal(err)
	}
	liveOut := hotScript(l)(t, l.wasmTester)
	compare(t, "linked hot key", forkOut, liveOut, nil, nil)
	if forkOut[0].Error != "" || !strings.Contains(forkOut[1].Error, "irrelevant_auth_exception") {
		t.Fatalf("outcomes %+v", forkOut)
	}
}

func TestForkRefusesToListTables(t *testing.T) {
	l := newLiveChain(t)
	fk := l.forkOf(t, l.stateFork(t, ""))
	tableView(t, fk, "eosio.token", "alice", "accounts", 1, "") // one table fetched: still not a list
	_, _, err := fk.cl.GetTableByScope(t.Context(), chain.ScopeQuery{Code: eosioToken}, 10)
	wantForkError(t, err, "the tables of eosio.token cannot be listed on a fork")
	if _, err := fk.c.State().ScopeList(t.Context(), eosioToken, antelope.MustName("accounts")); err == nil ||
		!strings.Contains(err.Error(), "cannot be listed") {
		t.Fatalf("table_scopes: %v", err)
	}
}

func TestForkHasNoAccountCreatedAfterItsBlock(t *testing.T) {
	l := newLiveChain(t)
	if past := l.forkOf(t, l.stateFork(t, "")); past.c.AccountExists(antelope.MustName(late)) {
		t.Fatal("an account created after the fork block exists on the fork")
	}
	if atHead := l.forkOf(t, l.nodeosFork(t, "")); !atHead.c.AccountExists(antelope.MustName(late)) {
		t.Fatal("an account of the head is missing from a fork at the head")
	}
}

func TestForkReportsCodeNewerThanForkBlock(t *testing.T) {
	l := newLiveChain(t)
	past := l.forkOf(t, l.stateFork(t, ""))
	_, err := pushToken(past, upgraded, "alice", "transfer", transfer(t, "alice", "bob", "1.0000 TOK"))
	wantForkError(t, err, "the code of upgraded was set at", fmt.Sprintf("after the fork block %d", l.forkBlock))
	newer := past.c.NewerCode()
	if len(newer) != 1 || newer[0].Account != antelope.MustName(upgraded) || newer[0].ForkBlock != l.forkBlock ||
		!newer[0].CodeUpdated.After(newer[0].ForkTime) {
		t.Fatalf("NewerCode() = %+v", newer)
	}
	// Forked at the head, the code is the head's: nothing to report.
	atHead := l.forkOf(t, l.nodeosFork(t, ""))
	if _, err := atHead.push(act(upgraded, "transfer", nil, "alice")); err != nil && strings.Contains(err.Error(), "chaintest_fork_exception") {
		t.Fatal(err)
	}
	if n := atHead.c.NewerCode(); len(n) != 0 {
		t.Fatalf("NewerCode() at the head = %+v", n)
	}
}

func TestForkRefusesIndexItCannotLearn(t *testing.T) {
	l := newLiveChain(t)
	for name, f := range map[string]chaintest.Remote{"nodeos": l.nodeosFork(t, ""), "state": l.stateFork(t, "")} {
		t.Run(name, func(t *testing.T) {
			fk := l.forkOf(t, f)
			_, err := fk.push(act(multiPlain, "s1check", nil, multiPlain))
			wantForkError(t, err, "table indextable1 of multiraw in scope multiraw: secondary index 1 (position 2, idx64)", "declares no key_types")
			// Read through get_table_rows: the primary index is served, the
			// secondary refused, never empty.
			if rows := tableView(t, fk, multiPlain, multiPlain, "indextable1", 1, ""); len(rows) != 7 {
				t.Fatalf("primary index: %d rows, want 7", len(rows))
			}
			q := antelope.TableQuery{Code: antelope.MustName(multiPlain), Scope: antelope.MustName(multiPlain), Table: antelope.MustName("indextable1"),
				Index: 2, KeyType: antelope.IndexI64}
			_, err = fk.cl.GetTableRows(t.Context(), q, 10)
			wantForkError(t, err, "table indextable1", "secondary index 1")
		})
	}
}

func TestForkKeepsStateFetchedByFailedTransactionAndRollback(t *testing.T) {
	l := newLiveChain(t)
	fk := l.forkOf(t, l.stateFork(t, ""))
	first := fk.c.Head().Num
	// bob's balance is first fetched inside a transaction that fails: it
	// must stay, as the live chain's, not vanish with the transaction.
	_, err := pushToken(fk, "eosio.token", "bob", "transfer", transfer(t, "bob", "alice", "500.0000 TOK"))
	wantAssert(t, err, "overdrawn balance")
	if got := tableView(t, fk, "eosio.token", "bob", "accounts", 1, ""); len(got) != 1 {
		t.Fatalf("bob's balance after a failed transaction fetched it: %v", got)
	}
	fk.c.Produce()
	atFork := tables(t, fk)
	if _, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "carol", "1.0000 TOK")); err != nil {
		t.Fatal(err)
	}
	if err := fk.c.Rollback(first); err != nil {
		t.Fatal(err)
	}
	if got := tables(t, fk); !reflect.DeepEqual(got, atFork) {
		t.Fatalf("after Rollback(%d):\n got %v\nwant %v", first, got, atFork)
	}
}

func TestForkCacheOfAnotherForkRefused(t *testing.T) {
	l := newLiveChain(t)
	cache := t.TempDir()
	fk := l.forkOf(t, l.stateFork(t, cache))
	script(t, fk)

	other := l.stateFork(t, cache)
	other.Block = l.forkBlock - 1
	if _, err := chaintest.NewFork(other, chaintest.WithoutNetwork()); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("is of block %d, not of block %d", l.forkBlock, l.forkBlock-1)) {
		t.Fatalf("a cache of another block: %v", err)
	}
	if _, err := chaintest.NewFork(l.nodeosFork(t, cache), chaintest.WithoutNetwork()); err == nil || !strings.Contains(err.Error(), "is of a state fork, not of a nodeos one") {
		t.Fatalf("a cache of another source: %v", err)
	}
	// An answer stamped with another block, dropped in, is refused, not mixed.
	entry := filepath.Join(cache, "account", "alice.json")
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	stamp := fmt.Sprintf(`"block": %d`, l.forkBlock)
	if !strings.Contains(string(data), stamp) {
		t.Fatalf("%s holds no %s: %s", entry, stamp, data)
	}
	if err := os.WriteFile(entry, []byte(strings.Replace(string(data), stamp, fmt.Sprintf(`"block": %d`, l.forkBlock+1), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	off := l.stateFork(t, cache)
	off.Offline = true
	replay := l.forkOf(t, off)
	_, err = pushToken(replay, "eosio.token", "alice", "transfer", transfer(t, "alice", "carol", "3.0000 TOK"))
	wantForkError(t, err, "refused, not mixed")
	// A live chain of another id is refused too.
	elsewhere := chaintest.New(chaintest.WithoutNetwork(), chaintest.WithChainID(antelope.Checksum256{1}))
	defer elsewhere.Close()
	elsewhere.ProduceBlocks(int(l.forkBlock))
	if _, err := chaintest.NewFork(chaintest.Remote{NodeURL: elsewhere.URL(), StateURL: elsewhere.URL(), AuthURL: elsewhere.AuthURL(),
		APIKey: "chaintest-key", Block: l.forkBlock, HTTP: elsewhere.HTTPClient(), Cache: cache}); err == nil || !strings.Contains(err.Error(), "is of chain") {
		t.Fatalf("a cache of another chain: %v", err)
	}
}

func TestForkIsAChainLikeAnyOther(t *testing.T) {
	l := newLiveChain(t)
	fk := l.forkOf(t, l.stateFork(t, ""))
	res, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "carol", "3.0000 TOK"))
	if err != nil {
		t.Fatal(err)
	}
	if res.BlockNum <= l.forkBlock {
		t.Fatalf("the fork's transaction is in block %d, not after the fork block %d", res.BlockNum, l.forkBlock)
	}
	// Its state history serves its own blocks, from the first.
	ctx := t.Context()
	found := false
	for ev, err := range fk.c.SHiPClient().Stream(ctx, ship.Request{Start: l.forkBlock + 1, End: res.BlockNum + 1}) {
		if err != nil {
			t.Fatal(err)
		}
		for tr, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer) {
			if err != nil {
				t.Fatal(err)
			}
			found = found || (ev.Block.Num == res.BlockNum && tr.Data.To == antelope.MustName("carol"))
		}
		rows := 0
		for d, err := range ev.Block.TableDeltas() {
			if err != nil {
				t.Fatal(err)
			}
			if d.Table == "contract_row" {
				rows++
			}
		}
		// The first block changes nothing (what the fork fetched is the
		// live chain's, not a change of the fork's); the transfer's
		// changes alice's balance and makes carol's.
		switch {
		case ev.Block.Num == l.forkBlock+1 && rows != 0:
			t.Fatalf("the fork's first block has %d row deltas", rows)
		case ev.Block.Num == res.BlockNum && rows != 2:
			t.Fatalf("the transfer's block has %d row deltas, want 2", rows)
		}
	}
	if !found {
		t.Fatal("the fork's state history has no transfer to carol")
	}
	// Its state service serves the forked tables, changed by the fork.
	st, err := fk.c.State().Table(ctx, antelope.MustName("eosio.token"), antelope.MustName("carol"), antelope.MustName("accounts"))
	if err != nil {
		t.Fatal(err)
	}
	if view := tableView(t, fk, "eosio.token", "carol", "accounts", 1, ""); len(st.Rows) != 1 || len(view) != 1 ||
		view[0] != fmt.Sprintf("%x@%s", st.Rows[0].Data, st.Rows[0].Payer) {
		t.Fatalf("state service %+v, get_table_rows %v", st.Rows, view)
	}
	// An account the fork makes is the fork's: nothing of it is asked of
	// the live chain, which does not have it.
	fk.c.NewAccount(antelope.MustName("dave"))
	if _, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "dave", "1.0000 TOK")); err != nil {
		t.Fatal(err)
	}
	// A forked contract is replaced as on any chain: setcode through eosio.
	wasm := contractFile(t, "exchange", "wasm")
	if _, err := fk.cl.Deploy(ctx, fk.keys[antelope.MustName(multi)], antelope.MustName(multi), wasm, nil); err != nil {
		t.Fatal(err)
	}
	hash, err := fk.cl.GetCodeHash(ctx, antelope.MustName(multi))
	if err != nil {
		t.Fatal(err)
	}
	if hash != sha256.Sum256(wasm) {
		t.Fatalf("code hash %s after Deploy on the fork", hash)
	}
	// The live chain still has its own.
	if live, err := l.cl.GetCodeHash(ctx, antelope.MustName(multi)); err != nil || live == hash {
		t.Fatalf("the live chain's code hash %s, %v", live, err)
	}
}

func TestForkCostIsWhatItTouches(t *testing.T) {
	l := newLiveChain(t)
	// Many holders the transfer does not touch.
	var holders []string
	for i := range 30 {
		holders = append(holders, "holder"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	l.accounts(holders...)
	for _, h := range holders {
		l.mustToken("alice", "transfer", transfer(t, "alice", h, "0.0001 TOK"))
	}
	fk := l.forkOf(t, l.nodeosFork(t, ""))
	if _, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "bob", "1.0000 TOK")); err != nil {
		t.Fatal(err)
	}
	st := fk.c.ForkStats()
	// get_info; alice, bob and eosio.token's accounts (get_account); the
	// contract (code, account); stat and two balances (a scope lookup, a
	// first key, the row, the key after it each): about 20, whatever the number of holders.
	if st.Requests == 0 || st.Requests > 25 {
		t.Fatalf("one transfer cost %d requests (%d bytes), want it to depend on what it touched only", st.Requests, st.Bytes)
	}
	t.Logf("one transfer on a fork: %d requests, %d bytes", st.Requests, st.Bytes)
}

// randomTransfers is a random script of eosio.token transfers among the
// live chain's holders, an account created after the fork block and one
// that exists nowhere: overdrawn, to self, to no account, each fetching
// what it first touches.
func randomTransfers(seed uint64, steps int) func(t *testing.T, w *wasmTester) []outcome {
	return func(t *testing.T, w *wasmTester) []outcome {
		r := rand.New(rand.NewPCG(seed, 3))
		from := []string{"alice", "bob", "carol"}
		to := []string{"alice", "bob", "carol", late, "nobody", multi}
		var out []outcome
		for range steps {
			q := fmt.Sprintf("%d.%04d TOK", r.IntN(12), r.IntN(10000))
			f := from[r.IntN(len(from))]
			res, err := pushTokenOrErr(t, w, f, to[r.IntN(len(to))], q)
			out = append(out, outcomeOf(t, res, err))
		}
		return out
	}
}

func pushTokenOrErr(t *testing.T, w *wasmTester, from, to, q string) (*chain.TransactResult, error) {
	return pushToken(w, "eosio.token", from, "transfer", eosiotoken.Transfer{From: antelope.MustName(from), To: antelope.MustName(to),
		Quantity: asset(t, q), Memo: "r"})
}

// The model: a fork at a past block runs random transfers exactly as the
// live chain taken back to that block.
func TestForkRandomTransfersMatchLiveChain(t *testing.T) {
	steps, seeds := 40, []uint64{1, 2}
	if testing.Short() || raceEnabled {
		steps, seeds = 15, seeds[:1]
	}
	for _, seed := range seeds {
		l := newLiveChain(t)
		run := randomTransfers(seed, steps)
		past := l.forkOf(t, l.stateFork(t, ""))
		forkOut, forkTables := run(t, past), tables(t, past)
		if err := l.c.Rollback(l.forkBlock); err != nil {
			t.Fatal(err)
		}
		// late, created after the fork block, exists on neither.
		liveOut, liveTables := run(t, l.wasmTester), tables(t, l.wasmTester)
		compare(t, fmt.Sprintf("seed %d", seed), forkOut, liveOut, forkTables, liveTables)
		kinds := map[string]int{}
		for _, o := range forkOut {
			kinds[o.Error]++
		}
		if kinds[""] == 0 || len(kinds) < 3 {
			t.Fatalf("seed %d: outcomes %v: the script must both succeed and fail in several ways", seed, kinds)
		}
		t.Logf("seed %d: %v", seed, kinds)
	}
}

func TestForkCacheOfNodeosHeadIsNotMixedWithALaterHead(t *testing.T) {
	l := newLiveChain(t)
	cache := t.TempDir()
	first := l.forkOf(t, l.nodeosFork(t, cache))
	want, err := pushToken(first, "eosio.token", "alice", "transfer", transfer(t, "alice", "bob", "1.0000 TOK"))
	if err != nil {
		t.Fatal(err)
	}
	l.c.Produce() // the node's head moves on
	again := l.forkOf(t, l.nodeosFork(t, cache))
	if again.c.ForkBlock() != first.c.ForkBlock() {
		t.Fatalf("reopened at block %d, the cache's is %d", again.c.ForkBlock(), first.c.ForkBlock())
	}
	// What the cache holds replays…
	got, err := pushToken(again, "eosio.token", "alice", "transfer", transfer(t, "alice", "bob", "1.0000 TOK"))
	compare(t, "replayed", []outcome{outcomeOf(t, got, err)}, []outcome{outcomeOf(t, want, nil)}, nil, nil)
	// …and what it lacks is not read at the new head.
	_, err = pushToken(again, "eosio.token", "alice", "transfer", transfer(t, "alice", "carol", "1.0000 TOK"))
	wantForkError(t, err, "cannot be read at block", "the node's head has moved")
}

// A lookup the live chain cannot answer now fails the transaction, and the
// next one asks again.
func TestForkAsksAgainAfterANetworkFailure(t *testing.T) {
	l := newLiveChain(t)
	fk := l.forkOf(t, l.nodeosFork(t, ""))
	// alice's balance and the contract are fetched.
	if _, err := pushToken(fk, "eosio.token", "alice", "transfer", transfer(t, "alice", "alice.x", "1.0000 TOK")); err == nil {
		t.Fatal("a transfer to no account succeeded")
	}
	if !fk.c.AccountExists(antelope.MustName("bob")) { // bob's account fetched, his balance not
		t.Fatal("no bob")
	}
	l.c.FailNext(100, http.StatusBadGateway)
	_, err := pushToken(fk, "eosio.token", "bob", "transfer", transfer(t, "bob", "alice", "1.0000 TOK"))
	wantForkError(t, err, "502")
	l.c.FailNext(0, 0)
	if _, err := pushToken(fk, "eosio.token", "bob", "transfer", transfer(t, "bob", "alice", "1.0000 TOK")); err != nil {
		t.Fatalf("after the network came back: %v", err)
	}
}

// An ABI whose key types are not the contract's: from the state service
// (no index order to check against) the fork refuses the index the
// contract reads as another type, rather than serve it empty.
func TestForkRefusesIndexOfAnotherTypeThanItsABISays(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("wrong")
	abi := strings.Replace(string(multiIndexABI(t, true)), `"key_types":["uint64","uint128"]`, `"key_types":["uint64","uint64"]`, 1)
	abi = strings.Replace(abi, `{"name":"sec","type":"uint128"}`, `{"name":"sec","type":"uint64"}`, 1)
	if strings.Count(abi, `"key_types":["uint64","uint64"]`) != 2 || strings.Count(abi, `{"name":"sec","type":"uint64"}`) != 2 {
		t.Fatalf("indextable3's ABI was not changed: %s", abi)
	}
	if err := w.c.DeployWASM(antelope.MustName("wrong"), contractFile(t, "test_api_multi_index", "wasm"), []byte(abi)); err != nil {
		t.Fatal(err)
	}
	w.mustPush(act("wrong", "s2store", nil, "wrong"))
	l := &liveChain{wasmTester: w, forkBlock: w.c.Produce().Num}
	fk := l.forkOf(t, l.stateFork(t, ""))
	_, err := fk.push(act("wrong", "s2check", nil, "wrong"))
	wantForkError(t, err, "table indextable3 of wrong in scope wrong: secondary index 1 (position 2, idx128)", "the ABI says its keys are idx64 keys")
}

// key_names naming the wrong field: from nodeos the rebuilt order is
// checked against the node's order by the index, and refused.
func TestForkChecksRebuiltIndexAgainstNodeOrder(t *testing.T) {
	w := newWasmTester(t, chaintest.WithManualFinality())
	w.accounts("wrong")
	abi := strings.Replace(string(multiIndexABI(t, true)), `"key_names":["id","sec"]`, `"key_names":["id","id"]`, 1)
	if strings.Count(abi, `"key_names":["id","id"]`) != 1 {
		t.Fatalf("indextable1's ABI was not changed: %s", abi)
	}
	if err := w.c.DeployWASM(antelope.MustName("wrong"), contractFile(t, "test_api_multi_index", "wasm"), []byte(abi)); err != nil {
		t.Fatal(err)
	}
	w.mustPush(act("wrong", "s1store", nil, "wrong"))
	l := &liveChain{wasmTester: w, forkBlock: w.c.Produce().Num}
	w.c.Produce()
	// From nodeos, and from the state service with nodeos's order of the
	// same rows at its head.
	for _, f := range []chaintest.Remote{l.nodeosFork(t, ""), l.stateFork(t, "")} {
		fk := l.forkOf(t, f)
		_, err := fk.push(act("wrong", "s1check", nil, "wrong"))
		wantForkError(t, err, "table indextable1 of wrong in scope wrong: secondary index 1 (position 2, idx64)", "do not give the node's order by that index")
	}
}
