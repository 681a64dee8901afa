package mirror

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// maxParams bounds the parameters of one statement: SQLite's default limit
// is 32766, PostgreSQL's 65535.
const maxParams = 30000

// batch gathers consecutive rows for one table into one multi-row INSERT
// (or upsert): a block's rows cost a statement per table instead of one
// each. A row whose key the batch already holds flushes it first, so the
// statements keep the order of the changes.
type batch struct {
	m      *Mirror
	t      *Table
	upsert bool
	args   []any
	n      int
	keys   map[string]bool
}

func (m *Mirror) newBatch() *batch { return &batch{m: m, keys: map[string]bool{}} }

// add queues one row's column values.
func (b *batch) add(ctx context.Context, tx *sql.Tx, t *Table, upsert bool, key string, vals []any) error {
	if b.t != t || b.upsert != upsert || b.keys[key] || (b.n+1)*len(t.Columns) > maxParams {
		if err := b.flush(ctx, tx); err != nil {
			return err
		}
		b.t, b.upsert = t, upsert
	}
	b.args = append(b.args, vals...)
	b.n++
	b.keys[key] = true
	return nil
}

// flush writes the queued rows.
func (b *batch) flush(ctx context.Context, tx *sql.Tx) error {
	if b.n == 0 {
		return nil
	}
	err := b.m.exec(ctx, tx, b.m.multiSQL(b.t, b.n, b.upsert), b.args...)
	b.args, b.n = b.args[:0], 0
	clear(b.keys)
	return err
}

// multiKey names a multi-row statement.
type multiKey struct {
	t      *Table
	n      int
	upsert bool
}

// multiStatements caches the multi-row statements built so far (Backfill's
// readers share them).
type multiStatements struct {
	mu    sync.Mutex
	cache map[multiKey]string
}

// multiSQL is the INSERT of n rows of t, as an upsert on t's key if asked.
func (m *Mirror) multiSQL(t *Table, n int, upsert bool) string {
	m.multi.mu.Lock()
	defer m.multi.mu.Unlock()
	k := multiKey{t, n, upsert}
	if q, ok := m.multi.cache[k]; ok {
		return q
	}
	var b strings.Builder
	b.WriteString("INSERT INTO " + quote(t.SQLName) + " (")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(c.Name))
	}
	b.WriteString(") VALUES ")
	p := 0
	for r := range n {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i, c := range t.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			p++
			b.WriteString(m.dialect.param(p, c.class))
		}
		b.WriteByte(')')
	}
	if upsert {
		b.WriteString(m.tables[t].conflict)
	}
	q := b.String()
	if m.multi.cache == nil {
		m.multi.cache = map[multiKey]string{}
	}
	m.multi.cache[k] = q
	return q
}
