package mirror

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antelopego/abigen/model"
)

var update = flag.Bool("update", false, "rewrite the golden DDL in testdata/")

func loadModel(t testing.TB, path string) (*model.Model, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src, err := model.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Resolve(src.ABI)
	if err != nil {
		t.Fatal(err)
	}
	return m, data
}

// The DDL of an ABI whose names are SQL keywords, hold quotes, control
// characters and SQL, clash with the context columns, with each other
// (case, an asset's amount column) or are too long for PostgreSQL, is the
// golden one, for each dialect, and each database runs it.
func TestDDLGolden(t *testing.T) {
	m, _ := loadModel(t, "testdata/hostile.abi.json")
	for _, d := range []Dialect{SQLite, Postgres} {
		s, err := NewSchema(m, d, SchemaOptions{Actions: true})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(s.DDL(), ";\n\n") + ";\n"
		path := filepath.Join("testdata", "hostile."+d.String()+".sql")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s DDL differs from %s (go test -update to accept):\n%s", d, path, got)
		}
		seen := map[string]bool{}
		for _, tbl := range append(append([]*Table{}, s.Tables...), s.Actions...) {
			cols := map[string]bool{}
			for _, c := range tbl.Columns {
				low := strings.ToLower(c.Name)
				if cols[low] || len(c.Name) > maxIdent {
					t.Errorf("%s: column %q clashes or is too long", tbl.SQLName, c.Name)
				}
				cols[low] = true
			}
			if seen[strings.ToLower(tbl.SQLName)] {
				t.Errorf("table %q twice", tbl.SQLName)
			}
			seen[strings.ToLower(tbl.SQLName)] = true
		}
	}
	for _, dbk := range databases() {
		t.Run(dbk.name, func(t *testing.T) {
			db, d := dbk.open(t)
			data, _ := os.ReadFile("testdata/hostile.abi.json")
			mr, err := Open(context.Background(), db, d, data, Options{Contract: token, Actions: true})
			if err != nil {
				t.Fatal(err)
			}
			// Opening again finds the schema made.
			if _, err := Open(context.Background(), db, d, data, Options{Contract: token, Actions: true}); err != nil {
				t.Fatal(err)
			}
			for _, tbl := range mr.schema.Tables {
				var n int
				if err := db.QueryRow(`SELECT COUNT(*) FROM ` + quote(tbl.SQLName)).Scan(&n); err != nil {
					t.Errorf("%s: %v", tbl.SQLName, err)
				}
			}
		})
	}
}
