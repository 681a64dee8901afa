package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// The send endpoints, in the order tried.
const (
	pathSend2 = "/v1/chain/send_transaction2"
	pathSend  = "/v1/chain/send_transaction"
	pathPush  = "/v1/chain/push_transaction"
)

// SendTransaction sends a signed transaction: send_transaction2 (with
// retry_trx where the node offers it), or on older nodes send_transaction,
// then push_transaction. It never executes the transaction twice, and
// reports its outcome only as far as the node's answers prove it:
//
//   - executed: a trace of this transaction (the result), or, when the
//     answers left it open, the chain showing it in a block
//     (AlreadySubmitted, no trace): get_transaction_status naming a block
//     that holds it, or a block read since its reference block;
//   - refused, nothing executed: nodeos's error answer with an exception
//     spring raises only before or while executing (ProvesNotExecuted; an
//     *APIError), a gateway turning every attempt away (an
//     *httpcore.HTTPError: 429, 403…), or, once the answers left it open,
//     an irreversible block past its expiration with no block since its
//     reference block holding it (*NotExecutedError);
//   - unknown: anything else — an answer lost or cut, a 5xx without
//     nodeos's answer, nodeos's own timeout_exception, an exception that
//     can come after execution (tx_resource_exhaustion), a 200 that cannot
//     be read or names another transaction — is retried with the same
//     signed bytes (the same id); a refusal of such a retry proves nothing
//     about the earlier attempt. tx_duplicate and expired_tx_exception
//     prove nothing (a duplicate may be only queued): they, and retries
//     that cannot tell, are settled by reading the chain (see settle),
//     which can take until the transaction's expiration is irreversible
//     (bound it with ctx); when that cannot be learnt either, the error is
//     an *UnknownOutcomeError with the id and what the lookups found.
func (c *Client) SendTransaction(ctx context.Context, signed *antelope.SignedTransaction) (*TransactResult, error) {
	id, pj, err := packedJSON(signed)
	if err != nil {
		return nil, err
	}
	// A URL that is no URL sends nothing: say so, not "outcome unknown".
	if _, err := httpcore.JoinURL(c.url, pathSend2); err != nil {
		return nil, fmt.Errorf("chain API: %w", err)
	}
	s := &sender{c: c, id: id, signed: signed, packed: pj}
	return s.run(ctx)
}

// packedJSON is a signed transaction's id and its packed form as the send
// endpoints take it.
func packedJSON(signed *antelope.SignedTransaction) (antelope.Checksum256, json.RawMessage, error) {
	id, err := signed.ID()
	if err != nil {
		return id, nil, err
	}
	packed, err := signed.Pack(antelope.CompressionNone)
	if err != nil {
		return id, nil, err
	}
	pj, err := packed.MarshalJSON()
	return id, pj, err
}

// sender is one SendTransaction and what its attempts have shown.
type sender struct {
	c        *Client
	id       antelope.Checksum256
	signed   *antelope.SignedTransaction
	packed   json.RawMessage
	requests int // HTTP requests sent
	// open is set once an attempt may have executed the transaction: from
	// then on no refusal proves it was not executed.
	open bool
	// noRetryTrx: the node refused retry_trx for this transaction's
	// expiration; another transaction may still have it.
	noRetryTrx bool
}

// request is the next attempt's endpoint and body, and whether it asks for
// retry_trx.
func (s *sender) request() (path string, body any, retryTrx bool) {
	c := s.c
	c.mu.Lock()
	noSend2, noSend, noRetry := c.noSend2, c.noSend, c.noRetry
	c.mu.Unlock()
	switch {
	case !noSend2:
		retryTrx = c.retryTrx && !noRetry && !s.noRetryTrx
		return pathSend2, send2Body(s.packed, retryTrx, c.retryBlock), retryTrx
	case !noSend:
		return pathSend, s.packed, false
	}
	return pathPush, s.packed, false
}

// send2Body is send_transaction2's body for the packed transaction's
// JSON: written as encoding/json writes the map of its fields (keys in
// order; TestSend2BodyIsTheMapEncoding), without reflection or compacting
// the transaction's JSON again.
func send2Body(packed json.RawMessage, retryTrx bool, retryBlocks uint16) json.RawMessage {
	b := make([]byte, 0, len(packed)+96)
	b = append(b, `{"retry_trx":`...)
	b = strconv.AppendBool(b, retryTrx)
	if retryTrx && retryBlocks > 0 {
		b = append(b, `,"retry_trx_num_blocks":`...)
		b = strconv.AppendUint(b, uint64(retryBlocks), 10)
	}
	b = append(b, `,"return_failure_trace":false,"transaction":`...)
	b = append(b, packed...)
	return append(b, '}')
}

// verdict is what one attempt's answer leads to.
type verdict int

const (
	done     verdict = iota // the outcome is known: return it
	nextWay                 // refused before anything ran: ask again another way, at once
	tryAgain                // send the same bytes again after a wait
	giveUp                  // retrying cannot tell: settle what the attempts left open
)

func (s *sender) run(ctx context.Context) (*TransactResult, error) {
	t := s.c.transport
	if t == nil {
		t = &httpcore.Transport{}
	}
	budget := t.Attempts()
	// One request per attempt: each answer is judged here, never retried
	// blindly by the transport.
	one := *t
	one.MaxAttempts = 1
	var last error
	for tries := 0; tries < budget; {
		if ctx.Err() != nil {
			if last == nil {
				last = fmt.Errorf("not sent: %w", context.Cause(ctx))
			}
			break
		}
		path, body, retryTrx := s.request()
		resp, _, err := s.c.callVia(ctx, &one, path, body)
		s.requests++
		v, res, err := s.judge(path, retryTrx, resp, err, tries+1 >= budget)
		switch v {
		case done:
			return res, err
		case nextWay:
			continue
		case giveUp:
			return s.settle(ctx, err)
		}
		last = err
		if tries++; tries >= budget {
			break
		}
		var wait time.Duration
		var he *httpcore.HTTPError
		if errors.As(last, &he) {
			wait = he.RetryAfter
		}
		if t.Wait(ctx, tries, wait) != nil {
			break
		}
	}
	if !s.open {
		return nil, last
	}
	return s.settle(ctx, last)
}

// judge reads one attempt's answer (resp, or the failure err): the result
// or error it proves, or what to do next with the failure it returns.
// lastTry says the attempts are used up.
func (s *sender) judge(path string, retryTrx bool, resp []byte, err error, lastTry bool) (verdict, *TransactResult, error) {
	if err == nil {
		res, derr := s.c.decodeAnswer(resp, s.id)
		if derr == nil {
			res.Transaction, res.Attempts = s.signed, s.requests
			return done, res, nil
		}
		var ae *APIError
		if !errors.As(derr, &ae) {
			// A 2xx that is no trace of this transaction: the node may
			// have executed it, and the answer be mangled on the way.
			s.open = true
			return tryAgain, nil, fmt.Errorf("%s: %w", path, derr)
		}
		ae.Endpoint = path
		err = ae // a trace carrying its exception: nodeos's refusal
	}
	var ae *APIError
	var he *httpcore.HTTPError
	switch {
	case isNotFound(err):
		// The endpoint is not there: nothing was executed.
		switch path {
		case pathSend2:
			s.c.setFlag(&s.c.noSend2)
			return nextWay, nil, err
		case pathSend:
			s.c.setFlag(&s.c.noSend)
			return nextWay, nil, err
		}
		if !s.open {
			return done, nil, err
		}
		return giveUp, nil, err
	case errors.As(err, &ae) && retryTrx && errors.Is(ae, ErrUnsupported):
		// No transaction retry on this node (nodeos's default): refused
		// before anything ran, and so for every send.
		s.c.setFlag(&s.c.noRetry)
		return nextWay, nil, err
	case errors.As(err, &ae) && retryTrx && errors.Is(ae, ErrExpirationTooFar):
		// Too far ahead for retry_trx: this transaction's expiration, not
		// the node's lack of the feature.
		s.noRetryTrx = true
		return nextWay, nil, err
	case errors.As(err, &ae) && (errors.Is(ae, ErrDuplicate) || errors.Is(ae, ErrExpired)):
		// A duplicate proves nothing: spring answers it for a transaction
		// that is only queued (unapplied_transaction_queue.hpp
		// add_incoming) and may still expire unexecuted, as well as for
		// one executed. Expired proves nothing either when retry_trx ran
		// it first (trx_retry_db.cpp clear_expired), nor without it:
		// producer_plugin.cpp process_incoming_transaction_async checks
		// the expiration before is_known_unexpired_transaction, so these
		// bytes, executed by an earlier call (another SendTransaction,
		// another process), are answered expired once they expire.
		// Retrying cannot tell: the chain can.
		return giveUp, nil, ae
	case errors.As(err, &ae) && ProvesNotExecuted(ae):
		if !s.open {
			return done, nil, ae
		}
		// This attempt did nothing; an earlier one may have. Another
		// node (or this one, later) may know it.
		return tryAgain, nil, ae
	case errors.As(err, &he) && he.Status != 0 && refusedStatus(he.Status):
		// A gateway turned it away before nodeos saw it.
		if !s.open && (he.Status != http.StatusTooManyRequests || lastTry) {
			return done, nil, err
		}
		return tryAgain, nil, err
	}
	// Lost, cut, a 5xx, nodeos's timeout, an exception that proves
	// nothing: it may have been executed.
	s.open = true
	return tryAgain, nil, err
}
