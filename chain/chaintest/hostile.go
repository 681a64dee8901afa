package chaintest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
)

// Misbehavior is a way a broken or hostile node answers: what a load
// balancer over nodes at different heights, a cache that ignores the POST
// body, a proxy, or nodeos's own time limits do. Misbehave injects them so
// that a client's defences — chain.Client's, and yours — can be tested
// against them. Each one says which requests it applies to.
type Misbehavior int

// The transaction misbehaviors apply to sends (push_transaction,
// send_transaction, send_transaction2). Those "before executing" answer
// without the chain seeing the transaction; those "after executing" let
// the chain handle it (executing it if it passes its checks) and then
// replace the answer.
const (
	// DropBeforeExecuting drops the connection before the chain sees the
	// request: nothing is executed, and no answer comes.
	DropBeforeExecuting Misbehavior = iota + 1
	// TimeoutBeforeExecuting answers nodeos's timeout_exception (HTTP 500)
	// without executing anything: the request waited past
	// http-max-response-time-ms in the node's queue.
	TimeoutBeforeExecuting
	// RefuseAsLagging refuses the transaction with
	// invalid_ref_block_exception before executing it: a node behind the
	// load balancer that has not yet seen the reference block.
	RefuseAsLagging
	// RefuseRetryTrx refuses send_transaction2 with retry_trx with
	// unsupported_feature before executing anything, as a node with
	// transaction-retry-max-storage-size-gb 0 does (nodeos's default).
	// Sends without retry_trx pass.
	RefuseRetryTrx
	// TimeoutAfterExecuting answers nodeos's timeout_exception (HTTP 500)
	// after the chain handled the send: nodeos timed out writing the
	// answer of a transaction it executed.
	TimeoutAfterExecuting
	// GatewayErrorAfterExecuting answers a proxy's 504 Gateway Timeout
	// (an HTML page) after the chain handled the send.
	GatewayErrorAfterExecuting
	// CutAfterExecuting answers with the first half of the chain's answer,
	// correctly framed (its Content-Length is the half's): the body reads
	// without error, and is not JSON.
	CutAfterExecuting
	// OtherTransactionID answers with the chain's answer rewritten to name
	// another transaction id: a cache, or a proxy mixing answers up.
	OtherTransactionID
	// LoseAfterExecuting drops the connection after the chain handled the
	// send: LoseNextAnswers for sends only.
	LoseAfterExecuting

	// SamePage answers every get_table_rows and get_table_by_scope request
	// with the first answer it gave to that endpoint after Misbehave,
	// whatever the request asks: a cache that ignores the POST body.
	SamePage
	// NextKeyBackward makes a page with more name the row just before the
	// range asked for (just after it in reverse) as next_key — backwards —
	// when there is one (get_table_rows, and get_table_by_scope's more).
	NextKeyBackward
	// RowsOutOfBounds adds to each get_table_rows page the rows just
	// outside the bounds asked for: the one before the lower bound and the
	// one after the upper bound, where they exist.
	RowsOutOfBounds
	// RowsOverLimit returns one row more than the limit asked for
	// (get_table_rows).
	RowsOverLimit
	// EmptyPage answers get_table_rows with no row, more and next_key the
	// first row of the range asked for: what nodeos answers when its time
	// limit strikes before the first row.
	EmptyPage
)

// Pass is no misbehavior: a step of MisbehaveInTurn that lets one send
// through unharmed.
const Pass Misbehavior = 0

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
func (c *Chain) Misbehave(m Misbehavior, n int) {
	c.faults.mu.Lock()
	defer c.faults.mu.Unlock()
	if c.faults.hostile == nil {
		c.faults.hostile = map[Misbehavior]int{}
	}
	c.faults.hostile[m] = n
	if m == SamePage {
		c.faults.samePage = nil
	}
}

// MisbehaveInTurn makes the next sends misbehave one step each, in
// order: steps[0] for the next send, steps[1] for the one after… (Pass lets
// one through). A load balancer whose first node executes a transfer and
// loses the answer while the others lag behind is
// MisbehaveInTurn(LoseAfterExecuting, RefuseAsLagging, RefuseAsLagging…).
// The steps come before any Misbehave count; only the transaction
// misbehaviors are steps.
func (c *Chain) MisbehaveInTurn(steps ...Misbehavior) {
	c.faults.mu.Lock()
	c.faults.turns = append([]Misbehavior(nil), steps...)
	c.faults.mu.Unlock()
}

// take reports whether m applies to one more request, counting it.
// The caller holds f.mu.
func (f *faults) take(m Misbehavior) bool {
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
func (f *faults) taking(m Misbehavior) bool {
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
func (f *faults) hostileBefore(w http.ResponseWriter, path string, body []byte) (bool, Misbehavior) {
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
		status, out = timeoutAnswer()
	case is(RefuseAsLagging):
		status, out = errRefBlock("Transaction's reference block did not match. Is this transaction from a different fork? (the node has not seen it)").answer()
	case path == "/v1/chain/send_transaction2" && bytes.Contains(body, []byte(`"retry_trx":true`)) && is(RefuseRetryTrx):
		status, out = nodeosError(500, "Internal Service Error", 3100008, "unsupported_feature", "Feature is currently unsupported",
			"Transaction retry not enabled on node. transaction-retry-max-storage-size-gb is 0")
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

// timeoutAnswer is nodeos's answer when its HTTP deadline strikes
// (fc::timeout_exception).
func timeoutAnswer() (int, any) {
	return nodeosError(500, "Internal Service Error", 2, "timeout_exception", "Timeout",
		"deadline exceeded (http-max-response-time-ms)")
}

// hostileAfter rewrites the chain's answer (status and body) for the
// misbehaviors that strike after it handled the request, step being the
// request's MisbehaveInTurn step (-1: none); framed is set when the body
// is to be sent cut but correctly framed, lose when the connection is to
// be dropped instead.
func (f *faults) hostileAfter(path string, step Misbehavior, status int, body []byte) (_ int, _ []byte, framed, lose bool) {
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
		s, out := timeoutAnswer()
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

// tableRange applies RowsOutOfBounds and RowsOverLimit to a get_table_rows
// page: the range rows[from:to] of n index rows, and the limit.
func (f *faults) tableRange(from, to, n int, limit uint32) (int, int, uint32) {
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

// tablePage applies EmptyPage and NextKeyBackward to a get_table_rows
// answer: first is the next_key text of the range's first row, before
// that of the row just before the range in read order ("" for none).
func (f *faults) tablePage(rows *[]any, more *bool, nextKey *string, first, before string) {
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

// scopeMore applies NextKeyBackward to get_table_by_scope's more: before
// is the scope just before the range asked for, in read order.
func (f *faults) scopeMore(more, before string) string {
	if more == "" || before == "" || !f.taking(NextKeyBackward) {
		return more
	}
	return before
}
