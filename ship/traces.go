package ship

import (
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// TransactionStatus is a transaction trace's status, as nodeos reports it.
type TransactionStatus uint8

// The statuses of transaction_trace.status.
const (
	Executed TransactionStatus = 0 // succeeded, no error handler executed
	SoftFail TransactionStatus = 1 // objectively failed (not executed), error handler executed
	HardFail TransactionStatus = 2 // objectively failed and error handler objectively failed, so no state change
	Delayed  TransactionStatus = 3 // transaction delayed/deferred/scheduled for future execution
	Expired  TransactionStatus = 4 // transaction expired and storage space refunded to user
)

// String is nodeos's name of the status.
func (s TransactionStatus) String() string {
	switch s {
	case Executed:
		return "executed"
	case SoftFail:
		return "soft_fail"
	case HardFail:
		return "hard_fail"
	case Delayed:
		return "delayed"
	case Expired:
		return "expired"
	}
	return "status " + itoa(int(s))
}

// ActionTrace is one action as the node executed it, with its context. Its
// byte fields alias the message the block came in: they are valid while the
// event is being handled; copy what you keep (typed decoding copies).
type ActionTrace struct {
	Block *Block // the block it is in

	Contract antelope.Name // the account whose code defines the action (act.account)
	Name     antelope.Name // the action name
	Receiver antelope.Name // whose code ran: Contract, or an account it notified
	Data     []byte        // the packed action data

	TransactionID     antelope.Checksum256 // the transaction's id
	TransactionStatus TransactionStatus    // executed, or how it failed
	Scheduled         bool                 // the transaction was deferred

	ActionOrdinal        uint32 // 1-based position in the transaction's action_traces
	CreatorActionOrdinal uint32 // the action that sent it or notified it; 0 for a top-level action

	// HasReceipt is false for an action that did not execute (its
	// transaction failed); the receipt fields are zero then.
	HasReceipt     bool
	GlobalSequence uint64 // the chain-wide execution order
	RecvSequence   uint64 // the receiver's own action counter
	CodeSequence   uint32 // increases when the contract's code changes

	ABISequence uint32               // increases when the contract's ABI changes
	ActDigest   antelope.Checksum256 // the digest of the action

	ContextFree bool // a context-free action

	Elapsed      int64  // µs; 0 unless the node runs --trace-history-debug-mode
	Console      []byte // raw: contracts print arbitrary bytes, not always UTF-8
	Except       []byte // the exception text, when the action failed; nil otherwise
	ErrorCode    uint64 // with HasErrorCode
	HasErrorCode bool   // ErrorCode is set

	ReturnValue []byte // ABI 1.2 action results (action_trace_v1); nil for v0

	auth, authSeq []byte // the raw lists, decoded on demand
	index         int    // position among the block's action traces
}

// IsNotification reports whether the trace is a copy of the action run by an
// account the contract notified (require_recipient): counting it as well
// would count the action twice.
func (a *ActionTrace) IsNotification() bool { return a.Receiver != a.Contract }

// Authorization decodes the action's authorization list.
func (a *ActionTrace) Authorization() []antelope.PermissionLevel {
	w := wire{data: a.auth}
	n := w.count(16)
	out := make([]antelope.PermissionLevel, 0, n)
	for range n {
		out = append(out, antelope.PermissionLevel{Actor: w.name(), Permission: w.name()})
	}
	return out
}

// AuthSequence decodes the receipt's auth_sequence: each authorizer and its
// sequence number.
func (a *ActionTrace) AuthSequence() map[antelope.Name]uint64 {
	w := wire{data: a.authSeq}
	n := w.count(16)
	out := make(map[antelope.Name]uint64, n)
	for range n {
		out[w.name()] = w.u64()
	}
	return out
}

// actionFilter is what a walk keeps.
type actionFilter struct {
	account, name antelope.Name // 0: any
	notifications bool          // keep receiver != contract
	failed        bool          // keep actions without a receipt, or of failed transactions
}

func (f *actionFilter) keep(a *ActionTrace) bool {
	if f.account != 0 && a.Contract != f.account || f.name != 0 && a.Name != f.name {
		return false
	}
	if !f.notifications && a.Receiver != a.Contract {
		return false
	}
	return f.failed || a.HasReceipt && a.TransactionStatus == Executed
}

// walkTraces calls fn for each action the filter keeps, transaction by
// transaction, each transaction's actions in execution order (by global
// sequence; in trace order when some did not execute). scratch is reused
// between blocks, so a walk allocates nothing once it has grown.
func walkTraces(p *protocolMap, b *Block, traces []byte, scratch *[]ActionTrace, f *actionFilter, fn func(*ActionTrace) bool) error {
	w := &wire{data: traces, what: "traces"}
	n := w.count(1)
	index := 0
	for range n {
		acts := (*scratch)[:0]
		acts, ok := walkTransaction(p, w, b, f, acts, &index, 0)
		*scratch = acts
		if !ok {
			return w.err
		}
		if !slices.IsSortedFunc(acts, byGlobalSequence) && allReceipts(acts) {
			slices.SortStableFunc(acts, byGlobalSequence)
		}
		for i := range acts {
			if !fn(&acts[i]) {
				return nil
			}
		}
	}
	return w.end()
}

func byGlobalSequence(a, b ActionTrace) int {
	switch {
	case a.GlobalSequence < b.GlobalSequence:
		return -1
	case a.GlobalSequence > b.GlobalSequence:
		return 1
	}
	return 0
}

func allReceipts(acts []ActionTrace) bool {
	for i := range acts {
		if !acts[i].HasReceipt {
			return false
		}
	}
	return true
}

// walkTransaction reads one transaction_trace, appending the actions the
// filter keeps to acts (when depth is 0: a failed deferred transaction
// nested inside is skipped). Their relative order is all the caller sorts.
func walkTransaction(p *protocolMap, w *wire, b *Block, f *actionFilter, acts []ActionTrace, index *int, depth int) ([]ActionTrace, bool) {
	if depth > maxNesting {
		w.fail("transaction traces nested too deep")
		return acts, false
	}
	if v := w.varu32(); w.err == nil && member(p.txTrace, v) != "transaction_trace_v0" {
		w.fail("transaction_trace variant " + itoa(int(v)) + " is not one this client knows")
	}
	id := w.checksum()
	status := TransactionStatus(w.u8())
	w.u32()    // cpu_usage_us
	w.varu32() // net_usage_words
	w.u64()    // elapsed
	w.u64()    // net_usage
	scheduled := w.boolean()
	n := w.count(1)
	for range n {
		if w.err != nil {
			return acts, false
		}
		a := ActionTrace{Block: b, TransactionID: id, TransactionStatus: status, Scheduled: scheduled}
		readActionTrace(p, w, &a)
		if depth == 0 {
			a.index = *index
			*index++
			if f.keep(&a) {
				acts = append(acts, a)
			}
		}
	}
	if w.boolean() { // account_ram_delta
		w.skip(16)
	}
	if w.boolean() { // except
		w.bytes()
	}
	if w.boolean() { // error_code
		w.skip(8)
	}
	if w.boolean() { // failed_dtrx_trace
		var nested int
		walkTransaction(p, w, b, f, nil, &nested, depth+1)
	}
	if w.boolean() { // partial
		skipPartial(p, w)
	}
	return acts, w.err == nil
}

func readActionTrace(p *protocolMap, w *wire, a *ActionTrace) {
	v1 := false
	switch v := w.varu32(); member(p.actTrace, v) {
	case "action_trace_v0":
	case "action_trace_v1":
		v1 = true
	default:
		if w.err == nil {
			w.fail("action_trace variant " + itoa(int(v)) + " is not one this client knows")
		}
		return
	}
	a.ActionOrdinal = w.varu32()
	a.CreatorActionOrdinal = w.varu32()
	if a.HasReceipt = w.boolean(); a.HasReceipt {
		if v := w.varu32(); w.err == nil && member(p.actReceipt, v) != "action_receipt_v0" {
			w.fail("action_receipt variant " + itoa(int(v)) + " is not one this client knows")
		}
		w.name() // receipt.receiver, the same as receiver
		a.ActDigest = w.checksum()
		a.GlobalSequence = w.u64()
		a.RecvSequence = w.u64()
		a.authSeq = w.pairs()
		a.CodeSequence = w.varu32()
		a.ABISequence = w.varu32()
	}
	a.Receiver = w.name()
	a.Contract = w.name()
	a.Name = w.name()
	a.auth = w.pairs()
	a.Data = w.bytes()
	a.ContextFree = w.boolean()
	a.Elapsed = int64(w.u64())
	a.Console = w.bytes()
	w.pairs() // account_ram_deltas
	if w.boolean() {
		a.Except = w.bytes() // never nil: a slice of the message
	}
	if a.HasErrorCode = w.boolean(); a.HasErrorCode {
		a.ErrorCode = w.u64()
	}
	if v1 {
		a.ReturnValue = w.bytes()
	}
}

// skipPartial skips a partial_transaction.
func skipPartial(p *protocolMap, w *wire) {
	if v := w.varu32(); w.err == nil && member(p.partialTx, v) != "partial_transaction_v0" {
		w.fail("partial_transaction variant " + itoa(int(v)) + " is not one this client knows")
		return
	}
	w.skip(4 + 2 + 4)                                 // expiration, ref_block_num, ref_block_prefix
	w.varu32()                                        // max_net_usage_words
	w.skip(1)                                         // max_cpu_usage_ms
	w.varu32()                                        // delay_sec
	for n := w.count(3); n > 0 && w.err == nil; n-- { // transaction_extensions
		w.skip(2)
		w.bytes()
	}
	for n := w.count(66); n > 0 && w.err == nil; n-- { // signatures
		skipSignature(w)
	}
	for n := w.count(1); n > 0 && w.err == nil; n-- { // context_free_data
		w.bytes()
	}
}

// skipSignature skips a signature: K1 and R1 are 65 bytes, WebAuthn adds
// its authenticator data and client JSON.
func skipSignature(w *wire) {
	switch w.varu32() {
	case 0, 1:
		w.skip(65)
	case 2:
		w.skip(65)
		w.bytes()
		w.bytes()
	default:
		w.fail("a signature of unknown type")
	}
}
