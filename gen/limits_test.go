package gen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/antelopego/abigen/internal/hostileabi"
)

func abiWithFields(n int, base bool) []byte {
	type field struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	var own []field
	for i := range n {
		own = append(own, field{fmt.Sprintf("f%d", i), "uint8"})
	}
	structs := []map[string]any{{"name": "big", "base": "", "fields": own}}
	if base { // one more field, inherited
		structs[0]["base"] = "b"
		structs = append(structs, map[string]any{"name": "b", "base": "", "fields": []field{{"x", "uint8"}}})
	}
	data, _ := json.Marshal(map[string]any{"version": "eosio::abi/1.1", "structs": structs})
	return data
}

// TestMaxStructFields: MaxStructFields fields generate; one more, counting
// a base's fields, is refused with the message golden/hazardbigstruct shows.
func TestMaxStructFields(t *testing.T) {
	gen := func(data []byte) error {
		_, err := generateBytes(data, Options{Package: "big"})
		return err
	}
	if err := gen(abiWithFields(MaxStructFields, false)); err != nil {
		t.Fatalf("%d fields: %v", MaxStructFields, err)
	}
	err := gen(abiWithFields(MaxStructFields, true))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf(`struct "big" has %d fields`, MaxStructFields+1)) {
		t.Fatalf("%d fields with the base's: got %v", MaxStructFields+1, err)
	}
}

// TestHugeABI runs a 20 MiB ABI through the whole pipeline: 200 actions,
// each with a struct of ten fields and 100 KiB of ricardian text full of
// what breaks comments. The bindings must type-check. It lives here rather
// than in golden/ because its expected abi.json alone would be 20 MiB.
func TestHugeABI(t *testing.T) {
	if testing.Short() {
		t.Skip("20 MiB ABI")
	}
	var para strings.Builder
	for para.Len() < 100<<10 {
		para.WriteString("The party */ agrees `not` to\r\u2028 end /* comments \x00 func init() { panic(1) } — ünïcode.\n")
	}
	type field struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	var structs, actions []map[string]any
	for i := range 200 {
		name := fmt.Sprintf("act%c%c", 'a'+i/26, 'a'+i%26) // chain names have no 0, 6-9
		var fields []field
		for j, typ := range []string{"name", "asset", "string", "uint64[]", "checksum256?", "public_key", "bytes", "time_point", "symbol", "int128"} {
			fields = append(fields, field{fmt.Sprintf("f%d", j), typ})
		}
		structs = append(structs, map[string]any{"name": name, "base": "", "fields": fields})
		actions = append(actions, map[string]any{"name": name, "type": name, "ricardian_contract": "---\ntitle: " + name + "\nsummary: s\n---\n" + para.String()})
	}
	data, _ := json.Marshal(map[string]any{"version": "eosio::abi/1.1", "structs": structs, "actions": actions})
	if len(data) < 20<<20 {
		t.Fatalf("built only %d bytes", len(data))
	}
	res, err := generateBytes(data, Options{Package: "huge"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checker().check(res.Files); err != nil {
		t.Fatalf("bindings of a 20 MiB ABI do not type-check: %v", err)
	}
	t.Logf("%d MiB ABI: %d bytes of types.go", len(data)>>20, len(res.Files["types.go"]))
}

// TestWideStructGraph: an ABI whose struct graph has 24^12 paths (twelve
// levels of 24 fields, empty structs at the bottom, an array of the top)
// generates. Sizing the array's element walked every path, each time an
// array helper was emitted: a 4 KB ABI of this shape did not finish.
func TestWideStructGraph(t *testing.T) {
	res, err := generateBytes(hostileabi.Wide(12, 24, "empty"), Options{Package: "wide"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Files["types.go"]), `d.Length("s0[]", 0)`) {
		t.Error(`the array of s0 is not checked with its smallest size, 0`)
	}
}
