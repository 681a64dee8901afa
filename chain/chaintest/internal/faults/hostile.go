package faults

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
)

// Misbehavior is a way a broken or hostile node answers; chaintest's
// Misbehavior (an alias of this type) documents each one.
type Misbehavior int

// The misbehaviors, as chaintest documents them.
const (
	Pass Misbehavior = iota
	DropBeforeExecuting
	TimeoutBeforeExecuting
	RefuseAsLagging
	RefuseRetryTrx
	TimeoutAfterExecuting
	GatewayErrorAfterExecuting
	CutAfterExecuting
	OtherTransactionID
	LoseAfterExecuting
	SamePage
	NextKeyBackward
	RowsOutOfBounds
	RowsOverLimit
	EmptyPage
)

var misbehaviorNames = map[Misbehavior]string{Pass: "Pass",
	DropBeforeExecuting: "DropBeforeExecuting", TimeoutBeforeExecuting: "TimeoutBeforeExecuting",
	RefuseAsLagging: "RefuseAsLagging", RefuseRetryTrx: "RefuseRetryTrx", TimeoutAfterExecuting: "TimeoutAfterExecuting",
	GatewayErrorAfterExecuting: "GatewayErrorAfterExecuting", CutAfterExecuting: "CutAfterExecuting",
	OtherTransactionID: "OtherTransactionID", LoseAfterExecuting: "LoseAfterExecuting", SamePage: "SamePage", NextKeyBackward: "NextKeyBackward",
	RowsOutOfBounds: "RowsOutOfBounds", RowsOverLimit: "RowsOverLimit", EmptyPage: "EmptyPage",
}

// String is the misbehavior's name.
func (m Misbehavior) String() string {
	if s, ok := misbehaviorNames[m]; ok {
		return s
	}
	return "Misbehavior(" + strconv.Itoa(int(m)) + ")"
}

// Misbehave makes the chain misbehave in way m on the next n requests m
// applies to; n < 0 on every one until Misbehave(m, 0). Several
// misbehaviors can be on at once.
func (f *Injector) Misbehave(m Misbehavior, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hostile == nil {
		f.hostile = map[Misbehavior]int{}
	}
	f.hostile[m] = n
	if m == SamePage {
		f.samePage = nil
	}
}

// MisbehaveInTurn makes the next sends misbehave one step each, in
// order: steps[0] for the next send, steps[1] for the one after… (Pass lets
// one through). A load balancer whose first node executes a transfer and
// loses the answer while the others lag behind is
// MisbehaveInTurn(LoseAfterExecuting, RefuseAsLagging, RefuseAsLagging…).
// The steps come before any Misbehave count; only the transaction
// misbehaviors are steps.
func (f *Injector) MisbehaveInTurn(steps ...Misbehavior) {
	f.mu.Lock()
	f.turns = append([]Misbehavior(nil), steps...)
	f.mu.Unlock()
}

// take reports whether m applies to one more request, counting it.
// The caller holds f.mu.
func (f *Injector) take(m Misbehavior) bool {
	n := f.hostile[m]
	switch {
	case n == 0:
		return false
	case n > 0:
		f.hostile[m] = n - 1
	}
	return true
}

// taking is take with the lock.
func (f *Injector) taking(m Misbehavior) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.take(m)
}

func isSend(path string) bool {
	switch path {
	case "/v1/chain/push_transaction", "/v1/chain/send_transaction", "/v1/chain/send_transaction2":
		return true
	}
	return false
}

// hostileBefore applies the misbehaviors that answer a send before the
// chain sees it; it reports whether the request was answered, and the
// MisbehaveInTurn step for hostileAfter (-1: none).
func (f *Injector) hostileBefore(w http.ResponseWriter, path string, body []byte) (bool, Misbehavior) {
	if !isSend(path) {
		return false, -1
	}
	f.mu.Lock()
	step := Misbehavior(-1)
	if len(f.turns) > 0 {
		step, f.turns = f.turns[0], f.turns[1:]
	}
	is := func(m Misbehavior) bool { return step == m || step < 0 && f.take(m) }
	drop := is(DropBeforeExecuting)
	var status int
	var out any
	switch {
	case drop:
	case is(TimeoutBeforeExecuting):
		status, out = f.answers.Timeout()
	case is(RefuseAsLagging):
		status, out = f.answers.Lagging()
	case path == "/v1/chain/send_transaction2" && bytes.Contains(body, []byte(`"retry_trx":true`)) && is(RefuseRetryTrx):
		status, out = f.answers.RetryUnsupported()
	}
	f.mu.Unlock()
	if drop {
		dropConnection(w)
		return true, step
	}
	if out == nil {
		return false, step
	}
	data, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
	return true, step
}

// hostileAfter rewrites the chain's answer (status and body) for the
// misbehaviors that strike after it handled the request, step being the
// request's MisbehaveInTurn step (-1: none); framed is set when the body
// is to be sent cut but correctly framed, lose when the connection is to
// be dropped instead.
func (f *Injector) hostileAfter(path string, step Misbehavior, status int, body []byte) (_ int, _ []byte, framed, lose bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if path == "/v1/chain/get_table_rows" || path == "/v1/chain/get_table_by_scope" {
		if f.hostile[SamePage] != 0 {
			if first, ok := f.samePage[path]; ok && f.take(SamePage) {
				return http.StatusOK, first, false, false
			}
			if f.samePage == nil {
				f.samePage = map[string][]byte{}
			}
			f.samePage[path] = body
		}
		return status, body, false, false
	}
	if !isSend(path) {
		return status, body, false, false
	}
	is := func(m Misbehavior) bool { return step == m || step < 0 && f.take(m) }
	switch {
	case is(LoseAfterExecuting):
		return status, body, false, true
	case is(TimeoutAfterExecuting):
		s, out := f.answers.Timeout()
		data, _ := json.Marshal(out)
		return s, data, false, false
	case is(GatewayErrorAfterExecuting):
		return http.StatusGatewayTimeout, []byte("<html><body><h1>504 Gateway Time-out</h1></body></html>"), false, false
	case is(CutAfterExecuting):
		return status, body[:len(body)/2], true, false
	case status/100 == 2 && is(OtherTransactionID):
		return status, otherID(body), false, false
	}
	return status, body, false, false
}

// otherID rewrites a transaction answer to name another transaction.
func otherID(body []byte) []byte {
	var a map[string]any
	if json.Unmarshal(body, &a) != nil {
		return body
	}
	id, _ := a["transaction_id"].(string)
	h := sha256.Sum256([]byte(id))
	other := hex.EncodeToString(h[:])
	a["transaction_id"] = other
	if p, ok := a["processed"].(map[string]any); ok {
		p["id"] = other
		traces, _ := p["action_traces"].([]any)
		for _, t := range traces {
			if t, ok := t.(map[string]any); ok {
				t["trx_id"] = other
			}
		}
	}
	data, _ := json.Marshal(a)
	return data
}

// TableRange applies RowsOutOfBounds and RowsOverLimit to a get_table_rows
// page: the range rows[from:to] of n index rows, and the limit.
func (f *Injector) TableRange(from, to, n int, limit uint32) (int, int, uint32) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.take(RowsOutOfBounds) {
		from, to = max(from-1, 0), min(to+1, n)
	}
	if f.take(RowsOverLimit) {
		limit++
	}
	return from, to, limit
}

// TablePage applies EmptyPage and NextKeyBackward to a get_table_rows
// answer: first is the next_key text of the range's first row, before
// that of the row just before the range in read order ("" for none).
func (f *Injector) TablePage(rows *[]any, more *bool, nextKey *string, first, before string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if first != "" && f.take(EmptyPage) {
		*rows, *more, *nextKey = []any{}, true, first
		return
	}
	if *more && before != "" && f.take(NextKeyBackward) {
		*nextKey = before
	}
}

// ScopeMore applies NextKeyBackward to get_table_by_scope's more: before
// is the scope just before the range asked for, in read order.
func (f *Injector) ScopeMore(more, before string) string {
	if more == "" || before == "" || !f.taking(NextKeyBackward) {
		return more
	}
	return before
}
