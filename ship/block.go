package ship

import (
	"encoding/binary"
	"iter"

	"github.com/antelopego/abigen/antelope"
)

// Block is one block of the stream: its metadata, and its actions and
// table-row changes, read in place from the message it came in. A Block
// and everything read from it are valid while its event is being handled:
// the next message reuses the memory. Copy what you keep (typed decoding
// with Actions and Rows copies).
type Block struct {
	Position                          // number and id
	Previous  antelope.Checksum256    // the id of the block before it (prev_block); zero when the node sent none
	Timestamp antelope.BlockTimestamp // from the block header; zero unless the request fetches blocks
	Producer  antelope.Name           // from the block header; zero unless the request fetches blocks

	Head             Position // the node's head when it sent the block
	LastIrreversible Position // the node's last irreversible block then

	// The parts as the node sent them; nil when not fetched (Request.Fetch)
	// or absent. SignedBlock is a packed signed_block, Traces a
	// transaction_trace[], Deltas a table_delta[] (protocol types decode
	// them whole).
	SignedBlock, Traces, Deltas, FinalityData []byte

	p       *protocolMap
	scratch *[]ActionTrace
	abis    *abiHistory // the stream's, with this block's changes recorded; nil without ABI tracking

	setabis    map[antelope.Name][]blockSetabi // setabiIndex
	setabisErr error
}

// newBlock fills a Block from a blocks result.
func newBlock(p *protocolMap, r *blocksResult, scratch *[]ActionTrace, abis *abiHistory) *Block {
	b := &Block{Position: r.this, Head: r.head, LastIrreversible: r.lib, p: p, scratch: scratch, abis: abis}
	if r.hasPrev {
		b.Previous = r.prev.ID
	}
	if r.hasBlock {
		b.SignedBlock = r.block
		if len(r.block) >= 12 { // block_header: timestamp, producer, …
			b.Timestamp = antelope.BlockTimestamp(binary.LittleEndian.Uint32(r.block))
			b.Producer = antelope.Name(binary.LittleEndian.Uint64(r.block[4:]))
		}
	}
	if r.hasTraces {
		b.Traces = r.traces
	}
	if r.hasDeltas {
		b.Deltas = r.deltas
	}
	if r.hasFinality {
		b.FinalityData = r.finality
	}
	return b
}

// ItemOption widens or narrows what Block.Actions, Block.Rows, Actions and
// Rows yield.
type ItemOption func(*itemOptions)

type itemOptions struct {
	actions actionFilter
	rows    rowFilter
	policy  ErrorPolicy
}

// WithNotifications also yields the copies of an action that ran in the
// accounts it notified (require_recipient), whose Receiver is not the
// contract. Left out by default: counting them counts an action twice.
func WithNotifications() ItemOption {
	return func(o *itemOptions) { o.actions.notifications = true }
}

// WithFailed also yields actions that did not take effect: without a
// receipt, or in a transaction whose status is not executed. Left out by
// default.
func WithFailed() ItemOption { return func(o *itemOptions) { o.actions.failed = true } }

// OfContract keeps only the actions of one contract account (act.account),
// or the rows of one contract (code).
func OfContract(account antelope.Name) ItemOption {
	return func(o *itemOptions) { o.actions.account, o.rows.code = account, account }
}

// Named keeps only the actions of one name.
func Named(action antelope.Name) ItemOption { return func(o *itemOptions) { o.actions.name = action } }

// InTable keeps only the rows of one table.
func InTable(table antelope.Name) ItemOption { return func(o *itemOptions) { o.rows.table = table } }

func options(opts []ItemOption) itemOptions {
	var o itemOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Actions yields the block's actions that took effect, transaction by
// transaction, each transaction's in execution order (global sequence),
// without their notifications (see WithNotifications, WithFailed,
// OfContract, Named). The traces are read in place: an action of another
// contract costs no allocation. The *ActionTrace is reused: copy it to
// keep it.
func (b *Block) Actions(opts ...ItemOption) iter.Seq2[*ActionTrace, error] {
	o := options(opts)
	return func(yield func(*ActionTrace, error) bool) {
		b.walkActions(&o.actions, func(a *ActionTrace) bool { return yield(a, nil) }, func(err error) { yield(nil, err) })
	}
}

func (b *Block) walkActions(f *actionFilter, fn func(*ActionTrace) bool, fail func(error)) {
	if b.Traces == nil {
		return
	}
	scratch := b.scratch
	if scratch == nil {
		scratch = new([]ActionTrace)
	}
	if err := walkTraces(b.p, b, b.Traces, scratch, f, fn); err != nil {
		fail(b.partErr(err))
	}
}

// Rows yields the block's contract-table row changes (the contract_row
// deltas), in the order the node sent them (see OfContract, InTable). A
// row of another contract costs no allocation. The *RowChange is reused.
func (b *Block) Rows(opts ...ItemOption) iter.Seq2[*RowChange, error] {
	o := options(opts)
	return func(yield func(*RowChange, error) bool) {
		b.walkRows(o.rows, func(r *RowChange) bool { return yield(r, nil) }, func(err error) { yield(nil, err) })
	}
}

func (b *Block) walkRows(f rowFilter, fn func(*RowChange) bool, fail func(error)) {
	if b.Deltas == nil {
		return
	}
	if err := walkRows(b.p, b, b.Deltas, f, fn); err != nil {
		fail(b.partErr(err))
	}
}

// TableDeltas yields every row of every state-history table in the block
// (accounts, permissions, resources, contract rows, …), undecoded.
func (b *Block) TableDeltas() iter.Seq2[Delta, error] {
	return func(yield func(Delta, error) bool) {
		if b.Deltas == nil {
			return
		}
		err := walkDeltas(b.p, b, b.Deltas, func(table []byte, present bool, data []byte) bool {
			name, ok := tableNames[string(table)]
			if !ok {
				name = string(table)
			}
			return yield(Delta{Block: b, Table: name, Present: present, Data: data}, nil)
		})
		if err != nil {
			yield(Delta{}, b.partErr(err))
		}
	}
}

// ABI returns the packed ABI (as on chain) that account had when this block
// began, as far as the stream knows it: from the request's ABIs and every
// account delta or setabi action it has seen since. It is what the
// account's actions of this block decode with, unless the block itself
// changes it (ActionTrace.ABI accounts for that). An account whose given
// ABI an Undo reached below (see Request.ABIs) is unknown until a block
// sets it. Package abicodec
// decodes with it: abicodec.New(abi), then ActionJSON. Rows decode with
// the ABI at the block's end (RowChange.ABI). Do not modify the result.
func (b *Block) ABI(account antelope.Name) ([]byte, bool) {
	if b.abis == nil {
		return nil, false
	}
	return b.abis.at(account, uint64(b.Num))
}

func (b *Block) partErr(err error) error {
	return &BlockError{Block: b.Position, Err: err}
}

// BlockError is a problem with one block's data.
type BlockError struct {
	Block Position // the block
	Err   error    // a *FormatError, usually
}

// Error implements error.
func (e *BlockError) Error() string { return "ship: block " + e.Block.String() + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *BlockError) Unwrap() error { return e.Err }
