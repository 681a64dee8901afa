package chaintest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

// More of leap's api_tests.cpp against test_api.wasm (see
// wasm_testapi_test.go for the helpers and the list of what is replayed).

// nodeTrace is one action trace as the node returns it in "processed".
type nodeTrace struct {
	Ordinal  uint32 `json:"action_ordinal"`
	Creator  uint32 `json:"creator_action_ordinal"`
	Closest  uint32 `json:"closest_unnotified_ancestor_action_ordinal"`
	Receiver string `json:"receiver"`
	Act      struct {
		Account       string                     `json:"account"`
		Name          string                     `json:"name"`
		Authorization []antelope.PermissionLevel `json:"authorization"`
		Data          string                     `json:"hex_data"`
	} `json:"act"`
	Receipt *struct {
		ActDigest      string `json:"act_digest"`
		GlobalSequence uint64 `json:"global_sequence"`
	} `json:"receipt"`
	Except *struct {
		Code int64 `json:"code"`
	} `json:"except"`
	Return    string    `json:"return_value_hex_data"`
	ErrorCode *fcUint64 `json:"error_code"`
}

// fcUint64 is a uint64 as nodeos's fc prints it: a number up to
// 0xffffffff, a string above.
type fcUint64 struct {
	v      uint64
	quoted bool
}

func (u *fcUint64) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := strconv.ParseUint(s, 10, 64)
		*u = fcUint64{v, true}
		return err
	}
	return json.Unmarshal(b, &u.v)
}

// processedTraces reads the action traces of a node's "processed".
func processedTraces(t *testing.T, processed []byte) []nodeTrace {
	t.Helper()
	var p struct {
		ActionTraces []nodeTrace `json:"action_traces"`
	}
	if err := json.Unmarshal(processed, &p); err != nil {
		t.Fatal(err)
	}
	return p.ActionTraces
}

// leapActDigest is the act_digest leap's action_ordinal_test recomputes
// (its "pad"): sha256 of sha256(packed action_base) and sha256(packed
// data, packed return value).
func leapActDigest(t *testing.T, tr nodeTrace, ret []byte) string {
	t.Helper()
	data, err := hex.DecodeString(tr.Act.Data)
	if err != nil {
		t.Fatal(err)
	}
	base := antelope.AppendUint64(nil, uint64(antelope.MustName(tr.Act.Account)))
	base = antelope.AppendUint64(base, uint64(antelope.MustName(tr.Act.Name)))
	base = antelope.AppendVarUint32(base, uint32(len(tr.Act.Authorization)))
	for _, l := range tr.Act.Authorization {
		base = antelope.AppendUint64(base, uint64(l.Actor))
		base = antelope.AppendUint64(base, uint64(l.Permission))
	}
	payload := append(antelope.AppendVarUint32(nil, uint32(len(data))), data...)
	payload = append(antelope.AppendVarUint32(payload, uint32(len(ret))), ret...)
	h1, h2 := sha256.Sum256(base), sha256.Sum256(payload)
	d := sha256.Sum256(append(h1[:], h2[:]...))
	return hex.EncodeToString(d[:])
}

// ordinalTrace is what leap's action_ordinal tests expect of one trace:
// gseq is the global sequence after the first action's, -1 for an action
// not executed (no receipt).
type ordinalTrace struct {
	creator, closest  uint32
	receiver, account string
	method            string
	ret               []byte
	gseq              int
	except            bool
}

func packString(s string) []byte { return append(antelope.AppendVarUint32(nil, uint32(len(s))), s...) }

// ordinalTraces is the transaction test_action_ordinal1 makes: testapi
// notifies bob and charlie and sends test_action_ordinal2 and 3; bob
// notifies david and sends foo; charlie sends bar; test_action_ordinal2
// notifies david and erin and sends test_action_ordinal4. Ordinals are in
// scheduling order, global sequences in execution order.
func ordinalTraces() []ordinalTrace {
	f64 := antelope.AppendUint64(nil, math.Float64bits(13.23))
	f32 := antelope.AppendUint32(nil, math.Float32bits(11.42))
	return []ordinalTrace{
		{0, 0, "testapi", "testapi", "test_action_ordinal1", []byte{1}, 0, false},
		{1, 1, "bob", "testapi", "test_action_ordinal1", packString("bob"), 1, false},
		{1, 1, "testapi", "testapi", "test_action_ordinal2", antelope.AppendUint64(nil, uint64(antelope.MustName("five"))), 4, false},
		{1, 1, "testapi", "testapi", "test_action_ordinal3", []byte{9}, 8, false},
		{1, 1, "charlie", "testapi", "test_action_ordinal1", packString("charlie"), 2, false},
		{2, 1, "bob", "bob", "test_action_ordinal_foo", f64, 9, false},
		{2, 1, "david", "testapi", "test_action_ordinal1", packString("david"), 3, false},
		{5, 1, "charlie", "charlie", "test_action_ordinal_bar", f32, 10, false},
		{3, 3, "david", "testapi", "test_action_ordinal2", []byte{1}, 5, false},
		{3, 3, "erin", "testapi", "test_action_ordinal2", []byte{14}, 6, false}, // signed_int(7), zigzag
		{3, 3, "testapi", "testapi", "test_action_ordinal4", nil, 7, false},
	}
}

// checkOrdinalTraces compares a node's traces with want, in order.
func checkOrdinalTraces(t *testing.T, got []nodeTrace, want []ordinalTrace) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d action traces, want %d: %+v", len(got), len(want), got)
	}
	var start uint64
	for i, w := range want {
		g := got[i]
		if g.Ordinal != uint32(i+1) || g.Creator != w.creator || g.Closest != w.closest ||
			g.Receiver != w.receiver || g.Act.Account != w.account || g.Act.Name != testMethod("test_action", w.method).String() {
			t.Errorf("trace %d: ordinal %d creator %d closest %d, %s receives %s::%s; want %d %d %d, %s receives %s::%s",
				i, g.Ordinal, g.Creator, g.Closest, g.Receiver, g.Act.Account, g.Act.Name,
				i+1, w.creator, w.closest, w.receiver, w.account, testMethod("test_action", w.method))
		}
		if (g.Except != nil) != w.except || g.Except != nil && g.Except.Code != 3050003 {
			t.Errorf("trace %d: except %+v, want one (eosio_assert_message_exception): %v", i, g.Except, w.except)
		}
		if w.gseq < 0 {
			// nodeos moves the return value into the trace only when the
			// action completes: one that failed after setting it has none.
			if g.Receipt != nil || g.Return != "" {
				t.Errorf("trace %d: a receipt %+v or return value %q for an action not executed", i, g.Receipt, g.Return)
			}
			continue
		}
		if g.Receipt == nil {
			t.Errorf("trace %d: no receipt", i)
			continue
		}
		if i == 0 {
			start = g.Receipt.GlobalSequence
		}
		if g.Receipt.GlobalSequence != start+uint64(w.gseq) {
			t.Errorf("trace %d: global sequence %d, want %d+%d", i, g.Receipt.GlobalSequence, start, w.gseq)
		}
		if ret, _ := hex.DecodeString(g.Return); !bytes.Equal(ret, w.ret) {
			t.Errorf("trace %d: return value %x, want %x", i, ret, w.ret)
		}
		if d := leapActDigest(t, g, w.ret); g.Receipt.ActDigest != d {
			t.Errorf("trace %d: act_digest %s, want %s", i, g.Receipt.ActDigest, d)
		}
	}
}

// newOrdinalTester is leap's action_ordinal fixture: test_api.wasm on
// testapi, bob, charlie, david and erin, and the accounts named.
func newOrdinalTester(t *testing.T, accounts ...string) testAPI {
	w := newTestAPI(t, append([]string{"bob", "charlie", "david", "erin"}, accounts...)...)
	for _, n := range []string{"bob", "charlie", "david", "erin"} {
		w.deploy(n, "test_api")
	}
	w.c.Produce()
	return w
}

func TestLeapActionOrdinalTest(t *testing.T) {
	w := newOrdinalTester(t)
	res := w.mustCall("test_action", "test_action_ordinal1", nil)
	checkOrdinalTraces(t, processedTraces(t, res.Processed), ordinalTraces())
	// chain.TransactResult's own view agrees.
	for i, a := range res.Actions {
		if a.ActionOrdinal != uint32(i+1) || a.CreatorActionOrdinal != ordinalTraces()[i].creator {
			t.Errorf("Actions[%d]: ordinal %d creator %d", i, a.ActionOrdinal, a.CreatorActionOrdinal)
		}
	}
}

// failureTrace sends testapi's cls::method with send_transaction2 and
// return_failure_trace, as leap's CALL_TEST_FUNCTION_NO_THROW returns the
// trace of a failed transaction: the node answers with the trace, its
// "except" set.
func (w testAPI) failureTrace(cls, method string, data []byte) (except int64, traces []nodeTrace, errorCode *fcUint64) {
	w.t.Helper()
	ctx := w.t.Context()
	testapi := antelope.MustName("testapi")
	a := antelope.Action{Account: testapi, Name: testMethod(cls, method),
		Authorization: []antelope.PermissionLevel{antelope.Active(testapi)}, Data: data}
	tx, chainID, err := w.cl.BuildTransaction(ctx, a)
	if err != nil {
		w.t.Fatal(err)
	}
	signed, err := w.cl.Sign(ctx, w.keys[testapi], chainID, tx)
	if err != nil {
		w.t.Fatal(err)
	}
	packed, err := signed.Pack(antelope.CompressionNone)
	if err != nil {
		w.t.Fatal(err)
	}
	body, err := w.cl.Call(ctx, "/v1/chain/send_transaction2",
		map[string]any{"return_failure_trace": true, "retry_trx": false, "transaction": packed})
	if err != nil {
		w.t.Fatal(err)
	}
	var answer struct {
		Processed json.RawMessage `json:"processed"`
	}
	var processed struct {
		Except *struct {
			Code int64 `json:"code"`
		} `json:"except"`
		ErrorCode *fcUint64 `json:"error_code"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		w.t.Fatal(err)
	}
	if err := json.Unmarshal(answer.Processed, &processed); err != nil {
		w.t.Fatal(err)
	}
	if processed.Except == nil {
		w.t.Fatalf("%s::%s did not fail: %s", cls, method, body)
	}
	w.c.Produce()
	return processed.Except.Code, processedTraces(w.t, answer.Processed), processed.ErrorCode
}

// ordinalFailure runs test_action_ordinal1 with the account that makes
// it fail, and returns the failure trace's action traces; the exception
// is the contract's assertion.
func ordinalFailure(t *testing.T, failAccount string) []nodeTrace {
	t.Helper()
	w := newOrdinalTester(t, failAccount)
	code, traces, _ := w.failureTrace("test_action", "test_action_ordinal1", nil)
	if code != 3050003 {
		t.Errorf("except code %d, want 3050003", code)
	}
	return traces
}

// action_ordinal_failtest1: testapi fails (fail1 exists) after notifying
// bob and sending test_action_ordinal2: the failed action's trace has the
// exception and no receipt, and those it scheduled are there, unexecuted.
func TestLeapActionOrdinalFailtest1(t *testing.T) {
	want := ordinalTraces()[:3]
	want[0].gseq, want[0].except = -1, true
	want[1].gseq, want[2].gseq = -1, -1
	checkOrdinalTraces(t, ordinalFailure(t, "fail1"), want)
}

// action_ordinal_failtest2: charlie's notification fails (fail3 exists),
// after testapi and bob ran.
func TestLeapActionOrdinalFailtest2(t *testing.T) {
	want := ordinalTraces()[:8]
	for i := 2; i < 8; i++ {
		want[i].gseq = -1
	}
	want[4].except = true
	checkOrdinalTraces(t, ordinalFailure(t, "fail3"), want)
}

// action_ordinal_failtest3: test_action_ordinal3 fails (failnine exists),
// after everything but foo and bar ran.
func TestLeapActionOrdinalFailtest3(t *testing.T) {
	want := ordinalTraces()
	want[3].gseq, want[3].except = -1, true
	want[5].gseq, want[7].gseq = -1, -1
	checkOrdinalTraces(t, ordinalFailure(t, "failnine"), want)
}

// watModule reads testdata/wat/<name>.wasm, which wat2wasm made from
// <name>.wat beside it (leap's tests write these contracts in WAST).
func watModule(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "wat", name+".wasm"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// setcodeAct is eosio::setcode of account to code (none clears it).
func setcodeAct(account string, code []byte) antelope.Action {
	data := append(packName(nil, account), 0, 0) // vmtype, vmversion
	data = append(antelope.AppendVarUint32(data, uint32(len(code))), code...)
	return act("eosio", "setcode", data, account)
}

// leap's get_code_hash_tests: gethash's action, named for an account,
// prints get_code_hash of it — the size of its answer, struct_version 0,
// the code sequence (each setcode counts, clearing too), the code's
// sha256 (zeros without code), vm_type and vm_version 0.
func TestLeapGetCodeHashTests(t *testing.T) {
	w := testAPI{newWasmTester(t)}
	w.c.ProduceBlocks(2)
	w.accounts("gethash", "test")
	gethash := watModule(t, "get_code_hash")
	w.mustPush(setcodeAct("gethash", gethash))
	w.c.Produce()
	check := func(account string, seq uint64, code []byte) {
		t.Helper()
		hash := make([]byte, 32)
		if len(code) > 0 {
			h := sha256.Sum256(code)
			hash = h[:]
		}
		want := "43:0:" + strconv.FormatUint(seq, 10) + ":" + hex.EncodeToString(hash) + ":0:0"
		res := w.mustPush(act("gethash", account, nil, "gethash"))
		if got := console(t, res); got != want {
			t.Errorf("%s: console %q, want %q", account, got, want)
		}
		w.c.Produce()
	}
	check("gethash", 1, gethash)
	check("nonexisting", 0, nil)
	check("test", 0, nil)
	testAPIWasm := contractFile(t, "test_api", "wasm")
	w.mustPush(setcodeAct("test", testAPIWasm))
	check("test", 1, testAPIWasm)
	w.mustPush(setcodeAct("test", gethash))
	check("test", 2, gethash)
	w.mustPush(setcodeAct("test", nil))
	check("test", 3, nil)
}

// leap's db_notify_tests: a contract that stores rows in its own tables
// and finds them again, at its receiver and at the account it notifies
// (the same contract): each receiver's iterators are its own tables',
// numbered on from those of the receivers before it.
func TestLeapDBNotifyTests(t *testing.T) {
	w := testAPI{newWasmTester(t)}
	w.accounts("notifier", "notified")
	code := watModule(t, "db_notify")
	w.mustPush(setcodeAct("notifier", code))
	w.mustPush(setcodeAct("notified", code))
	res := w.mustPush(act("notifier", "", nil, "notifier"))
	var got []string
	for _, a := range res.Actions {
		got = append(got, a.Receiver.String())
	}
	if len(got) != 2 || got[0] != "notifier" || got[1] != "notified" {
		t.Fatalf("receivers %q, want notifier, notified", got)
	}
}

// The rest of leap's eosio_assert_code_tests: a failed transaction's trace
// has the error code, at the transaction and at the action that failed —
// eosio_assert_code's own, or contract_restricted_error_code for one the
// chain reserves; any other chain exception has generic_system_error.
func TestLeapAssertCodeErrorCode(t *testing.T) {
	w := newTestAPI(t)
	for _, c := range []struct {
		method string
		arg    uint64
		code   int64
		want   uint64
	}{
		{"test_assert_code", 42, 3050004, 42},
		{"test_assert_code", 10000000000000000000, 3050011, 10000000000000000001},
		{"assert_false", 0, 3050003, 10000000000000000000},
	} {
		var data []byte
		if c.method == "test_assert_code" {
			data = antelope.AppendUint64(nil, c.arg)
		}
		code, traces, errorCode := w.failureTrace("test_action", c.method, data)
		if code != c.code {
			t.Errorf("%s(%d): except code %d, want %d", c.method, c.arg, code, c.code)
		}
		wantCode := func(where string, got *fcUint64) {
			t.Helper()
			if got == nil || got.v != c.want || got.quoted != (c.want > 0xffffffff) {
				t.Errorf("%s(%d): %s error_code %+v, want %d", c.method, c.arg, where, got, c.want)
			}
		}
		wantCode("transaction", errorCode)
		if len(traces) != 1 || traces[0].Except == nil {
			t.Fatalf("%s(%d): traces %+v", c.method, c.arg, traces)
		}
		wantCode("action", traces[0].ErrorCode)
	}
	// An executed action has none.
	res := w.mustCall("test_action", "assert_true", nil)
	if tr := processedTraces(t, res.Processed); len(tr) != 1 || tr[0].ErrorCode != nil {
		t.Errorf("executed: %+v", tr)
	}
}

// sendPacked builds testapi's cls::method (authorized by testapi@active),
// lets fill set its data from the transaction's header, signs it, and
// sends it by send_transaction2 with extra bytes after the packed
// transaction; it returns the transaction's id and the call's answer.
func (w testAPI) sendPacked(cls, method string, fill func(*antelope.Transaction) []byte, extra []byte) (antelope.Checksum256, []byte, error) {
	w.t.Helper()
	ctx := w.t.Context()
	testapi := antelope.MustName("testapi")
	tx, chainID, err := w.cl.BuildTransaction(ctx, antelope.Action{Account: testapi, Name: testMethod(cls, method),
		Authorization: []antelope.PermissionLevel{antelope.Active(testapi)}})
	if err != nil {
		w.t.Fatal(err)
	}
	if fill != nil {
		tx.Actions[0].Data = fill(tx)
	}
	signed, err := w.cl.Sign(ctx, w.keys[testapi], chainID, tx)
	if err != nil {
		w.t.Fatal(err)
	}
	id, err := signed.ID()
	if err != nil {
		w.t.Fatal(err)
	}
	packed, err := signed.Pack(antelope.CompressionNone)
	if err != nil {
		w.t.Fatal(err)
	}
	packed.PackedTrx = append(packed.PackedTrx, extra...)
	body, err := w.cl.Call(ctx, "/v1/chain/send_transaction2",
		map[string]any{"return_failure_trace": false, "retry_trx": false, "transaction": packed})
	w.c.Produce()
	return id, body, err
}

// leap's transaction_tests as transaction_tests_after_disable_trxs_protocol_features
// runs them (deferred transactions disabled, so send_transaction is a
// no-op and the deferred cases are skipped).
func TestLeapTransactionTests(t *testing.T) {
	// send_many_actions_512k runs for seconds, near chaintest's default
	// 5 s deadline on a loaded machine; leap's tester has no such limit.
	w := newTestAPIWith(t, []chaintest.Option{chaintest.WithDeadline(time.Minute)})

	// An action with no authorization.
	noAuth := antelope.Action{Account: antelope.MustName("testapi"), Name: testMethod("test_action", "require_auth"),
		Authorization: []antelope.PermissionLevel{}}
	_, err := w.cl.Transact(t.Context(), antelope.PrivateKeys{w.keys[antelope.MustName("testapi")]}, noAuth)
	wantExceptionContains(t, err, "tx_no_auths", "transaction must have at least one authorization")

	methods := []string{"send_action", "send_action_empty", "send_action_512k", "send_many_actions_512k", "send_transaction"}
	if testing.Short() || raceEnabled {
		// 65 inline send_action_512k, each building a 512 KiB action
		// byte by byte in wasm: 5 s alone (a tenth of the README's short
		// run's tests), 30 s under the race detector. CI runs it on its
		// own (.ci/run).
		methods = slices.DeleteFunc(methods, func(m string) bool { return m == "send_many_actions_512k" })
	}
	for _, m := range methods {
		w.mustCall("test_transaction", m, nil)
	}
	_, err = w.call("test_transaction", "send_action_large", nil)
	wantException(t, err, "inline_action_too_big", "inline action too big")
	_, err = w.call("test_transaction", "send_action_inline_fail", nil)
	wantAssert(t, err, "test_action::assert_false")

	// The packed transaction of one action with 4 bytes of data.
	if got := console(t, w.mustCall("test_transaction", "test_transaction_size", antelope.AppendUint32(nil, 54))); got != "size: 54" {
		t.Errorf("test_transaction_size printed %q", got)
	}
	res := w.mustCall("test_transaction", "test_read_transaction", nil)
	if got := console(t, res); got != res.ID.String() {
		t.Errorf("test_read_transaction printed %q, want the id %s", got, res.ID)
	}
	// TAPoS: the reference block's number (low 16 bits) and prefix.
	_, _, err = w.sendPacked("test_transaction", "test_tapos_block_num", func(tx *antelope.Transaction) []byte {
		return antelope.AppendUint32(nil, uint32(tx.RefBlockNum))
	}, nil)
	if err != nil {
		t.Errorf("test_tapos_block_num: %v", err)
	}
	_, _, err = w.sendPacked("test_transaction", "test_tapos_block_prefix", func(tx *antelope.Transaction) []byte {
		return antelope.AppendUint32(nil, tx.RefBlockPrefix)
	}, nil)
	if err != nil {
		t.Errorf("test_tapos_block_prefix: %v", err)
	}
	_, err = w.call("test_transaction", "send_action_recurse", nil)
	wantException(t, err, "transaction_exception", "max inline action depth per transaction reached")

	// Bytes after the packed transaction are ignored: read_transaction
	// gives the transaction alone, whose sha256 is the id.
	id, body, err := w.sendPacked("test_transaction", "test_read_transaction", nil, []byte("77"))
	if err != nil {
		t.Fatalf("with extra bytes: %v", err)
	}
	var answer struct {
		Processed json.RawMessage `json:"processed"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		t.Fatal(err)
	}
	var processed struct {
		ActionTraces []struct {
			Console string `json:"console"`
		} `json:"action_traces"`
	}
	if err := json.Unmarshal(answer.Processed, &processed); err != nil {
		t.Fatal(err)
	}
	if len(processed.ActionTraces) == 0 || processed.ActionTraces[0].Console != id.String() {
		t.Errorf("with extra bytes: traces %+v, want the console %s", processed.ActionTraces, id)
	}
}
