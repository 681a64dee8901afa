package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
)

var (
	eosio  = antelope.MustName("eosio")
	setabi = antelope.MustName("setabi")
)

// ErrABIChangedOnChain: the contract set another ABI; its rows and actions
// from that block on may not decode with the one mirrored. The mirror
// stops before the block, with everything below it committed.
var ErrABIChangedOnChain = errors.New("mirror: the contract set a new ABI")

// ErrUndoFinal: the stream undoes a block the mirror was told is
// irreversible. Nothing is written: the database keeps the chain it has.
var ErrUndoFinal = errors.New("mirror: the stream undoes an irreversible block")

// ErrNotNext: the event does not continue the database's cursor: another
// process mirrors into the same database, or the stream is not the one
// the cursor came from. Nothing is written.
var ErrNotNext = errors.New("mirror: the event does not follow the database's cursor")

// block writes a block's row changes and actions. In a reversible block it
// first logs each changed row's previous value (or its absence) for undo;
// it prunes the log of blocks that became irreversible.
func (m *Mirror) block(ctx context.Context, tx *sql.Tx, b *ship.Block) error {
	m.written = blockCounts{}
	if err := m.checkABI(b); err != nil {
		return err
	}
	lib := b.LastIrreversible.Num
	reversible := !m.opts.FinalOnly && b.Num > lib
	// The changes first: in a reversible block each row's previous value
	// is logged before any of the block's writes (state history gives one
	// change per row and block, so none of them is a previous value).
	type change struct {
		t                      *Table
		code, scope, pk, payer string
		present                bool
		value                  []byte // aliases the message: valid while the block is handled
	}
	var changes []change
	for rc, err := range b.Rows(ship.OfContract(m.opts.Contract)) {
		if err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		t := m.schema.byTable[rc.Table]
		if t == nil {
			continue // a table the ABI does not declare: nothing types it
		}
		changes = append(changes, change{t, rc.Code.String(), rc.Scope.String(), strconv.FormatUint(rc.PrimaryKey, 10),
			rc.Payer.String(), rc.Present, rc.Value})
	}
	if reversible {
		for seq, c := range changes {
			if err := m.logPrevious(ctx, tx, c.t, b.Num, seq, c.code, c.scope, c.pk); err != nil {
				return err
			}
		}
	}
	rows := m.newBatch()
	for _, c := range changes {
		var err error
		if c.present {
			var vals []any
			if vals, err = m.rowValues(c.t, c.code, c.scope, c.pk, c.payer, c.value); err == nil {
				err = rows.add(ctx, tx, c.t, true, c.scope+"/"+c.pk, vals)
			}
		} else if err = rows.flush(ctx, tx); err == nil {
			err = m.exec(ctx, tx, m.tables[c.t].delete, c.code, c.scope, c.pk)
		}
		if err != nil {
			return fmt.Errorf("mirror: block %d, table %s, scope %s, key %s: %w", b.Num, c.t.ABIName, c.scope, c.pk, err)
		}
	}
	if err := rows.flush(ctx, tx); err != nil {
		return fmt.Errorf("mirror: block %d, table %s: %w", b.Num, rows.t.ABIName, err)
	}
	m.written.rows = len(changes)
	if m.opts.Actions {
		n, err := m.actions(ctx, tx, b)
		if err != nil {
			return err
		}
		m.written.actions = n
	}
	if !m.opts.FinalOnly {
		if err := m.exec(ctx, tx, m.prunePS, m.id, int64(lib)); err != nil {
			return fmt.Errorf("mirror: pruning the undo log: %w", err)
		}
	}
	return nil
}

// checkABI stops at a block where the contract gets an ABI other than the
// one mirrored: by an account delta (what nodeos records for every setabi)
// or, in a stream without deltas, a setabi action. An ABI cleared or set
// to the one mirrored (a redeployment; the deployment the mirror may start
// at) is no change.
func (m *Mirror) checkABI(b *ship.Block) error {
	changed := func(abi []byte) error {
		if len(abi) == 0 || bytes.Equal(abi, m.packedABI) {
			return nil
		}
		return fmt.Errorf("%w at block %d: everything before it is committed; go on with the new ABI and --migrate (Options.Migrate) when abigen diff finds nothing that breaks the rows, or into a new database",
			ErrABIChangedOnChain, b.Num)
	}
	for delta, err := range b.TableDeltas() {
		if err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		if delta.Table != "account" || !delta.Present {
			continue
		}
		row, err := protocol.DecodeTableRow(delta.Table, delta.Data)
		if err != nil {
			return fmt.Errorf("mirror: block %d: an account delta: %w", b.Num, err)
		}
		if a, ok := row.(*protocol.Account); ok {
			if v0, ok := a.Value.(*protocol.AccountV0); ok && v0.Name == m.opts.Contract {
				if err := changed(v0.ABI); err != nil {
					return err
				}
			}
		}
	}
	for a, err := range b.Actions(ship.OfContract(eosio), ship.Named(setabi)) {
		if err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		d := antelope.NewDecoder(a.Data)
		var account antelope.Name
		if account.DecodeBinary(d) != nil || account != m.opts.Contract {
			continue
		}
		abi, err := d.ByteSlice("abi")
		if err != nil {
			return fmt.Errorf("mirror: block %d: a setabi action: %w", b.Num, err)
		}
		if err := changed(abi); err != nil {
			return err
		}
	}
	return nil
}

// logPrevious records the row's value before this block changes it, or
// that it had none (payer NULL).
func (m *Mirror) logPrevious(ctx context.Context, tx *sql.Tx, t *Table, num uint32, seq int, code, scope, pk string) error {
	var payer sql.NullString
	var raw []byte
	if err := m.beforeStatement(); err != nil {
		return err
	}
	err := tx.QueryRowContext(ctx, m.tables[t].selectBy, code, scope, pk).Scan(&payer, &raw)
	if errors.Is(err, sql.ErrNoRows) {
		payer, raw, err = sql.NullString{}, nil, nil
	}
	if err != nil {
		return fmt.Errorf("mirror: reading the row before block %d: %w", num, err)
	}
	var p, r any
	if payer.Valid {
		p, r = payer.String, raw
	}
	if err := m.exec(ctx, tx, m.logPS, m.id, int64(num), seq, t.ABIName, code, scope, pk, p, r); err != nil {
		return fmt.Errorf("mirror: writing the undo log: %w", err)
	}
	return nil
}

// writeRow inserts or replaces one row, decoded into its columns.
func (m *Mirror) writeRow(ctx context.Context, tx *sql.Tx, t *Table, code, scope, pk, payer string, raw []byte) error {
	vals, err := m.rowValues(t, code, scope, pk, payer, raw)
	if err != nil {
		return err
	}
	return m.exec(ctx, tx, m.tables[t].upsert, vals...)
}

// rowValues are the column values of one row: its key and payer, its
// bytes decoded, its bytes (copied: they alias the stream's message).
func (m *Mirror) rowValues(t *Table, code, scope, pk, payer string, raw []byte) ([]any, error) {
	vals := make([]any, len(t.Columns))
	vals[0], vals[1], vals[2], vals[3] = code, scope, pk, payer
	if err := t.shape.decode(raw, vals[t.meta:len(vals)-1]); err != nil {
		return nil, fmt.Errorf("the row does not decode with the ABI: %w", err)
	}
	vals[len(vals)-1] = append([]byte{}, raw...)
	return vals, nil
}

// actions appends the block's actions of the contract (those that took
// effect, without notifications' copies) to their tables; how many.
func (m *Mirror) actions(ctx context.Context, tx *sql.Tx, b *ship.Block) (int, error) {
	blockID := hex.EncodeToString(b.ID[:])
	batch := m.newBatch()
	n := 0
	for a, err := range b.Actions(ship.OfContract(m.opts.Contract)) {
		if err != nil {
			return 0, fmt.Errorf("mirror: %w", err)
		}
		t := m.schema.byName[a.Name]
		if t == nil {
			continue // an action the ABI does not declare
		}
		n++
		vals := make([]any, len(t.Columns))
		vals[0] = strconv.FormatUint(a.GlobalSequence, 10)
		vals[1] = int64(b.Num)
		vals[2] = blockID
		vals[3] = hex.EncodeToString(a.TransactionID[:])
		vals[4] = int64(a.ActionOrdinal)
		vals[5] = a.Receiver.String()
		vals[6] = authorizationJSON(a.Authorization())
		if err := t.shape.decode(a.Data, vals[t.meta:len(vals)-1]); err != nil {
			return 0, fmt.Errorf("mirror: block %d, action %s (global sequence %d): the data does not decode with the ABI: %w", b.Num, t.ABIName, a.GlobalSequence, err)
		}
		vals[len(vals)-1] = append([]byte{}, a.Data...)
		if err := batch.add(ctx, tx, t, false, vals[0].(string), vals); err != nil {
			return 0, fmt.Errorf("mirror: block %d, action %s (global sequence %d): %w", b.Num, t.ABIName, a.GlobalSequence, err)
		}
	}
	if err := batch.flush(ctx, tx); err != nil {
		return 0, fmt.Errorf("mirror: block %d, actions of %s: %w", b.Num, batch.t.ABIName, err)
	}
	return n, nil
}

// authorizationJSON is nodeos's JSON of an authorization list.
func authorizationJSON(auth []antelope.PermissionLevel) string {
	b := []byte{'['}
	for i, p := range auth {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"actor":"`...)
		b = append(b, p.Actor.String()...)
		b = append(b, `","permission":"`...)
		b = append(b, p.Permission.String()...)
		b = append(b, `"}`...)
	}
	return string(append(b, ']'))
}

// restore puts a row back as an entry of the undo log (or a staged
// change) has it: its bytes, or removed when its payer is NULL.
func (m *Mirror) restore(ctx context.Context, tx *sql.Tx, e undoEntry) error {
	t := m.tableByABIName(e.table)
	if t == nil {
		return fmt.Errorf("the log names table %q, which the ABI does not have", e.table)
	}
	var err error
	if e.payer.Valid {
		err = m.writeRow(ctx, tx, t, e.code, e.scope, e.pk, e.payer.String, e.raw)
	} else {
		err = m.exec(ctx, tx, m.tables[t].delete, e.code, e.scope, e.pk)
	}
	if err != nil {
		return fmt.Errorf("table %s, scope %s, key %s: %w", e.table, e.scope, e.pk, err)
	}
	return nil
}

// undoEntry is one row of the undo log, or a staged change of a backfill.
type undoEntry struct {
	table, code, scope, pk string
	payer                  sql.NullString
	raw                    []byte
}

// undo reverts the blocks an Undo names, newest first: each changed row
// gets back the value it had before the block (or goes, if it had none),
// and the block's actions are deleted.
func (m *Mirror) undo(ctx context.Context, tx *sql.Tx, u *ship.Undo, lib uint32) error {
	for _, pos := range u.Blocks {
		if pos.Num <= lib {
			// Its undo log is pruned: the rows it changed would stay.
			return fmt.Errorf("%w: block %d, and the database holds the blocks to %d as irreversible: the node is on another chain or history than the one mirrored (a database's cursor given to another network's node?)",
				ErrUndoFinal, pos.Num, lib)
		}
	}
	for _, pos := range u.Blocks {
		entries, err := m.undoEntries(ctx, tx, pos.Num)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := m.restore(ctx, tx, e); err != nil {
				return fmt.Errorf("mirror: undoing block %d: %w", pos.Num, err)
			}
		}
		for _, t := range m.schema.Actions {
			// The contract's own: another contract of the same ABI mirrored
			// without a prefix shares the table (receiver tells them apart).
			q := m.dialect.params(`DELETE FROM ` + quote(t.SQLName) + ` WHERE "block_num" = ? AND "receiver" = ?`)
			if err := m.exec(ctx, tx, q, int64(pos.Num), m.opts.Contract.String()); err != nil {
				return fmt.Errorf("mirror: undoing block %d's actions: %w", pos.Num, err)
			}
		}
		q := m.dialect.params(`DELETE FROM "_mirror_undo" WHERE "mirror" = ? AND "block_num" = ?`)
		if err := m.exec(ctx, tx, q, m.id, int64(pos.Num)); err != nil {
			return fmt.Errorf("mirror: undoing block %d: %w", pos.Num, err)
		}
	}
	return nil
}

func (m *Mirror) undoEntries(ctx context.Context, tx *sql.Tx, num uint32) ([]undoEntry, error) {
	if err := m.beforeStatement(); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, m.undoPS, m.id, int64(num))
	if err != nil {
		return nil, fmt.Errorf("mirror: reading the undo log of block %d: %w", num, err)
	}
	defer rows.Close()
	var out []undoEntry
	for rows.Next() {
		var e undoEntry
		if err := rows.Scan(&e.table, &e.code, &e.scope, &e.pk, &e.payer, &e.raw); err != nil {
			return nil, fmt.Errorf("mirror: reading the undo log of block %d: %w", num, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("mirror: reading the undo log of block %d: %w", num, err)
	}
	return out, nil
}

func (m *Mirror) tableByABIName(name string) *Table {
	for _, t := range m.schema.Tables {
		if t.ABIName == name {
			return t
		}
	}
	return nil
}
