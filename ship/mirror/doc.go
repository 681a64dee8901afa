// Package mirror keeps a contract's tables, and if asked its actions, in a
// SQL database — SQLite (no server, no cgo) or PostgreSQL — typed from its
// ABI, from a state-history stream (package ship), fork-safe and exactly
// once:
//
//	db, dialect, err := mirror.OpenDB(ctx, "sqlite:token.db")
//	m, err := mirror.Open(ctx, db, dialect, eosiotoken.ABI, mirror.Options{Contract: token, Actions: true})
//	err = m.Run(ctx, ship.NewClient("ws://127.0.0.1:8080"), ship.Request{Start: 1}, nil)
//	// SELECT scope, balance_amount, balance_symbol FROM accounts
//
// Schema. NewSchema turns the resolved ABI (package model, the one the Go
// bindings are generated from) into one SQL table per contract table —
// code, scope, primary_key and payer, a column per field, and _raw, the
// row's bytes as the chain holds them — with the primary key (code, scope,
// primary_key) and an index per secondary key the ABI names; and, with
// Options.Actions, one append-only table per action, "<action>_action":
// global_sequence (the key), block_num, block_id, trx_id, action_ordinal,
// receiver, authorization, the fields, _raw. Every name is quoted, so an
// ABI name that is an SQL keyword or holds a quote stays one identifier.
//
// Types, exactly (no value of any type loses a bit):
//
//	bool                                   BOOLEAN (SQLite: INTEGER 0/1)
//	int8…int64, uint8…uint32, varint32/varuint32   BIGINT (SQLite: INTEGER)
//	uint64                                 NUMERIC(20,0) (SQLite: decimal TEXT)
//	int128, uint128                        NUMERIC(39,0) (SQLite: decimal TEXT)
//	float32, float64                       REAL, DOUBLE PRECISION (SQLite: no declared type, so -0 stays -0; SQLite stores NaN as NULL)
//	float128                               TEXT, "0x" and its 32 hex digits, as nodeos prints it
//	time_point, time_point_sec, block_timestamp_type   BIGINT: microseconds since 1970-01-01 UTC
//	name, symbol ("4,WAX"), symbol_code, checksums (hex), keys, signatures, bitset   TEXT, as nodeos prints them
//	string                                 TEXT (PostgreSQL: NUL and invalid UTF-8 become U+FFFD; _raw has the bytes)
//	bytes                                  BYTEA (SQLite: BLOB)
//	asset                                  <field>_amount BIGINT (in units), <field>_symbol TEXT
//	extended_asset                         <field>_amount, <field>_symbol, <field>_contract
//	structs, variants, optionals, arrays   JSON (SQLite: TEXT), nodeos's JSON dialect
//
// An absent binary extension is NULL.
//
// Guarantees. Each block's row changes and actions are written in one
// database transaction together with the stream's cursor (ship.Cursor, kept
// as its opaque text): a process killed at any instant leaves the database
// equal to the contract's state at the end of one block, and Run resumes
// after it. For a reversible block the mirror first logs each changed
// row's previous bytes (_mirror_undo); an Undo restores them, newest block
// first, and deletes the undone blocks' actions; the log of a block is
// pruned once it is irreversible, and an Undo that reaches a block the
// mirror was told is irreversible is refused (ErrUndoFinal), nothing
// written: the node is on another chain than the database. With Options.FinalOnly only irreversible
// blocks are read and no log is kept. An action is stored once (its global
// sequence is the key); an action from an undone block is deleted with it.
// A setabi of the contract to another ABI stops the mirror before that
// block (ErrABIChangedOnChain), and a database made for another ABI is
// refused (ErrABIChanged): rows are never decoded with the wrong ABI.
//
// What is mirrored: rows of the tables the ABI declares, from the block
// the mirror starts at (start at the contract's deployment to hold every
// row), and the contract's own actions that took effect (not the copies
// its notifications ran, not failed ones) whose names the ABI declares.
//
// Options.Hook runs inside each block's transaction: derived tables written
// there are as fork-safe as the mirror's. The command `abigen mirror` runs
// a mirror without writing Go (docs/mirror.md).
package mirror
