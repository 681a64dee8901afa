package chaintest

import (
	"time"

	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/faults"
)

// The faults a chain injects into its HTTP answers live in internal/faults;
// these are their public face: Chain's setters, and the Misbehaviors.

// FailNext makes the next n requests fail with HTTP status (a proxy's 502,
// 503…) before the chain sees them; a 429 says Retry-After: 2.
func (c *Chain) FailNext(n, status int) { c.faults.FailNext(n, status) }

// RateLimitNext makes the next n requests answer 429 Too Many Requests
// with Retry-After (whole seconds) before the chain sees them.
func (c *Chain) RateLimitNext(n int, retryAfter time.Duration) { c.faults.RateLimitNext(n, retryAfter) }

// OversizeNext makes the next n requests answer 200 with a body of size
// bytes (white space) instead of the chain's answer, as a broken proxy or
// a hostile node does: a client must refuse it, not read it whole.
func (c *Chain) OversizeNext(n int, size int64) { c.faults.OversizeNext(n, size) }

// LoseNextAnswers makes the chain do the next n requests — execute a
// transaction, too — and then drop the connection without an answer.
func (c *Chain) LoseNextAnswers(n int) { c.faults.LoseNextAnswers(n) }

// TruncateNext makes the next n answers stop halfway.
func (c *Chain) TruncateNext(n int) { c.faults.TruncateNext(n) }

// Delay delays every answer by d (0 removes it).
func (c *Chain) Delay(d time.Duration) { c.faults.Delay(d) }

// Misbehave makes the chain misbehave in way m on the next n requests m
// applies to; n < 0 on every one until Misbehave(m, 0). Several
// misbehaviors can be on at once.
func (c *Chain) Misbehave(m Misbehavior, n int) { c.faults.Misbehave(m, n) }

// MisbehaveInTurn makes the next sends misbehave one step each, in
// order: steps[0] for the next send, steps[1] for the one after… (Pass lets
// one through). A load balancer whose first node executes a transfer and
// loses the answer while the others lag behind is
// MisbehaveInTurn(LoseAfterExecuting, RefuseAsLagging, RefuseAsLagging…).
// The steps come before any Misbehave count; only the transaction
// misbehaviors are steps.
func (c *Chain) MisbehaveInTurn(steps ...Misbehavior) { c.faults.MisbehaveInTurn(steps...) }

// newFaults is the chain's fault injector, answering its timeouts and
// refusals in nodeos's words.
func newFaults() *faults.Injector {
	return faults.New(faults.Answers{
		Timeout: func() (int, any) {
			return nodeosError(500, "Internal Service Error", 2, "timeout_exception", "Timeout",
				"deadline exceeded (http-max-response-time-ms)")
		},
		Lagging: func() (int, any) {
			return exec.ErrRefBlock("Transaction's reference block did not match. Is this transaction from a different fork? (the node has not seen it)").Answer()
		},
		RetryUnsupported: func() (int, any) {
			return nodeosError(500, "Internal Service Error", 3100008, "unsupported_feature", "Feature is currently unsupported",
				"Transaction retry not enabled on node. transaction-retry-max-storage-size-gb is 0")
		},
	})
}

// Misbehavior is a way a broken or hostile node answers: what a load
// balancer over nodes at different heights, a cache that ignores the POST
// body, a proxy, or nodeos's own time limits do. Misbehave injects them so
// that a client's defences — chain.Client's, and yours — can be tested
// against them. Each one says which requests it applies to.
type Misbehavior = faults.Misbehavior

// The transaction misbehaviors apply to sends (push_transaction,
// send_transaction, send_transaction2). Those "before executing" answer
// without the chain seeing the transaction; those "after executing" let
// the chain handle it (executing it if it passes its checks) and then
// replace the answer.
const (
	// DropBeforeExecuting drops the connection before the chain sees the
	// request: nothing is executed, and no answer comes.
	DropBeforeExecuting = faults.DropBeforeExecuting
	// TimeoutBeforeExecuting answers nodeos's timeout_exception (HTTP 500)
	// without executing anything: the request waited past
	// http-max-response-time-ms in the node's queue.
	TimeoutBeforeExecuting = faults.TimeoutBeforeExecuting
	// RefuseAsLagging refuses the transaction with
	// invalid_ref_block_exception before executing it: a node behind the
	// load balancer that has not yet seen the reference block.
	RefuseAsLagging = faults.RefuseAsLagging
	// RefuseRetryTrx refuses send_transaction2 with retry_trx with
	// unsupported_feature before executing anything, as a node with
	// transaction-retry-max-storage-size-gb 0 does (nodeos's default).
	// Sends without retry_trx pass.
	RefuseRetryTrx = faults.RefuseRetryTrx
	// TimeoutAfterExecuting answers nodeos's timeout_exception (HTTP 500)
	// after the chain handled the send: nodeos timed out writing the
	// answer of a transaction it executed.
	TimeoutAfterExecuting = faults.TimeoutAfterExecuting
	// GatewayErrorAfterExecuting answers a proxy's 504 Gateway Timeout
	// (an HTML page) after the chain handled the send.
	GatewayErrorAfterExecuting = faults.GatewayErrorAfterExecuting
	// CutAfterExecuting answers with the first half of the chain's answer,
	// correctly framed (its Content-Length is the half's): the body reads
	// without error, and is not JSON.
	CutAfterExecuting = faults.CutAfterExecuting
	// OtherTransactionID answers with the chain's answer rewritten to name
	// another transaction id: a cache, or a proxy mixing answers up.
	OtherTransactionID = faults.OtherTransactionID
	// LoseAfterExecuting drops the connection after the chain handled the
	// send: LoseNextAnswers for sends only.
	LoseAfterExecuting = faults.LoseAfterExecuting

	// SamePage answers every get_table_rows and get_table_by_scope request
	// with the first answer it gave to that endpoint after Misbehave,
	// whatever the request asks: a cache that ignores the POST body.
	SamePage = faults.SamePage
	// NextKeyBackward makes a page with more name the row just before the
	// range asked for (just after it in reverse) as next_key — backwards —
	// when there is one (get_table_rows, and get_table_by_scope's more).
	NextKeyBackward = faults.NextKeyBackward
	// RowsOutOfBounds adds to each get_table_rows page the rows just
	// outside the bounds asked for: the one before the lower bound and the
	// one after the upper bound, where they exist.
	RowsOutOfBounds = faults.RowsOutOfBounds
	// RowsOverLimit returns one row more than the limit asked for
	// (get_table_rows).
	RowsOverLimit = faults.RowsOverLimit
	// EmptyPage answers get_table_rows with no row, more and next_key the
	// first row of the range asked for: what nodeos answers when its time
	// limit strikes before the first row.
	EmptyPage = faults.EmptyPage
)

// Pass is no misbehavior: a step of MisbehaveInTurn that lets one send
// through unharmed.
const Pass = faults.Pass
