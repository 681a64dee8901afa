package mirror

import (
	"strings"
	"testing"
)

// DialectOf names the dialect OpenDB would open, and refuses what OpenDB
// refuses, without a password in its error.
func TestDialectOf(t *testing.T) {
	for _, c := range []struct {
		dsn  string
		want Dialect
		err  string
	}{
		{"sqlite:token.db", SQLite, ""},
		{"sqlite:file:x.db?_pragma=synchronous(full)", SQLite, ""},
		{"postgres://u@h/db", Postgres, ""},
		{"postgresql://u@h/db", Postgres, ""},
		{"sqlite:", 0, "names no file"},
		{"token.db", 0, "want sqlite:FILE or postgres://"},
		{"mysql://u:hunter2@h/db", 0, "want sqlite:FILE or postgres://"},
	} {
		d, err := DialectOf(c.dsn)
		switch {
		case c.err == "" && (err != nil || d != c.want):
			t.Errorf("DialectOf(%q) = %v, %v; want %v", c.dsn, d, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("DialectOf(%q) = %v; want an error containing %q", c.dsn, err, c.err)
		case err != nil && strings.Contains(err.Error(), "hunter2"):
			t.Errorf("DialectOf(%q): the password is in the error: %v", c.dsn, err)
		}
	}
}
