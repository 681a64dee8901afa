package exec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// The answer to a transaction once was maps encoded by encoding/json; it
// is now written straight into bytes (tracejson.go). The maps are kept
// here as the reference: random traces — executed and failed, notified
// and inline actions, RAM deltas, receipts, consoles with HTML, control
// characters, U+2028 and invalid UTF-8, exceptions with error codes —
// must give the same bytes both ways.

// refTracesJSON is the action traces as nodeos returns them: by action
// ordinal (the order actions were scheduled), each with its receipt's
// global sequence in execution order.
func (t *TrxContext) refTracesJSON() []map[string]any {
	out := make([]map[string]any, 0, len(t.Traces))
	for _, tr := range t.Traces {
		out = append(out, tr.refJSON(t))
	}
	return out
}

func (tr *ActionTrace) refJSON(t *TrxContext) map[string]any {
	a := tr.Action
	auth := a.Authorization
	if auth == nil {
		auth = []antelope.PermissionLevel{}
	}
	data := hex.EncodeToString(a.Data)
	deltas := []any{}
	names := make([]antelope.Name, 0, len(tr.RAMDeltas))
	for n, d := range tr.RAMDeltas {
		if d != 0 {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		deltas = append(deltas, map[string]any{"account": n.String(), "delta": tr.RAMDeltas[n]})
	}
	var receipt, except, errorCode any // an action not executed has neither
	if tr.GlobalSeq != 0 {
		receipt = tr.refReceiptJSON()
	}
	if tr.failed && t.Failure != nil {
		except, errorCode = refExceptJSON(t.Failure), errorCodeJSON(t.Failure)
	}
	return map[string]any{
		"action_ordinal": tr.Ordinal, "creator_action_ordinal": tr.Creator, "closest_unnotified_ancestor_action_ordinal": tr.closestUnnotified,
		"receipt":  receipt,
		"receiver": tr.Receiver.String(),
		"act": map[string]any{"account": a.Account.String(), "name": a.Name.String(), "authorization": auth,
			"data": data, "hex_data": data},
		"context_free": tr.ContextFree, "elapsed": tr.Elapsed.Microseconds(), "console": tr.Console.String(), "trx_id": t.ID,
		"block_num": t.blockNum, "block_time": timeText(t.blockTime), "producer_block_id": nil, "account_ram_deltas": deltas,
		"except": except, "error_code": errorCode, "return_value_hex_data": hex.EncodeToString(tr.ReturnValue),
	}
}

// refTraceJSON is the transaction trace nodeos returns as "processed"; a
// failed one carries the exception in "except".
func refTraceJSON(id antelope.Checksum256, blockNum uint32, blockTime time.Time, actions []map[string]any, ex *Exception) map[string]any {
	if actions == nil {
		actions = []map[string]any{}
	}
	var except, receipt any // an executed transaction's receipt: setReceipt
	if ex != nil {
		except = refExceptJSON(ex)
	}
	return map[string]any{"id": id, "block_num": blockNum, "block_time": timeText(blockTime), "producer_block_id": nil,
		"receipt": receipt, "elapsed": 100, "net_usage": 128, "scheduled": false, "action_traces": actions,
		"account_ram_delta": nil, "except": except, "error_code": errorCodeJSON(ex)}
}

// refExceptJSON is an exception as a trace's "except".
func refExceptJSON(ex *Exception) map[string]any {
	stack := []any{}
	for _, d := range append([]string{ex.detail}, ex.more...) {
		stack = append(stack, map[string]any{"context": map[string]any{"level": "error", "file": "chaintest", "line": 1, "method": ex.name},
			"format": d, "data": map[string]any{}})
	}
	return map[string]any{"code": ex.code, "name": ex.name, "message": ex.what, "stack": stack}
}

// refReceiptJSON is the receipt as nodeos prints it in a trace.
func (tr *ActionTrace) refReceiptJSON() map[string]any {
	auth := make([]any, 0, len(tr.Seq.Auth))
	for _, a := range tr.Seq.Auth {
		auth = append(auth, []any{a.Account.String(), a.Seq})
	}
	return map[string]any{"receiver": tr.Receiver.String(), "act_digest": tr.Seq.Digest,
		"global_sequence": tr.GlobalSeq, "recv_sequence": tr.Seq.Recv, "auth_sequence": auth,
		"code_sequence": tr.Seq.Code, "abi_sequence": tr.Seq.ABI}
}

// refAnswer is the answer as the maps gave it.
func refAnswer(id antelope.Checksum256, blockNum uint32, blockTime time.Time, trx *TrxContext, ex *Exception) []byte {
	var processed map[string]any
	if ex != nil {
		var actions []map[string]any
		if trx != nil {
			actions = trx.refTracesJSON()
		}
		processed = refTraceJSON(id, blockNum, blockTime, actions, ex)
	} else {
		processed = refTraceJSON(id, blockNum, blockTime, trx.refTracesJSON(), nil)
		trx.setReceipt(processed)
	}
	b, _ := json.Marshal(map[string]any{"transaction_id": id, "processed": processed})
	return b
}

var consoles = []string{"", "hello", "a<b>&c", "quote\"back\\slash", "tab\tnew\nline\r", "\x00\x01\x1f\x7f",
	"caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf8 \xc3", "\u0085 C1", strings.Repeat("x", 300)}

func randomName(rng *rand.Rand) antelope.Name {
	if rng.IntN(4) == 0 {
		return antelope.Name(rng.Uint64()) // any uint64, even one that prints oddly
	}
	return antelope.MustName([]string{"alice", "bob", "eosio.token", "eosio", "a.b.c", "zzzzzzzzzzzzj", "1"}[rng.IntN(7)])
}

func randomBytes(rng *rand.Rand) []byte {
	if rng.IntN(3) == 0 {
		return nil
	}
	b := make([]byte, rng.IntN(40))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func randomException(rng *rand.Rand) *Exception {
	ex := &Exception{code: int64(rng.IntN(4_000_000)), name: "eosio_assert_message_exception", what: consoles[rng.IntN(len(consoles))],
		detail: consoles[rng.IntN(len(consoles))]}
	if rng.IntN(2) == 0 {
		ex.more = []string{consoles[rng.IntN(len(consoles))], "goroutine 1 [running]:\n\tmain.go:1"}
	}
	switch rng.IntN(3) {
	case 0:
		c := rng.Uint64() >> rng.IntN(64)
		ex.errorCode = &c
	case 1:
		ex.code = 3050003
	}
	return ex
}

func randomTrx(rng *rand.Rand) *TrxContext {
	t := &TrxContext{ID: antelope.Checksum256{byte(rng.Uint32()), 2, 3}, blockNum: rng.Uint32(),
		blockTime: time.UnixMilli(rng.Int64N(4_000_000_000_000)), cpu: rng.Int64N(100_000), net: rng.Int64N(1 << 20)}
	for i := range rng.IntN(6) {
		tr := &ActionTrace{Ordinal: uint32(i + 1), Creator: uint32(rng.IntN(i + 1)), closestUnnotified: uint32(rng.IntN(i + 1)),
			Receiver: randomName(rng), ContextFree: rng.IntN(5) == 0, ReturnValue: randomBytes(rng),
			Elapsed: time.Duration(rng.Int64N(int64(time.Second)))}
		tr.Action = antelope.Action{Account: randomName(rng), Name: randomName(rng), Data: randomBytes(rng)}
		for range rng.IntN(3) {
			tr.Action.Authorization = append(tr.Action.Authorization, antelope.PermissionLevel{Actor: randomName(rng), Permission: randomName(rng)})
		}
		tr.Console.WriteString(consoles[rng.IntN(len(consoles))])
		if rng.IntN(2) == 0 {
			tr.RAMDeltas = map[antelope.Name]int64{}
			for range rng.IntN(4) {
				tr.RAMDeltas[randomName(rng)] = rng.Int64N(2000) - 1000
			}
			tr.RAMDeltas[randomName(rng)] = 0 // a zero delta is left out
		}
		if rng.IntN(4) != 0 {
			tr.GlobalSeq = rng.Uint64N(1 << 40)
			tr.Seq = receiptSeqs{Recv: rng.Uint64(), Code: rng.Uint64N(9), ABI: rng.Uint64N(9), Digest: antelope.Checksum256{byte(i)}}
			for range rng.IntN(3) {
				tr.Seq.Auth = append(tr.Seq.Auth, authSeq{randomName(rng), rng.Uint64()})
			}
		}
		t.Traces = append(t.Traces, tr)
	}
	return t
}

func TestAnswerBytesAsTheMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	n := 800
	if testing.Short() {
		n = 200
	}
	for i := range n {
		trx := randomTrx(rng)
		var ex *Exception
		switch rng.IntN(3) {
		case 0:
			ex = randomException(rng)
			if len(trx.Traces) > 0 {
				trx.Traces[rng.IntN(len(trx.Traces))].failed = true
				trx.Failure = ex
			}
			if rng.IntN(3) == 0 {
				trx = nil // refused before running
			}
		case 1:
			if len(trx.Traces) == 0 {
				continue
			}
		}
		if ex == nil && trx == nil {
			continue
		}
		id := antelope.Checksum256{9, byte(i)}
		if trx != nil {
			id = trx.ID
		}
		bn, bt := uint32(i), time.Unix(1_700_000_000, int64(i)*500_000_000)
		want := refAnswer(id, bn, bt, trx, ex)
		got, start, end := AppendAnswer(nil, id, bn, bt, trx, ex)
		if !bytes.Equal(got, want) {
			at := 0
			for at < min(len(got), len(want)) && got[at] == want[at] {
				at++
			}
			t.Fatalf("case %d: the bytes differ at %d:\n got %s\nwant %s", i, at, got[max(at-80, 0):min(at+80, len(got))], want[max(at-80, 0):min(at+80, len(want))])
		}
		var top struct{ Processed json.RawMessage }
		if err := json.Unmarshal(got, &top); err != nil || !bytes.Equal(top.Processed, got[start:end]) {
			t.Fatalf("case %d: the trace is not at [%d:%d] (%v)", i, start, end, err)
		}
	}
}
