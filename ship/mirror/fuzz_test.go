package mirror

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
)

// The columns of a row accept exactly the bytes abicodec (the JSON every
// generated binding prints) accepts as the row, and a field kept as JSON
// is that field's JSON, byte for byte.
func FuzzDecodeRow(f *testing.F) {
	abi, err := os.ReadFile("testdata/hostile.abi.json")
	if err != nil {
		f.Fatal(err)
	}
	codec, err := abicodec.New(abi)
	if err != nil {
		f.Fatal(err)
	}
	m, _ := loadModel(f, "testdata/hostile.abi.json")
	schema, err := NewSchema(m, SQLite, SchemaOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(0, []byte{})
	f.Add(1, make([]byte, 200))
	f.Add(0, make([]byte, 120))
	f.Fuzz(func(t *testing.T, which int, data []byte) {
		tbl := schema.Tables[uint(which)%uint(len(schema.Tables))]
		vals := make([]any, len(tbl.Columns)-tbl.meta-1)
		err := tbl.shape.decode(data, vals)
		js, jerr := codec.TableJSON(antelope.MustName(tbl.ABIName), data)
		if (err == nil) != (jerr == nil) {
			t.Fatalf("%s: columns: %v; abicodec: %v", tbl.ABIName, err, jerr)
		}
		if err != nil {
			return
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(js, &fields); err != nil {
			t.Fatal(err)
		}
		i := 0
		for _, fs := range tbl.shape.fields {
			if fs.builtin == "" {
				want, present := fields[fs.name]
				switch got := vals[i].(type) {
				case nil:
					if present && string(want) != "null" {
						t.Errorf("%s: NULL, JSON %s", fs.name, want)
					}
				case string:
					if got != string(want) {
						t.Errorf("%s: %s, JSON %s", fs.name, got, want)
					}
				}
			}
			i += len(fs.parts)
		}
	})
}
