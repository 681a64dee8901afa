package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"

	"github.com/antelopego/abigen/abidiff"
)

// migrate moves a database made for oldABI to the mirror's ABI, when
// abidiff says the stored bytes still decode: each table whose columns
// changed is renamed aside, made again, and filled from its rows' _raw
// decoded with the new ABI; new tables are made by the DDL after it.
func (m *Mirror) migrate(ctx context.Context, tx *sql.Tx, oldABI []byte) error {
	oldSrc, oldModel, err := loadABI(oldABI)
	if err != nil {
		return fmt.Errorf("mirror: the ABI the database was made for: %w", err)
	}
	report, err := abidiff.Compare(oldModel, m.model, oldSrc, m.src)
	if err != nil {
		return fmt.Errorf("mirror: comparing the ABIs: %w", err)
	}
	for _, c := range report.Changes {
		if c.Kind == abidiff.BreaksData || m.opts.Actions && c.Kind == abidiff.BreaksSenders {
			var text bytes.Buffer
			report.WriteText(&text, "the database's ABI", "this one", false)
			return fmt.Errorf("%w, and the change cannot be migrated: %s: %s\n%s", ErrABIChanged, c.Where, c.What, text.String())
		}
	}
	old, err := NewSchema(oldModel, m.dialect, SchemaOptions{Prefix: m.opts.Prefix, Actions: m.opts.Actions})
	if err != nil {
		return err
	}
	oldTables := map[string]*Table{}
	for _, t := range append(append([]*Table{}, old.Tables...), old.Actions...) {
		oldTables[t.SQLName] = t
	}
	for _, t := range append(append([]*Table{}, m.schema.Tables...), m.schema.Actions...) {
		was := oldTables[t.SQLName]
		if was == nil || sameColumns(was, t) {
			continue
		}
		if err := m.rebuild(ctx, tx, t); err != nil {
			return fmt.Errorf("mirror: migrating table %s: %w", t.SQLName, err)
		}
	}
	_, err = tx.ExecContext(ctx, m.dialect.params(`UPDATE "_mirror_state" SET "abi_sha256" = ?, "abi" = ? WHERE "mirror" = ?`), m.abiHash, string(m.src.JSON), m.id)
	return err
}

func sameColumns(a, b *Table) bool {
	if len(a.Columns) != len(b.Columns) {
		return false
	}
	for i, c := range a.Columns {
		if d := b.Columns[i]; c.Name != d.Name || c.Type != d.Type || c.NotNull != d.NotNull {
			return false
		}
	}
	return true
}

// rebuild makes t again with its new columns, its rows decoded again from
// the bytes they keep.
func (m *Mirror) rebuild(ctx context.Context, tx *sql.Tx, t *Table) error {
	const aside = "_mirror_migrating"
	if _, err := tx.ExecContext(ctx, `ALTER TABLE `+quote(t.SQLName)+` RENAME TO `+quote(aside)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, t.createSQL()); err != nil {
		return err
	}
	cols := ""
	for _, c := range t.Columns[:t.meta] {
		cols += quote(c.Name) + ", "
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+cols+quote(rawColumn)+` FROM `+quote(aside))
	if err != nil {
		return err
	}
	var all [][]any
	for rows.Next() {
		vals := make([]any, len(t.Columns))
		ptrs := make([]any, t.meta+1)
		for i := range t.meta {
			ptrs[i] = &vals[i]
		}
		var raw []byte
		ptrs[t.meta] = &raw
		if err := rows.Scan(ptrs...); err != nil {
			rows.Close()
			return err
		}
		for i, v := range vals[:t.meta] {
			if b, ok := v.([]byte); ok { // PostgreSQL's numerics and JSON scan as bytes
				vals[i] = string(b)
			}
		}
		if err := t.shape.decode(raw, vals[t.meta:len(vals)-1]); err != nil {
			rows.Close()
			return fmt.Errorf("a row does not decode with the new ABI: %w", err)
		}
		vals[len(vals)-1] = raw
		all = append(all, vals)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	insert := m.tables[t].insert
	for _, vals := range all {
		if _, err := tx.ExecContext(ctx, insert, vals...); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DROP TABLE `+quote(aside))
	return err
}
