package mirror

import (
	"fmt"
	"strings"
)

// statements are one table's SQL, built once.
type statements struct {
	upsert   string // insert a row, or replace the row with its key
	conflict string // upsert's ON CONFLICT clause
	insert   string // insert (actions: a second copy is an error)
	delete   string // delete by key
	selectBy string // payer and _raw by key
}

func (t *Table) statements(d Dialect) statements {
	cols := make([]string, len(t.Columns))
	params := make([]string, len(t.Columns))
	var set []string
	for i, c := range t.Columns {
		cols[i] = quote(c.Name)
		params[i] = d.param(i+1, c.class)
		if !t.isKey(c.Name) {
			set = append(set, cols[i]+" = excluded."+cols[i])
		}
	}
	var where []string
	for i, k := range t.Key {
		where = append(where, quote(k)+" = "+d.param(i+1, t.column(k).class))
	}
	name := quote(t.SQLName)
	insert := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", name, strings.Join(cols, ", "), strings.Join(params, ", "))
	keys := make([]string, len(t.Key))
	for i, k := range t.Key {
		keys[i] = quote(k)
	}
	conflict := fmt.Sprintf(" ON CONFLICT (%s) DO UPDATE SET %s", strings.Join(keys, ", "), strings.Join(set, ", "))
	return statements{
		insert:   insert,
		upsert:   insert + conflict,
		conflict: conflict,
		delete:   fmt.Sprintf("DELETE FROM %s WHERE %s", name, strings.Join(where, " AND ")),
		selectBy: fmt.Sprintf(`SELECT "payer", %s FROM %s WHERE %s`, quote(rawColumn), name, strings.Join(where, " AND ")),
	}
}

func (t *Table) isKey(col string) bool {
	for _, k := range t.Key {
		if k == col {
			return true
		}
	}
	return false
}

func (t *Table) column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// params renumbers "?" markers for PostgreSQL ($1, $2…), for the mirror's
// fixed statements.
func (d Dialect) params(q string) string {
	if d != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
