package ship

import (
	"fmt"
	"iter"

	"github.com/antelopego/abigen/antelope"
)

// Source is what Actions and Rows read: a whole Stream, or one *Block.
type Source interface {
	events(yield func(Event, error) bool)
}

func (s Stream) events(yield func(Event, error) bool) { s(yield) }
func (b *Block) events(yield func(Event, error) bool) { yield(Event{Block: b}, nil) }

// ErrorPolicy says what a typed sequence does with an item whose bytes do
// not decode as the generated type (a contract whose ABI changed, a
// binding generated from another version): the error is an *ItemError.
type ErrorPolicy uint8

// The policies.
const (
	// Report yields the *ItemError and goes on with the next item if the
	// loop goes on (the default).
	Report ErrorPolicy = iota
	// Skip leaves such items out silently.
	Skip
	// Stop yields the *ItemError and ends the sequence.
	Stop
)

// OnDecodeError sets the ErrorPolicy of Actions and Rows.
func OnDecodeError(p ErrorPolicy) ItemOption { return func(o *itemOptions) { o.policy = p } }

// ItemError is an action or row that the generated type could not decode.
// It carries the raw bytes and where they were.
type ItemError struct {
	Block    Position      // the block
	Contract antelope.Name // the action's contract, or the row's code
	Name     antelope.Name // the action, or the row's table
	Raw      []byte        // the undecodable bytes (a copy)
	Err      error         // the decoder's error
}

// Error implements error.
func (e *ItemError) Error() string {
	return fmt.Sprintf("ship: block %d: %s::%s does not decode with the generated type (%v): its ABI may have changed; decode Raw with the ABI in force (ActionTrace.ABI), or regenerate the bindings", e.Block.Num, e.Contract, e.Name, e.Err)
}

// Unwrap returns Err.
func (e *ItemError) Unwrap() error { return e.Err }

// ActionEvent is a typed action with its context, or an Undo.
type ActionEvent[T any] struct {
	// Undo is set (and nothing else) when a fork undid blocks already
	// delivered; range over a Stream only.
	Undo *Undo
	// Trace is the action's context: block, transaction, receipt,
	// ordinals, authorization. It is only valid during the loop body.
	Trace *ActionTrace
	// Data is the decoded action data.
	Data T
}

// Actions yields the actions a describes — of a.Account (antelope.ActionOf.In
// chooses another deployment), named a.Name — decoded into the generated
// type, from a Stream or one Block:
//
//	for ev, err := range ship.Actions(stream, eosiotoken.Actions.Transfer) { … ev.Data.Quantity … }
//
// Other contracts' actions are skipped before decoding and cost no
// allocation. Notifications and actions that did not take effect are left
// out unless WithNotifications or WithFailed say otherwise. From a Stream,
// a fork yields an event with Undo set before the new branch's actions, and
// a stream error ends the sequence; to persist a cursor per block, range
// over the stream and call Actions on each ev.Block.
func Actions[T any, P interface {
	*T
	antelope.BinaryDecodable
}](src Source, a antelope.ActionOf[T, P], opts ...ItemOption) iter.Seq2[ActionEvent[T], error] {
	o := options(opts)
	o.actions.account, o.actions.name = a.Account, a.Name
	return func(yield func(ActionEvent[T], error) bool) {
		if a.Account == 0 {
			yield(ActionEvent[T]{}, fmt.Errorf("ship: action %s has no contract account: the ABI named none; use In(account)", a.Name))
			return
		}
		d, v := antelope.NewDecoder(nil), new(T)
		src.events(func(ev Event, err error) bool {
			if err != nil {
				yield(ActionEvent[T]{}, err)
				return false
			}
			if ev.Undo != nil {
				return yield(ActionEvent[T]{Undo: ev.Undo}, nil)
			}
			more := true
			ev.Block.walkActions(&o.actions, func(t *ActionTrace) bool {
				if err := decodeInto[T, P](d, v, t.Data); err != nil {
					if o.policy == Skip {
						return true
					}
					more = yield(ActionEvent[T]{Trace: t}, &ItemError{Block: t.Block.Position, Contract: t.Contract, Name: t.Name, Raw: append([]byte(nil), t.Data...), Err: err})
					more = more && o.policy != Stop
					return more
				}
				more = yield(ActionEvent[T]{Trace: t, Data: *v}, nil)
				return more
			}, func(err error) { more = yield(ActionEvent[T]{}, err) && false })
			return more
		})
	}
}

// decodeInto decodes data, which must hold exactly one T, into *v with d:
// one Decoder and one T per walk, so that a match costs what the generated
// decoder costs and nothing more.
func decodeInto[T any, P interface {
	*T
	antelope.BinaryDecodable
}](d *antelope.Decoder, v *T, data []byte) error {
	var zero T
	*v = zero
	d.Reset(data)
	if err := P(v).DecodeBinary(d); err != nil {
		return err
	}
	return d.Finish()
}

// RowEvent is a typed row change, or an Undo.
type RowEvent[T any] struct {
	// Undo is set (and nothing else) when a fork undid blocks already
	// delivered; range over a Stream only.
	Undo *Undo
	// Change is the row's context: block, code, scope, table, primary
	// key, payer, presence. It is only valid during the loop body.
	Change *RowChange
	// New is the row's value after the block, for a created or modified
	// row; nil for a removed row.
	New *T
	// Old is the value a removed row had; nil otherwise. State history
	// gives no old value for a modified row.
	//
	// New and Old point to a value the sequence reuses for the next row:
	// copy it (*ev.New) to keep it.
	Old *T
}

// Rows yields the changes to the rows of the table t describes (of t.Code;
// In chooses another deployment), decoded into the generated row type, from
// a Stream or one Block:
//
//	for ev, err := range ship.Rows(stream, eosiotoken.TableAccounts) { … ev.New.Balance … }
//
// Other contracts' and tables' rows are skipped before decoding and cost
// no allocation. From a Stream, a fork yields an event with Undo set first.
func Rows[T any, P interface {
	*T
	antelope.BinaryDecodable
}](src Source, t antelope.TableOf[T, P], opts ...ItemOption) iter.Seq2[RowEvent[T], error] {
	o := options(opts)
	return func(yield func(RowEvent[T], error) bool) {
		table, err := antelope.ParseName(t.Name)
		if err != nil || t.Code == 0 {
			yield(RowEvent[T]{}, fmt.Errorf("ship: table %q has no contract account or is not a name a contract can use: use In(account)", t.Name))
			return
		}
		o.rows.code, o.rows.table = t.Code, table
		d, v := antelope.NewDecoder(nil), new(T)
		src.events(func(ev Event, err error) bool {
			if err != nil {
				yield(RowEvent[T]{}, err)
				return false
			}
			if ev.Undo != nil {
				return yield(RowEvent[T]{Undo: ev.Undo}, nil)
			}
			more := true
			ev.Block.walkRows(o.rows, func(r *RowChange) bool {
				if err := decodeInto[T, P](d, v, r.Value); err != nil {
					if o.policy == Skip {
						return true
					}
					more = yield(RowEvent[T]{Change: r}, &ItemError{Block: r.Block.Position, Contract: r.Code, Name: r.Table, Raw: append([]byte(nil), r.Value...), Err: err})
					more = more && o.policy != Stop
					return more
				}
				ev := RowEvent[T]{Change: r}
				if r.Present {
					ev.New = v
				} else {
					ev.Old = v
				}
				more = yield(ev, nil)
				return more
			}, func(err error) { more = yield(RowEvent[T]{}, err) && false })
			return more
		})
	}
}
