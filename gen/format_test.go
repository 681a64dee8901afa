package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestFormatPieces: types.go formatted in pieces, cut at every split mark
// (the smallest pieces there can be), is byte for byte the file formatted
// whole, for every golden case.
func TestFormatPieces(t *testing.T) {
	cases, err := filepath.Glob("../golden/*/case.json")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases found: %v", err)
	}
	defer func(size int) { pieceSize = size }(pieceSize)
	cut := 0
	for _, path := range cases {
		dir := filepath.Dir(path)
		var c goldenCase
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		pieceSize = 1 << 40 // whole
		whole, err := generateCase(dir, c)
		if err != nil {
			continue // a case that must be refused
		}
		pieceSize = 1 // a piece per mark
		pieces, err := generateCase(dir, c)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for name, want := range whole {
			if got := pieces[name]; !bytes.Equal(got, want) {
				t.Errorf("%s %s: formatted in pieces differs from formatted whole", filepath.Base(dir), name)
			}
		}
		if bytes.Count(whole["types.go"], []byte("\n// ")) > 1 {
			cut++
		}
	}
	if cut < 20 {
		t.Fatalf("only %d cases had pieces", cut)
	}
}
