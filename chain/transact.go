package chain

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/internal/inproc"
)

// TransactResult is what a sent (or computed) transaction did.
type TransactResult struct {
	ID          antelope.Checksum256        // the transaction id
	BlockNum    uint32                      // the block the node executed it in (0 when unknown)
	BlockTime   antelope.TimePoint          // that block's time
	Transaction *antelope.SignedTransaction // the signed transaction that was sent
	// Payment is how the transaction's CPU and NET were paid for when
	// TransactWith had a Payer (nil otherwise): who paid, the fee.
	Payment *Payment
	// Actions are the action traces in execution order, inline actions and
	// notifications included, with each action's raw return value.
	Actions []ActionTrace
	// AlreadySubmitted is set when the answers left the outcome open (an
	// answer lost, a duplicate…) and the chain showed the transaction in
	// a block: get_transaction_status (Status), confirmed by that block,
	// or a block read since the send. It was executed once — by an
	// earlier attempt, or by another sender of the same signed bytes.
	// There is no trace.
	AlreadySubmitted bool
	// Status is what get_transaction_status said when it settled an
	// outcome the answers left open; nil otherwise (and when the blocks
	// settled it).
	Status    *TransactionStatus
	Attempts  int             // HTTP requests sent, retries included
	Processed json.RawMessage // the node's whole trace
}

// ActionTrace is one executed action.
type ActionTrace struct {
	ActionOrdinal        uint32          // 1-based position in execution order
	CreatorActionOrdinal uint32          // the action that sent or notified this one; 0 for a top-level action
	Receiver             antelope.Name   // the account whose code ran (the contract, or a notified account)
	Action               antelope.Action // account, name, authorization and packed data
	ReturnValue          []byte          // the action's return value, packed (ABI 1.2 action results)
	Console              string          // the action's printed output
	ElapsedUS            int64           // execution time, microseconds
}

// ReturnValue is the packed return value of the first action named action
// executed by contract (notifications of it excluded), and whether there is
// one: TransactResult is an antelope.ActionResults, which the generated
// Contract.<Action>Result methods decode.
func (r *TransactResult) ReturnValue(contract, action antelope.Name) ([]byte, bool) {
	for _, a := range r.Actions {
		if a.Receiver == contract && a.Action.Account == contract && a.Action.Name == action {
			return a.ReturnValue, true
		}
	}
	return nil, false
}

var _ antelope.ActionResults = (*TransactResult)(nil)

// UnknownOutcomeError is a send that may have executed the transaction — an
// answer was lost, cut, unreadable, for another transaction, a 5xx,
// nodeos's timeout, an exception that can come after execution, a
// duplicate — and that neither retrying the same signed bytes nor reading
// the chain could settle. The transaction may or may not have been
// executed: look it up by ID before building a new one; until it expires,
// sending the same signed transaction again is safe.
type UnknownOutcomeError struct {
	ID antelope.Checksum256 // the transaction to look up
	// Transaction is the signed transaction that was sent: until it
	// expires, SendTransaction can send these same bytes again safely.
	Transaction *antelope.SignedTransaction
	Err         error // the last failure
	// Status is what get_transaction_status said (not in a block); nil
	// when the node could not be asked or its answer was not believed.
	Status *TransactionStatus
	// StatusErr says why get_transaction_status did not settle it (the
	// node does not offer it, its answer was about another transaction,
	// the context ended…) when Status is nil.
	StatusErr error
	// BlocksErr says why reading the blocks since the send did not settle
	// it (the chain showed no new block, the context ended…).
	BlocksErr error
}

// Error names the transaction to look up and what the lookups found.
func (e *UnknownOutcomeError) Error() string {
	msg := fmt.Sprintf("transaction %s: outcome unknown (it may have been executed; look it up by id before building another): %v", e.ID, e.Err)
	switch {
	case e.Status != nil:
		msg += "; get_transaction_status: " + e.Status.String()
	case e.StatusErr != nil:
		msg += "; not settled by get_transaction_status: " + e.StatusErr.Error()
	}
	if e.BlocksErr != nil {
		msg += "; not settled by the blocks: " + e.BlocksErr.Error()
	}
	return msg
}

// Unwrap returns the last failure when it was the network's or the
// context's (errors.Is(err, context.DeadlineExceeded)), and nothing that
// reads as a refusal: not a nodeos refusal of a later attempt
// (errors.Is(err, ErrBadTAPoS) or ErrExpired must not tell a caller to
// rebuild a transaction that an earlier attempt may have executed), nor a
// gateway's HTTP status (a 403 on every retry after a lost answer): only
// the connection error under an *httpcore.HTTPError, whose status is 0.
func (e *UnknownOutcomeError) Unwrap() error {
	var ae *APIError
	var he *httpcore.HTTPError
	switch {
	case errors.As(e.Err, &ae):
		return nil
	case errors.As(e.Err, &he):
		if he.Status != 0 {
			return nil
		}
		return he.Err
	}
	return e.Err
}

// NotExecutedError is a send whose answers left the outcome open (a lost
// answer, a duplicate of a transaction that was only queued…), settled by
// reading the chain: a block later than the transaction's expiration is
// irreversible, and no block since its reference block holds it. It was
// not executed and never can be: build a new one. It matches ErrExpired.
type NotExecutedError struct {
	ID          antelope.Checksum256        // the transaction
	Transaction *antelope.SignedTransaction // the signed transaction that was sent
	// Block is the first irreversible block later than the expiration:
	// every block up to it was read.
	Block uint32
	Err   error // the last answer of the send
}

// Error names the transaction and the block that settled it.
func (e *NotExecutedError) Error() string {
	return fmt.Sprintf("transaction %s was not executed: it expired, irreversibly as of block %d, in no block (the send: %v)", e.ID, e.Block, e.Err)
}

// Is matches ErrExpired.
func (e *NotExecutedError) Is(target error) bool { return target == ErrExpired }

// Unwrap returns the send's last answer (nodeos's expired_tx_exception, a
// lost answer…): the chain settled that nothing was executed. Not a
// tx_duplicate, which reads "already submitted" (errors.Is(err,
// ErrDuplicate)) about a transaction the chain shows never ran.
func (e *NotExecutedError) Unwrap() error {
	if errors.Is(e.Err, ErrDuplicate) {
		return nil
	}
	return e.Err
}

// BuildTransaction returns an unsigned transaction of actions, valid for
// the client's expiration from the node's head block time, referring to the
// last irreversible block (TAPoS), and the chain id to sign it for. It
// never builds the same transaction twice in a process while the first
// can still be sent: an identical one expires a second earlier (down to
// half the client's expiration; beyond that it is an error), so two
// identical Transacts are two transactions, never one id. "Can still be
// sent" is read on the chain's clock (head block times), not this
// machine's: a transaction that would expire before the newest head block
// time seen for its reference block (a stopped node, a stale info cache)
// is an error, since it could repeat one sent and forgotten.
func (c *Client) BuildTransaction(ctx context.Context, actions ...antelope.Action) (*antelope.Transaction, antelope.Checksum256, error) {
	if len(actions) == 0 {
		return nil, antelope.Checksum256{}, errors.New("a transaction needs at least one action")
	}
	info, err := c.cachedInfo(ctx)
	if err != nil {
		return nil, antelope.Checksum256{}, err
	}
	tx := &antelope.Transaction{Actions: append([]antelope.Action(nil), actions...),
		ContextFreeActions: []antelope.Action{}, Extensions: []antelope.Extension{}}
	tx.SetReferenceBlock(info.LastIrreversibleBlockID)
	// Expire relative to the chain's clock, not this machine's: nodeos
	// compares with its block time.
	base := info.HeadBlockTime.Time()
	if base.IsZero() || base.Unix() <= 0 {
		base = c.now()
	}
	tx.SetExpiration(base.Add(c.expiration))
	if err := makeDistinct(tx, c.expiration, info.ChainID, base); err != nil {
		return nil, antelope.Checksum256{}, err
	}
	return tx, info.ChainID, nil
}

// Sign signs tx for chainID with signer: the keys the chain requires, as
// get_required_keys says when the signer holds more than one, each once —
// a signer that holds a key twice, or joins signers that share one, would
// otherwise make a transaction nodeos refuses (tx_duplicate_sig).
func (c *Client) Sign(ctx context.Context, signer antelope.Signer, chainID antelope.Checksum256, tx *antelope.Transaction) (*antelope.SignedTransaction, error) {
	return c.signAs(ctx, signer, chainID, tx, tx)
}

// signAs is Sign asking get_required_keys about the authorizations of
// scope: those of tx the signer is to satisfy (a cosigned transaction's
// other actions are the payer's).
func (c *Client) signAs(ctx context.Context, signer antelope.Signer, chainID antelope.Checksum256, tx, scope *antelope.Transaction) (*antelope.SignedTransaction, error) {
	keys, err := signer.PublicKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("signer: %w", err)
	}
	keys = antelope.AppendDistinctKeys(nil, keys...)
	if len(keys) == 0 {
		return nil, errors.New("signer: no keys")
	}
	want := keys
	if len(keys) > 1 {
		// A signature the transaction does not need is an error on chain.
		if req, err := c.RequiredKeys(ctx, scope, keys); err == nil {
			want = req
		}
	}
	sreq, err := antelope.NewSigningRequest(chainID, tx, nil, want)
	if err != nil {
		return nil, err
	}
	sigs, err := signer.Sign(ctx, sreq)
	if err != nil {
		return nil, fmt.Errorf("signer: %w", err)
	}
	if len(sigs) == 0 {
		return nil, errors.New("signer: no signature for any key the transaction requires")
	}
	sigs = distinctSignatures(sreq.Digest, sigs)
	return &antelope.SignedTransaction{Transaction: *tx, Signatures: sigs, ContextFreeData: [][]byte{}}, nil
}

// distinctSignatures keeps the first signature of each key: a second by
// the same key (the same bytes from a deterministic signer, or other bytes
// from a randomized one) is what nodeos refuses as tx_duplicate_sig. A
// signature whose key cannot be recovered here is kept for the node to
// judge.
func distinctSignatures(digest antelope.Checksum256, sigs []antelope.Signature) []antelope.Signature {
	if len(sigs) < 2 {
		return sigs
	}
	out := make([]antelope.Signature, 0, len(sigs))
	var seen []antelope.PublicKey
	for _, s := range sigs {
		k, err := s.RecoverPublicKey(digest)
		if err == nil && slices.ContainsFunc(seen, k.Equal) {
			continue
		}
		if err == nil {
			seen = append(seen, k)
		}
		out = append(out, s)
	}
	return out
}

// RequiredKeys asks the node which of the available keys tx needs.
func (c *Client) RequiredKeys(ctx context.Context, tx *antelope.Transaction, available []antelope.PublicKey) ([]antelope.PublicKey, error) {
	txJSON, err := tx.MarshalJSON()
	if err != nil {
		return nil, err
	}
	req := struct {
		Transaction   json.RawMessage      `json:"transaction"`
		AvailableKeys []antelope.PublicKey `json:"available_keys"`
	}{txJSON, available}
	var out struct {
		RequiredKeys []antelope.PublicKey `json:"required_keys"`
	}
	if err := c.callJSON(ctx, "/v1/chain/get_required_keys", req, &out); err != nil {
		return nil, err
	}
	return out.RequiredKeys, nil
}

// Transact builds a transaction of actions (TAPoS from the last
// irreversible block, expiring after the client's expiration), signs it
// with signer and sends it: send_transaction2 (with retry_trx where the node
// offers it), or on older nodes send_transaction, then push_transaction.
//
// It never executes a transaction twice, and reports the outcome only as
// far as the node's answers prove it: a result (executed, with its trace,
// or AlreadySubmitted when the chain showed it executed by an attempt whose
// answer was lost), a refusal (an *APIError: nodeos raised an exception
// that proves nothing was executed; a *NotExecutedError: it expired in no
// block), or an *UnknownOutcomeError with the id to look up. See
// SendTransaction.
func (c *Client) Transact(ctx context.Context, signer antelope.Signer, actions ...antelope.Action) (*TransactResult, error) {
	return c.TransactWith(ctx, signer, TransactOptions{}, actions...)
}

func (c *Client) setFlag(f *bool) {
	c.mu.Lock()
	*f = true
	c.mu.Unlock()
}

// ComputeTransaction runs actions as a dry run (compute_transaction): the
// node executes them on a copy of its state and reverts, returning the
// traces and return values. signer may be nil (the node does not check
// signatures there).
func (c *Client) ComputeTransaction(ctx context.Context, signer antelope.Signer, actions ...antelope.Action) (*TransactResult, error) {
	return c.runWithout(ctx, "/v1/chain/compute_transaction", signer, actions)
}

// SendReadOnly runs read-only actions (ABI 1.2, send_read_only_transaction):
// no signature, no state change, the actions' return values in the result.
func (c *Client) SendReadOnly(ctx context.Context, actions ...antelope.Action) (*TransactResult, error) {
	return c.runWithout(ctx, "/v1/chain/send_read_only_transaction", nil, actions)
}

func (c *Client) runWithout(ctx context.Context, path string, signer antelope.Signer, actions []antelope.Action) (*TransactResult, error) {
	tx, chainID, err := c.BuildTransaction(ctx, actions...)
	if err != nil {
		return nil, err
	}
	signed := &antelope.SignedTransaction{Transaction: *tx, Signatures: []antelope.Signature{}, ContextFreeData: [][]byte{}}
	if signer != nil {
		if signed, err = c.Sign(ctx, signer, chainID, tx); err != nil {
			return nil, err
		}
	}
	id, pj, err := packedJSON(signed)
	if err != nil {
		return nil, err
	}
	resp, n, err := c.call(ctx, path, map[string]json.RawMessage{"transaction": pj})
	if err != nil {
		return nil, err
	}
	res, err := c.decodeAnswer(resp, id)
	if res != nil {
		res.Transaction, res.Attempts = signed, n
	}
	return res, err
}

// traceJSON is the part of nodeos's transaction trace a result keeps.
type traceJSON struct {
	TransactionID antelope.Checksum256 `json:"transaction_id"`
	Processed     *struct {
		ID        antelope.Checksum256 `json:"id"`
		BlockNum  uint32               `json:"block_num"`
		BlockTime antelope.TimePoint   `json:"block_time"`
		Receipt   *struct {
			Status string `json:"status"`
		} `json:"receipt"`
		ActionTraces []struct {
			ActionOrdinal        uint32        `json:"action_ordinal"`
			CreatorActionOrdinal uint32        `json:"creator_action_ordinal"`
			Receiver             antelope.Name `json:"receiver"`
			Act                  struct {
				Account       antelope.Name              `json:"account"`
				Name          antelope.Name              `json:"name"`
				Authorization []antelope.PermissionLevel `json:"authorization"`
				Data          json.RawMessage            `json:"data"`
				HexData       string                     `json:"hex_data"`
			} `json:"act"`
			Console            string `json:"console"`
			Elapsed            int64  `json:"elapsed"`
			ReturnValueHexData string `json:"return_value_hex_data"`
		} `json:"action_traces"`
		Except json.RawMessage `json:"except"`
	} `json:"processed"`
}

// decodeAnswer is decodeTrace, but for an answer of a chaintest chain in
// this process that arrived as the chain wrote it: its trace, which the
// chain kept decoded (internal/inproc), is taken instead of decoding the
// bytes again. A transport that is not such a chain's, or an answer a
// fault changed, is decoded.
func (c *Client) decodeAnswer(body []byte, id antelope.Checksum256) (*TransactResult, error) {
	if c.transport != nil && c.transport.HTTP != nil {
		if src, ok := c.transport.HTTP.Transport.(inproc.Source); ok {
			if t := src.TakeTrace(id, body); t != nil {
				return keptResult(t, body), nil
			}
		}
	}
	return decodeTrace(body, id)
}

// keptResult is the result decodeTrace gives for body, from the trace an
// in-process chain kept with it.
func keptResult(t *inproc.Trace, body []byte) *TransactResult {
	res := &TransactResult{ID: t.ID, BlockNum: t.BlockNum, BlockTime: t.BlockTime,
		Processed: body[t.ProcessedStart:t.ProcessedEnd:t.ProcessedEnd], Actions: make([]ActionTrace, len(t.Actions))}
	for i, a := range t.Actions {
		res.Actions[i] = ActionTrace{ActionOrdinal: a.Ordinal, CreatorActionOrdinal: a.Creator, Receiver: a.Receiver,
			Action: a.Act, ReturnValue: a.ReturnValue, Console: a.Console, ElapsedUS: a.ElapsedUS}
	}
	return res
}

// decodeTrace reads send_transaction(2)/push/compute/read-only's answer
// for transaction id. A trace that carries an exception is that
// exception's error (an *APIError). Anything short of a whole trace of
// this transaction — a body that is not JSON, another transaction's id, no
// trace, no receipt, no action — is an error, never a result: it proves
// nothing about what the node did.
func decodeTrace(body []byte, id antelope.Checksum256) (*TransactResult, error) {
	var t traceJSON
	if err := json.Unmarshal(body, &t); err != nil {
		return nil, fmt.Errorf("nodeos: unexpected transaction answer: %v", err)
	}
	switch {
	case t.TransactionID == (antelope.Checksum256{}):
		return nil, errors.New("nodeos: the transaction answer names no transaction")
	case t.TransactionID != id:
		return nil, fmt.Errorf("nodeos answered for transaction %s, not %s", t.TransactionID, id)
	case t.Processed == nil:
		return nil, fmt.Errorf("nodeos: the answer for transaction %s has no trace", id)
	case t.Processed.ID != (antelope.Checksum256{}) && t.Processed.ID != id:
		return nil, fmt.Errorf("nodeos: the answer for transaction %s holds the trace of %s", id, t.Processed.ID)
	}
	res := &TransactResult{ID: id}
	var pr struct {
		Processed json.RawMessage `json:"processed"`
	}
	_ = json.Unmarshal(body, &pr)
	res.Processed = pr.Processed
	if len(t.Processed.Except) > 0 && string(t.Processed.Except) != "null" {
		ex, err := exceptError(t.Processed.Except)
		if err != nil {
			return nil, err // unreadable: no result, as for any answer that cannot be read
		}
		return res, ex
	}
	switch {
	case t.Processed.Receipt == nil:
		return nil, fmt.Errorf("nodeos: the trace of transaction %s has neither a receipt nor an exception", id)
	case t.Processed.Receipt.Status != "executed":
		return nil, fmt.Errorf("nodeos: transaction %s: receipt status %q, not executed", id, t.Processed.Receipt.Status)
	case len(t.Processed.ActionTraces) == 0:
		return nil, fmt.Errorf("nodeos: the trace of transaction %s has no action", id)
	}
	res.BlockNum, res.BlockTime = t.Processed.BlockNum, t.Processed.BlockTime
	res.Actions = make([]ActionTrace, 0, len(t.Processed.ActionTraces))
	for i, at := range t.Processed.ActionTraces {
		a := ActionTrace{ActionOrdinal: at.ActionOrdinal, CreatorActionOrdinal: at.CreatorActionOrdinal,
			Receiver: at.Receiver, Console: at.Console, ElapsedUS: at.Elapsed}
		a.Action = antelope.Action{Account: at.Act.Account, Name: at.Act.Name, Authorization: at.Act.Authorization}
		if a.Action.Authorization == nil {
			a.Action.Authorization = []antelope.PermissionLevel{}
		}
		hexData := at.Act.HexData
		if hexData == "" && len(at.Act.Data) > 0 && at.Act.Data[0] == '"' {
			_ = json.Unmarshal(at.Act.Data, &hexData)
		}
		var err error
		if a.Action.Data, err = hex.DecodeString(hexData); err != nil {
			return nil, fmt.Errorf("nodeos: action trace %d: data is not hex: %v", i, err)
		}
		if a.ReturnValue, err = hex.DecodeString(at.ReturnValueHexData); err != nil {
			return nil, fmt.Errorf("nodeos: action trace %d: return value is not hex: %v", i, err)
		}
		res.Actions = append(res.Actions, a)
	}
	return res, nil
}

// exceptError turns a trace's "except" (fc's exception JSON) into an
// *APIError like nodeos's error answers, or says why it cannot.
func exceptError(raw json.RawMessage) (*APIError, error) {
	var ex struct {
		Code    int64  `json:"code"`
		Name    string `json:"name"`
		Message string `json:"message"`
		Stack   []struct {
			Context struct {
				File   string `json:"file"`
				Line   int    `json:"line"`
				Method string `json:"method"`
			} `json:"context"`
			Format string `json:"format"`
			// Data are the format's arguments: any JSON value (billed
			// CPU is a number, an authority an object).
			Data map[string]json.RawMessage `json:"data"`
		} `json:"stack"`
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		return nil, fmt.Errorf("nodeos: the transaction failed, with an exception that cannot be read: %v", err)
	}
	e := &APIError{Code: ex.Code, Name: ex.Name, What: ex.Message, Endpoint: "(trace)"}
	for _, s := range ex.Stack {
		msg := s.Format
		for k, v := range s.Data {
			msg = strings.ReplaceAll(msg, "${"+k+"}", formatArg(v))
		}
		e.Details = append(e.Details, ErrorDetail{Message: msg, File: s.Context.File, LineNumber: s.Context.Line, Method: s.Context.Method})
	}
	return e, nil
}

// formatArg is an exception argument as fc's format_string prints it: a
// string as itself, any other value as compact JSON.
func formatArg(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}
