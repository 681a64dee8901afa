package mirror

import (
	"errors"
	"fmt"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// Schema is the SQL form of one contract's ABI: a table per contract table
// and, if asked, an append-only table per action. It is built from the same
// resolved model (package model) the Go bindings are generated from.
type Schema struct {
	Tables  []*Table // the contract's tables, in the ABI's order
	Actions []*Table // the action tables, in the ABI's order; empty unless asked
	Indexes []Index  // the secondary keys the ABI names

	dialect Dialect
	byTable map[antelope.Name]*Table
	byName  map[antelope.Name]*Table // actions
}

// Table is one SQL table: a contract table's rows, or an action's log.
type Table struct {
	ABIName string    // the table's or action's name in the ABI
	SQLName string    // the SQL table name (quote it when writing SQL)
	Columns []*Column // the context columns, the fields' columns, then _raw
	Key     []string  // the primary key's columns

	meta  int // the number of context columns before the fields'
	shape shape
}

// Column is one column of a Table.
type Column struct {
	Name    string // the SQL name (quote it)
	Type    string // the SQL type in the schema's dialect
	Field   string // the ABI field it comes from; "" for a context column
	NotNull bool   // every row has a value

	class class
}

// Index is an index on a secondary key the ABI names (a table's
// key_names after the first, the primary key, that are fields of its
// rows).
type Index struct {
	Name    string   // the SQL index name
	Table   string   // the SQL table name
	Columns []string // code, scope and the key's column
}

// SchemaOptions change what NewSchema builds.
type SchemaOptions struct {
	// Prefix starts every SQL table and index name, to keep two
	// contracts' tables apart in one database ("token_").
	Prefix string
	// Actions adds a table per action.
	Actions bool
}

// The names of the mirror's own tables, reserved: an ABI table cannot take
// them (antelope names have no '_').
const (
	stateTable = "_mirror_state"
	undoTable  = "_mirror_undo"
	// A backfill's parts, and the row changes they read, until merged.
	rangesTable   = "_mirror_ranges"
	backfillTable = "_mirror_backfill"
	claimsTable   = "_mirror_claims" // a part's row is locked by the reader reading it
	rawColumn     = "_raw"
)

// NewSchema builds the SQL schema of m for a dialect. The names of tables
// are the ABI's (an action's table is "<action>_action", which no table can
// be named), with Prefix; every name is quoted in the SQL, sanitized where
// neither database could hold it, and made distinct where two would clash.
func NewSchema(m *model.Model, d Dialect, opts SchemaOptions) (*Schema, error) {
	s := &Schema{dialect: d, byTable: map[antelope.Name]*Table{}, byName: map[antelope.Name]*Table{}}
	names := newNamer(stateTable, undoTable, rangesTable, backfillTable, claimsTable)
	for _, mt := range m.Tables {
		n, err := antelope.ParseName(mt.Name)
		if err != nil {
			return nil, fmt.Errorf("mirror: table %q: not a name nodeos could hold: %w", mt.Name, err)
		}
		t := newTable(mt.Name, names.name(opts.Prefix+mt.Name), d, mt.Type, []*Column{
			{Name: "code", class: cText, NotNull: true},
			{Name: "scope", class: cText, NotNull: true},
			{Name: "primary_key", class: cUint64, NotNull: true},
			{Name: "payer", class: cText, NotNull: true},
		})
		t.Key = []string{"code", "scope", "primary_key"}
		s.Tables = append(s.Tables, t)
		s.byTable[n] = t
		// key_names lists the primary key first (as CDT writes it and
		// chaintest reads it): the secondary keys follow.
		for i, key := range mt.KeyNames {
			if i == 0 {
				continue
			}
			for _, c := range t.Columns[t.meta:] {
				if c.Field == key && c.Name != rawColumn {
					s.Indexes = append(s.Indexes, Index{Name: names.name(opts.Prefix + mt.Name + "_by_" + key),
						Table: t.SQLName, Columns: []string{"code", "scope", c.Name}})
					break
				}
			}
		}
	}
	if opts.Actions {
		for _, ma := range m.Actions {
			n, err := antelope.ParseName(ma.Name)
			if err != nil {
				return nil, fmt.Errorf("mirror: action %q: not a name nodeos could hold: %w", ma.Name, err)
			}
			t := newTable(ma.Name, names.name(opts.Prefix+ma.Name+"_action"), d, ma.Type, []*Column{
				{Name: "global_sequence", class: cUint64, NotNull: true},
				{Name: "block_num", class: cInt, NotNull: true},
				{Name: "block_id", class: cText, NotNull: true},
				{Name: "trx_id", class: cText, NotNull: true},
				{Name: "action_ordinal", class: cInt, NotNull: true},
				{Name: "receiver", class: cText, NotNull: true},
				{Name: "authorization", class: cJSON, NotNull: true},
			})
			t.Key = []string{"global_sequence"}
			t.shape.trailing = true
			s.Actions = append(s.Actions, t)
			s.byName[n] = t
			s.Indexes = append(s.Indexes, Index{Name: names.name(opts.Prefix + ma.Name + "_action_by_block"),
				Table: t.SQLName, Columns: []string{"block_num"}})
		}
	}
	return s, nil
}

// newTable lays out a table: the context columns, a column or two per
// field of the row type, and _raw, the packed bytes as the chain has them.
func newTable(abiName, sqlName string, d Dialect, row *model.Type, meta []*Column) *Table {
	t := &Table{ABIName: abiName, SQLName: sqlName, Columns: meta, meta: len(meta)}
	cols := newNamer()
	for _, c := range meta {
		cols.name(c.Name)
	}
	cols.name(rawColumn)
	t.shape = newShape(row, d)
	for _, f := range t.shape.fields {
		for _, part := range f.parts {
			name := f.name
			if part.suffix != "" {
				name += "_" + part.suffix
			}
			t.Columns = append(t.Columns, &Column{Name: cols.name(name), Field: f.name, class: part.class})
		}
	}
	t.Columns = append(t.Columns, &Column{Name: rawColumn, class: cBytes, NotNull: true})
	for _, c := range t.Columns {
		c.Type = d.sqlType(c.class)
	}
	return t
}

// DDL returns the statements that create the schema (and the mirror's own
// tables) where they do not exist yet.
func (s *Schema) DDL() []string {
	var out []string
	for _, t := range append(append([]*Table{}, s.Tables...), s.Actions...) {
		out = append(out, t.createSQL())
	}
	for _, ix := range s.Indexes {
		cols := make([]string, len(ix.Columns))
		for i, c := range ix.Columns {
			cols[i] = quote(c)
		}
		out = append(out, fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (%s)", quote(ix.Name), quote(ix.Table), strings.Join(cols, ", ")))
	}
	return append(out, s.systemDDL()...)
}

func (t *Table) createSQL() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE IF NOT EXISTS %s (\n", quote(t.SQLName))
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "\t%s", quote(c.Name))
		if c.Type != "" { // SQLite's floats have none (Dialect.sqlType)
			b.WriteString(" " + c.Type)
		}
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
		b.WriteString(",\n")
	}
	key := make([]string, len(t.Key))
	for i, k := range t.Key {
		key[i] = quote(k)
	}
	fmt.Fprintf(&b, "\tPRIMARY KEY (%s)\n)", strings.Join(key, ", "))
	return b.String()
}

// systemDDL creates the mirror's own tables: its position (the cursor, per
// mirror); the undo log, the rows' previous values for each reversible
// block, by which an Undo restores them; a backfill's parts and staged row
// changes.
func (s *Schema) systemDDL() []string {
	d := s.dialect
	return []string{
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	"mirror" TEXT NOT NULL PRIMARY KEY,
	"abi_sha256" TEXT NOT NULL,
	"abi" TEXT NOT NULL,
	"cursor" TEXT NOT NULL,
	"block_num" %[2]s NOT NULL,
	"lib" %[2]s NOT NULL
)`, quote(stateTable), d.sqlType(cInt)),
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	"mirror" TEXT NOT NULL,
	"block_num" %s NOT NULL,
	"seq" %s NOT NULL,
	"tbl" TEXT NOT NULL,
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT,
	"raw" %s,
	PRIMARY KEY ("mirror", "block_num", "seq")
)`, quote(undoTable), d.sqlType(cInt), d.sqlType(cInt), d.sqlType(cBytes)),
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	"mirror" TEXT NOT NULL,
	"first" %[2]s NOT NULL,
	"last" %[2]s NOT NULL,
	"next" %[2]s NOT NULL,
	"cursor" TEXT NOT NULL,
	PRIMARY KEY ("mirror", "first")
)`, quote(rangesTable), d.sqlType(cInt)),
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	"mirror" TEXT NOT NULL,
	"first" %s NOT NULL,
	PRIMARY KEY ("mirror", "first")
)`, quote(claimsTable), d.sqlType(cInt)),
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
	"mirror" TEXT NOT NULL,
	"block_num" %[2]s NOT NULL,
	"seq" %[2]s NOT NULL,
	"tbl" TEXT NOT NULL,
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT,
	"raw" %[3]s,
	PRIMARY KEY ("mirror", "block_num", "seq")
)`, quote(backfillTable), d.sqlType(cInt), d.sqlType(cBytes)),
	}
}

// ErrInvalidABI: the ABI given cannot be read or is not valid.
var ErrInvalidABI = errors.New("mirror: the ABI cannot be read or is invalid")

// SchemaOf is NewSchema for an ABI in any form abigen --abi reads.
func SchemaOf(abi []byte, d Dialect, opts SchemaOptions) (*Schema, error) {
	_, m, err := loadABI(abi)
	if err != nil {
		return nil, err
	}
	return NewSchema(m, d, opts)
}

// loadABI reads and resolves an ABI in any form abigen --abi reads.
func loadABI(abi []byte) (*model.Source, *model.Model, error) {
	src, err := model.Load(abi)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalidABI, err)
	}
	m, err := model.Resolve(src.ABI)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalidABI, err)
	}
	return src, m, nil
}
