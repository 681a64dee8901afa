package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
	"github.com/antelopego/abigen/ship"
)

// Options configure a Mirror.
type Options struct {
	// Contract is the account whose tables (and actions) are mirrored.
	Contract antelope.Name
	// Prefix starts the SQL names of its tables (see SchemaOptions).
	Prefix string
	// Actions also mirrors the contract's actions, one append-only table
	// per action of the ABI.
	Actions bool
	// FinalOnly mirrors irreversible blocks only: Run asks the node for
	// them alone, no undo log is kept, and the database never holds a
	// block a fork could replace.
	FinalOnly bool
	// Hook, when set, runs inside each block's (or Undo's) database
	// transaction after the mirror's own writes and before the cursor is
	// committed with them: derived tables written there are exactly as
	// fork-safe and crash-safe as the mirror. An error rolls the whole
	// block back and ends Apply or Run with it.
	Hook func(ctx context.Context, tx *sql.Tx, ev ship.Event) error
	// Migrate lets Open take a database made for another ABI of the
	// contract when abidiff finds nothing that breaks stored rows (nor,
	// with Actions, action payloads): tables whose columns changed are
	// rebuilt from the bytes they keep (_raw), decoded with the new ABI, in
	// one transaction. Without it, or when something breaks, Open refuses
	// with ErrABIChanged.
	Migrate bool
}

// Mirror keeps a contract's tables (and actions) in a SQL database, block
// by block, from a state-history stream. Each block's changes are written
// in one database transaction together with the stream's cursor, and an
// Undo restores the rows the undone blocks changed from the undo log it
// keeps for reversible blocks: the database always equals the contract's
// state at the end of one block, the one its cursor names. A Mirror is
// used by one goroutine at a time (Backfill runs its readers itself).
type Mirror struct {
	db        *sql.DB
	dialect   Dialect
	schema    *Schema
	opts      Options
	id        string // the mirror's key in _mirror_state and _mirror_undo
	abiHash   string
	packedABI []byte // the ABI as a setabi action carries it
	src       *model.Source
	model     *model.Model
	tables    map[*Table]statements
	prunePS   string
	undoPS    string
	logPS     string
	statePS   string
	cursorPS  string
	followPS  string
	crash     func() error // tests: fails a statement, as a crash between two would
	multi     multiStatements
	written   blockCounts // by the last block applied, for Run's Progress
}

// blockCounts is what one block wrote.
type blockCounts struct{ rows, actions int }

// ErrSchemaMismatch: a table the mirror writes exists with other columns:
// another contract's or ABI's table of the same name (give this mirror a
// Prefix of its own).
var ErrSchemaMismatch = errors.New("mirror: a table of the database has other columns than this ABI's")

// ErrABIChanged: the database was created for another ABI of the contract.
var ErrABIChanged = errors.New("mirror: the database mirrors another ABI of this contract")

// Open prepares db (opened by OpenDB, or your own *sql.DB of the dialect)
// to mirror the contract whose ABI is abi (any form abigen --abi reads):
// it creates the tables that do not exist yet, and refuses (ErrABIChanged)
// a database that mirrors another ABI of the same contract.
func Open(ctx context.Context, db *sql.DB, d Dialect, abi []byte, opts Options) (*Mirror, error) {
	if opts.Contract == 0 {
		return nil, errors.New("mirror: Options.Contract is required")
	}
	src, model, err := loadABI(abi)
	if err != nil {
		return nil, err
	}
	schema, err := NewSchema(model, d, SchemaOptions{Prefix: opts.Prefix, Actions: opts.Actions})
	if err != nil {
		return nil, err
	}
	packed, err := src.ABI.Pack()
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	mr := &Mirror{db: db, packedABI: packed, src: src, model: model, dialect: d, schema: schema, opts: opts, id: mirrorID(opts),
		abiHash: src.SHA256(), tables: map[*Table]statements{}}
	for _, t := range append(append([]*Table{}, schema.Tables...), schema.Actions...) {
		mr.tables[t] = t.statements(d)
	}
	mr.prunePS = d.params(`DELETE FROM "_mirror_undo" WHERE "mirror" = ? AND "block_num" <= ?`)
	mr.undoPS = d.params(`SELECT "tbl", "code", "scope", "primary_key", "payer", "raw" FROM "_mirror_undo" WHERE "mirror" = ? AND "block_num" = ? ORDER BY "seq" DESC`)
	mr.logPS = d.params(`INSERT INTO "_mirror_undo" ("mirror", "block_num", "seq", "tbl", "code", "scope", "primary_key", "payer", "raw") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	// "lib" only grows: it is the highest last irreversible block the
	// mirror was told of, below which nothing may be undone.
	mr.statePS = d.params(`INSERT INTO "_mirror_state" ("mirror", "abi_sha256", "abi", "cursor", "block_num", "lib") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ("mirror") DO UPDATE SET "cursor" = excluded."cursor", "block_num" = excluded."block_num",
		"lib" = CASE WHEN excluded."lib" > "_mirror_state"."lib" THEN excluded."lib" ELSE "_mirror_state"."lib" END`)
	// FOR UPDATE: a second process's block waits for this one's commit,
	// then finds the cursor moved (SQLite has one writer at a time).
	mr.followPS = d.params(`SELECT "cursor", "lib" FROM "_mirror_state" WHERE "mirror" = ?`)
	if d == Postgres {
		mr.followPS += ` FOR UPDATE`
	}
	mr.cursorPS = d.params(`SELECT "abi_sha256", "cursor" FROM "_mirror_state" WHERE "mirror" = ?`)
	if err := mr.create(ctx); err != nil {
		return nil, endedBy(ctx, err)
	}
	return mr, nil
}

// mirrorID is the mirror's key in its bookkeeping tables: the contract,
// and "/" and the prefix when there is one. Prefix and contract run
// together would give contract "tokx" and contract "x" with prefix "tok"
// one key, one cursor; a name holds no '/', so these keys cannot meet.
func mirrorID(opts Options) string {
	if opts.Prefix == "" {
		return opts.Contract.String()
	}
	return opts.Contract.String() + "/" + opts.Prefix
}

// Schema is the SQL schema the mirror writes.
func (m *Mirror) Schema() *Schema { return m.schema }

func (m *Mirror) create(ctx context.Context) error {
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	defer tx.Rollback()
	for _, stmt := range m.schema.systemDDL() {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("mirror: creating the schema: %w\n%s", err, stmt)
		}
	}
	var hash, oldABI string
	switch err := tx.QueryRowContext(ctx, m.dialect.params(`SELECT "abi_sha256", "abi" FROM "_mirror_state" WHERE "mirror" = ?`), m.id).Scan(&hash, &oldABI); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("mirror: %w", err)
	case hash != m.abiHash && !m.opts.Migrate:
		return fmt.Errorf("%w: the database's ABI has sha256 %s, this one %s: migrate (Options.Migrate, abigen mirror --migrate), mirror into a new database (or another --prefix), or compare the two with abigen diff",
			ErrABIChanged, hash, m.abiHash)
	case hash != m.abiHash:
		if err := m.migrate(ctx, tx, []byte(oldABI)); err != nil {
			return err
		}
	}
	for _, stmt := range m.schema.DDL() {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("mirror: creating the schema: %w\n%s", err, stmt)
		}
	}
	if err := m.checkColumns(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// checkColumns makes sure each table the mirror writes has the columns it
// would have created: CREATE TABLE IF NOT EXISTS keeps a table of the same
// name that another mirror made for another ABI.
func (m *Mirror) checkColumns(ctx context.Context, tx *sql.Tx) error {
	for _, t := range append(append([]*Table{}, m.schema.Tables...), m.schema.Actions...) {
		// The ABI's hash in the text: pgx caches a statement by its text,
		// and a cached plan must not see a table migrated under it.
		rows, err := tx.QueryContext(ctx, `SELECT * FROM `+quote(t.SQLName)+` WHERE 1 = 0 -- `+m.abiHash)
		if err != nil {
			return fmt.Errorf("mirror: reading table %s: %w", t.SQLName, err)
		}
		have, err := rows.Columns()
		rows.Close()
		if err != nil {
			return fmt.Errorf("mirror: reading table %s: %w", t.SQLName, err)
		}
		want := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			want[i] = c.Name
		}
		if !slices.Equal(have, want) {
			return fmt.Errorf("%w: table %s has (%s), this ABI's table %s would have (%s): mirror this contract with a prefix of its own (Options.Prefix, --prefix)",
				ErrSchemaMismatch, t.SQLName, strings.Join(have, ", "), t.ABIName, strings.Join(want, ", "))
		}
	}
	return nil
}

// Cursor is where the database stands: the cursor committed with the last
// block written; zero for a new database.
func (m *Mirror) Cursor(ctx context.Context) (ship.Cursor, error) {
	c, err := m.cursor(ctx)
	return c, endedBy(ctx, err)
}

func (m *Mirror) cursor(ctx context.Context) (ship.Cursor, error) {
	var hash, text string
	var c ship.Cursor
	err := m.db.QueryRowContext(ctx, m.cursorPS, m.id).Scan(&hash, &text)
	if errors.Is(err, sql.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("mirror: reading the cursor: %w", err)
	}
	if err := c.UnmarshalText([]byte(text)); err != nil {
		return c, fmt.Errorf("mirror: the cursor in the database: %w", err)
	}
	return c, nil
}

// Apply writes one event of a stream — a block's row changes and actions,
// or an Undo's reversal — and the event's cursor, in one database
// transaction. On error nothing of the event is written; an Apply stopped
// by its context returns an error that wraps the context's, as Run's does.
func (m *Mirror) Apply(ctx context.Context, ev ship.Event) error {
	return endedBy(ctx, m.apply(ctx, ev))
}

func (m *Mirror) apply(ctx context.Context, ev ship.Event) error {
	if ev.Undo != nil && m.opts.FinalOnly {
		// No undo log was kept: the rows cannot be put back.
		return errors.New("mirror: an Undo reached a FinalOnly mirror: stream it irreversible blocks only (ship.Request.FinalOnly)")
	}
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	defer tx.Rollback()
	dbLIB, err := m.follows(ctx, tx, ev)
	if err != nil {
		return err
	}
	var num, lib uint32
	if ev.Undo != nil {
		err = m.undo(ctx, tx, ev.Undo, dbLIB)
		num = ev.Cursor().Last().Num
	} else {
		err = m.block(ctx, tx, ev.Block)
		num, lib = ev.Block.Num, ev.Block.LastIrreversible.Num
		if m.opts.FinalOnly {
			lib = num
		}
	}
	if err != nil {
		return err
	}
	if m.opts.Hook != nil {
		if err := m.opts.Hook(ctx, tx, ev); err != nil {
			return fmt.Errorf("mirror: hook: %w", err)
		}
	}
	cursor, err := ev.Cursor().MarshalText()
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if err := m.exec(ctx, tx, m.statePS, m.id, m.abiHash, string(m.src.JSON), string(cursor), int64(num), int64(lib)); err != nil {
		return fmt.Errorf("mirror: saving the cursor: %w", err)
	}
	if err := m.beforeStatement(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("mirror: commit of %s: %w", eventName(ev), err)
	}
	return nil
}

// follows checks, in the event's transaction, that ev continues the
// database's cursor — the next block, or an Undo from its last block — and
// returns the highest last irreversible block the database was told of.
func (m *Mirror) follows(ctx context.Context, tx *sql.Tx, ev ship.Event) (uint32, error) {
	if err := m.beforeStatement(); err != nil {
		return 0, err
	}
	var text string
	var lib int64
	switch err := tx.QueryRowContext(ctx, m.followPS, m.id).Scan(&text, &lib); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("mirror: reading the cursor: %w", err)
	}
	var c ship.Cursor
	if err := c.UnmarshalText([]byte(text)); err != nil {
		return 0, fmt.Errorf("mirror: the cursor in the database: %w", err)
	}
	if c.IsZero() {
		return uint32(lib), nil
	}
	last := c.Last()
	switch {
	case ev.Undo != nil && len(ev.Undo.Blocks) > 0 && ev.Undo.Blocks[0] != last:
		return 0, fmt.Errorf("%w: an undo from block %d, and the database is at block %d", ErrNotNext, ev.Undo.Blocks[0].Num, last.Num)
	case ev.Block != nil && (ev.Block.Num != last.Num+1 || ev.Block.Previous != (antelope.Checksum256{}) && ev.Block.Previous != last.ID):
		return 0, fmt.Errorf("%w: block %d, and the database is at block %d (%x…): is another process mirroring into it?", ErrNotNext, ev.Block.Num, last.Num, last.ID[:4])
	}
	return uint32(lib), nil
}

func eventName(ev ship.Event) string {
	if ev.Undo != nil {
		return fmt.Sprintf("the undo of %d blocks", len(ev.Undo.Blocks))
	}
	return "block " + strconv.FormatUint(uint64(ev.Block.Num), 10)
}
