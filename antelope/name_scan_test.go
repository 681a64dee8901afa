package antelope

import (
	"math/rand/v2"
	"testing"
)

// TestScanJSONNameAtInputEnd: the one-pass name reader takes a valid name
// whose closing quote is the input's last byte (a document that is just a
// name, or a buffer cut right after one) as it takes one followed by more,
// and on the input cut at any place reports no name without reading past
// the cut (the slices have no spare capacity: any read past is a panic).
func TestScanJSONNameAtInputEnd(t *testing.T) {
	names := []string{"", "a", "eosio", "eosio.token", "abcdefghijk", "abcdefghijkl", "zzzzzzzzzzzz",
		"a.b.c.d.e.f.g", "zzzzzzzzzzzzj", "111111111111", "eosio.tokena"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		names = append(names, randNameText(r))
	}
	for _, name := range names {
		want, err := parseName([]byte(name))
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		doc := []byte(`"` + name + `"`)
		for _, tail := range []string{"", ",", `,"abcdefghijklmn"`, "}"} {
			data := append(doc[:len(doc):len(doc)], tail...)
			data = data[:len(data):len(data)]
			n, end, ok := scanJSONName(data, 1)
			if !ok || n != want || end != len(doc) {
				t.Fatalf("scanJSONName(%q, 1) = %v, %d, %v; want %v, %d, true", data, n, end, ok, want, len(doc))
			}
		}
		for cut := 1; cut < len(doc); cut++ {
			if n, end, ok := scanJSONName(doc[:cut:cut], 1); ok {
				t.Fatalf("scanJSONName(%q, 1) = %v, %d, true on an unterminated string", doc[:cut], n, end)
			}
		}
	}
}

// randNameText is a valid name's text of 0 to 13 characters: no trailing
// dot, a 13th character only from ".12345abcdefghij" but not '.'.
func randNameText(r *rand.Rand) string {
	const alphabet = ".12345abcdefghijklmnopqrstuvwxyz"
	n := r.IntN(14)
	b := make([]byte, n)
	for i := range b {
		switch {
		case i == 12:
			b[i] = alphabet[1+r.IntN(15)]
		case i == n-1:
			b[i] = alphabet[1+r.IntN(31)]
		default:
			b[i] = alphabet[r.IntN(32)]
		}
	}
	return string(b)
}
