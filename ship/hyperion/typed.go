package hyperion

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
)

// Decodable is what the generated bindings' types are: decoded from JSON
// (Hyperion's data) or bytes (its hex for data it could not deserialize),
// and packed again for the item's Data.
type Decodable[T any] interface {
	*T
	antelope.BinaryDecodable
	antelope.JSONDecodable
	AppendBinary(b []byte) ([]byte, error)
}

// ItemOption widens what Actions and Rows yield, as ship's options do.
type ItemOption func(*itemOptions)

type itemOptions struct {
	notifications bool
	policy        ship.ErrorPolicy
}

// WithNotifications also yields the copies of an action run by the
// accounts it notified (one item per receipt, Receiver set), as
// ship.WithNotifications does.
func WithNotifications() ItemOption { return func(o *itemOptions) { o.notifications = true } }

// OnDecodeError sets what an item that does not decode does (see
// ship.ErrorPolicy): reported by default.
func OnDecodeError(p ship.ErrorPolicy) ItemOption { return func(o *itemOptions) { o.policy = p } }

// Actions yields the actions a describes from Hyperion, as the same
// ship.ActionEvent that ship.Actions yields from a stream, so that one
// handler serves both:
//
//	for ev, err := range hyperion.Actions(ctx, h, eosiotoken.Actions.Transfer, f) { … ev.Data.Quantity … }
//
// f's Contract and Action are a's. Data is decoded by the generated
// decoder from Hyperion's JSON, with Hyperion's lossy rewrites undone
// where that is exact (see the package doc); an item that cannot be is a
// *ship.ItemError whose Raw is the JSON. Hyperion keeps executed actions
// only; notifications are left out unless WithNotifications.
func Actions[T any, P Decodable[T]](ctx context.Context, c *Client, a antelope.ActionOf[T, P], f ActionFilter, opts ...ItemOption) iter.Seq2[ship.ActionEvent[T], error] {
	var o itemOptions
	for _, opt := range opts {
		opt(&o)
	}
	return func(yield func(ship.ActionEvent[T], error) bool) {
		if a.Account == 0 {
			yield(ship.ActionEvent[T]{}, fmt.Errorf("hyperion: action %s has no contract account: the ABI named none; use In(account)", a.Name))
			return
		}
		if f.Contract != 0 && f.Contract != a.Account || f.Action != 0 && f.Action != a.Name {
			yield(ship.ActionEvent[T]{}, fmt.Errorf("hyperion: the filter names %s::%s, the action %s::%s", f.Contract, f.Action, a.Account, a.Name))
			return
		}
		f.Contract, f.Action = a.Account, a.Name
		// The receipts yielded of the current block: Hyperion 4.x may hold
		// an action once per notified account, each copy with the
		// action's receipts (its regroupActions merges them back for
		// get_transaction only).
		seen, block := map[uint64]bool{}, uint32(0)
		for act, err := range c.Actions(ctx, f) {
			if err != nil {
				yield(ship.ActionEvent[T]{}, err)
				return
			}
			if act.BlockNum != block {
				clear(seen)
				block = act.BlockNum
			}
			// The data is decoded once for the action and its notifications.
			var v T
			var packed []byte
			raw, err := c.actionData(&act, P(&v))
			if err == nil {
				packed, err = P(&v).AppendBinary(nil)
			}
			for _, r := range receiptsOf(&act, o.notifications, f.Order) {
				if seen[r.GlobalSequence] {
					continue
				}
				seen[r.GlobalSequence] = true
				t := traceOf(&act, r)
				t.Data = packed
				if err != nil {
					if o.policy == ship.Skip {
						continue
					}
					ie := &ship.ItemError{Block: t.Block.Position, Contract: act.Contract, Name: act.Name, Raw: raw, Err: err}
					if !yield(ship.ActionEvent[T]{Trace: t}, ie) || o.policy == ship.Stop {
						return
					}
					continue
				}
				if !yield(ship.ActionEvent[T]{Trace: t, Data: v}, nil) {
					return
				}
			}
		}
	}
}

// receiptsOf is the receipts an action yields items for, in the order
// asked: the contract's, and the notified accounts' when asked.
func receiptsOf(a *Action, notifications bool, o Order) []Receipt {
	var out []Receipt
	for _, r := range a.Receipts {
		if r.Receiver == a.Contract || notifications {
			out = append(out, r)
		}
	}
	if len(a.Receipts) == 0 { // a node that keeps no receipts: the action itself
		out = append(out, Receipt{Receiver: a.Contract, GlobalSequence: a.GlobalSequence})
	}
	before := func(x, y uint64) bool { return x < y == (o == Asc) }
	for i := 1; i < len(out); i++ { // insertion sort: a handful at most
		for j := i; j > 0 && before(out[j].GlobalSequence, out[j-1].GlobalSequence); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// traceOf is the ship.ActionTrace of one receipt of a, its authorization
// and the receipt's auth_sequence included. A notification's ordinals are
// 0: Hyperion does not keep them.
func traceOf(a *Action, r Receipt) *ship.ActionTrace {
	b := &ship.Block{Position: ship.Position{Num: a.BlockNum, ID: a.BlockID}, Producer: a.Producer}
	if !a.Timestamp.IsZero() {
		b.Timestamp = blockTimestamp(a.Timestamp)
	}
	t := &ship.ActionTrace{
		Block:                b,
		Contract:             a.Contract,
		Name:                 a.Name,
		Receiver:             r.Receiver,
		TransactionID:        a.TrxID,
		TransactionStatus:    ship.Executed,
		ActionOrdinal:        a.ActionOrdinal,
		CreatorActionOrdinal: a.CreatorActionOrdinal,
		HasReceipt:           true,
		GlobalSequence:       r.GlobalSequence,
		RecvSequence:         r.RecvSequence,
	}
	t.SetAuthorization(a.Authorization)
	seq := make(map[antelope.Name]uint64, len(r.AuthSequence))
	for _, s := range r.AuthSequence {
		seq[s.Account] = s.Sequence
	}
	t.SetAuthSequence(seq)
	if r.Receiver != a.Contract {
		// Hyperion keeps one document per action, its notifications as
		// receipts: their own ordinals are lost.
		t.ActionOrdinal, t.CreatorActionOrdinal = 0, 0
	}
	return t
}

// blockTimestamp is the block slot (half seconds since 2000) of the time.
func blockTimestamp(t time.Time) antelope.BlockTimestamp {
	const epochMs = 946684800000
	ms := t.UnixMilli() - epochMs
	if ms < 0 {
		return 0
	}
	return antelope.BlockTimestamp(ms / 500)
}

// actionData decodes an action's data into v and returns the raw JSON it
// came from, for an item error.
func (c *Client) actionData(a *Action, v interface {
	antelope.BinaryDecodable
	antelope.JSONDecodable
}) ([]byte, error) {
	raw := []byte(a.Data)
	if len(raw) == 0 || string(raw) == "null" {
		return raw, fmt.Errorf("hyperion kept no data for it")
	}
	if raw[0] == '"' { // hex: Hyperion could not deserialize it
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return raw, err
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return raw, fmt.Errorf("its data is a string that is not hex: %w", err)
		}
		return raw, antelope.UnmarshalBinary(b, v)
	}
	fixed, err := c.repairAction(a.Contract, a.Name, raw)
	if err != nil {
		return raw, err
	}
	return raw, antelope.UnmarshalJSON(fixed, v)
}

// Rows yields the changes to the rows of the table t describes from
// Hyperion's deltas, as the same ship.RowEvent that ship.Rows yields from a
// stream. f's Code and Table are t's. A row Hyperion kept packed (it could
// not deserialize it) is decoded from its bytes; a token accounts row whose
// balance Hyperion split is rebuilt with the token's precision (see
// WithPrecision). Hyperion 4.x keeps no removed rows.
func Rows[T any, P Decodable[T]](ctx context.Context, c *Client, t antelope.TableOf[T, P], f DeltaFilter, opts ...ItemOption) iter.Seq2[ship.RowEvent[T], error] {
	var o itemOptions
	for _, opt := range opts {
		opt(&o)
	}
	return func(yield func(ship.RowEvent[T], error) bool) {
		table, err := antelope.ParseName(t.Name)
		if err != nil || t.Code == 0 {
			yield(ship.RowEvent[T]{}, fmt.Errorf("hyperion: table %q has no contract account or is not a name a contract can use: use In(account)", t.Name))
			return
		}
		if f.Code != 0 && f.Code != t.Code || f.Table != 0 && f.Table != table {
			yield(ship.RowEvent[T]{}, fmt.Errorf("hyperion: the filter names %s's %s, the table %s's %s", f.Code, f.Table, t.Code, table))
			return
		}
		f.Code, f.Table = t.Code, table
		for d, err := range c.Deltas(ctx, f) {
			if err != nil {
				yield(ship.RowEvent[T]{}, err)
				return
			}
			ch := &ship.RowChange{
				Block:   &ship.Block{Position: ship.Position{Num: d.BlockNum, ID: d.BlockID}},
				Present: d.Present, Code: d.Code, Scope: d.Scope, Table: d.Table, PrimaryKey: d.PrimaryKey, Payer: d.Payer,
			}
			if !d.Timestamp.IsZero() {
				ch.Block.Timestamp = blockTimestamp(d.Timestamp)
			}
			v := new(T)
			raw, err := c.rowData(ctx, &d, P(v))
			if err == nil {
				ch.Value, err = P(v).AppendBinary(nil)
			}
			if err != nil {
				if o.policy == ship.Skip {
					continue
				}
				ie := &ship.ItemError{Block: ch.Block.Position, Contract: d.Code, Name: d.Table, Raw: raw, Err: err}
				if !yield(ship.RowEvent[T]{Change: ch}, ie) || o.policy == ship.Stop {
					return
				}
				continue
			}
			ev := ship.RowEvent[T]{Change: ch}
			if d.Present {
				ev.New = v
			} else {
				ev.Old = v
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// rowData decodes a row into v and returns what it came from.
func (c *Client) rowData(ctx context.Context, d *Delta, v interface {
	antelope.BinaryDecodable
	antelope.JSONDecodable
}) ([]byte, error) {
	if d.Data == nil {
		if d.Value != nil {
			return d.Value, antelope.UnmarshalBinary(d.Value, v)
		}
		return nil, fmt.Errorf("hyperion kept no data for it")
	}
	raw := []byte(d.Data)
	// Hyperion splits only a row with a string balance; a contract's own
	// accounts table may have amount and symbol fields of its own: a row
	// that decodes as it is was not rewritten.
	if antelope.UnmarshalJSON(raw, v) == nil {
		return raw, nil
	}
	fixed, err := c.repairRow(ctx, d.Code, d.Table, raw)
	if err != nil {
		return raw, err
	}
	return raw, antelope.UnmarshalJSON(fixed, v)
}
