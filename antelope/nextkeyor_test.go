package antelope

import (
	"math/rand/v2"
	"testing"
)

// NextKeyOr reads every input as NextKey does — the key, whether there
// was one, the error and its offset, where the reader is left — whatever
// key it is told to expect: the expected one, another, one that JSON
// escapes, none.
func TestNextKeyOrReadsAsNextKey(t *testing.T) {
	names := []string{"owner", "own", "owner2", "a", "", "key\"q", "back\\slash", "tab\t", "é", "\xff", "owner\u0000"}
	pieces := []string{`"owner"`, `"own"`, `"owner2"`, `"a"`, `""`, `"\u006fwner"`, `"ow\"ner"`, `"key\"q"`, `"back\\slash"`,
		`"é"`, "\"\xff\"", `"owner`, `:`, ` :`, ` `, "\t", `,`, `}`, `{`, `1`, `"x"`, `"owner":`, `"a":1`, "\"tab\t\""}
	r := rand.New(rand.NewPCG(34, 8))
	n := 300000
	if testing.Short() {
		n = 40000
	}
	for range n {
		var data []byte
		for range r.IntN(5) {
			data = append(data, pieces[r.IntN(len(pieces))]...)
		}
		if r.IntN(3) > 0 && len(data) > 0 {
			data = data[:r.IntN(len(data)+1)]
		}
		first := r.IntN(2) == 0
		name := names[r.IntN(len(names))]
		var a, b JSONReader
		a.Reset(data)
		b.Reset(data)
		a.first, b.first = first, first
		ka, oka, erra := a.NextKey()
		kb, okb, errb := b.NextKeyOr(NewJSONKey(name))
		if string(ka) != string(kb) || oka != okb || (erra == nil) != (errb == nil) ||
			(erra != nil && erra.Error() != errb.Error()) || a.pos != b.pos || a.first != b.first {
			t.Fatalf("%q (first %v), expecting %q:\nNextKey   %q %v %v at %d\nNextKeyOr %q %v %v at %d",
				data, first, name, ka, oka, erra, a.pos, kb, okb, errb, b.pos)
		}
	}
}

// The shortcut is taken for names JSON prints as they are, and only for
// them; making a key allocates nothing.
func TestNewJSONKey(t *testing.T) {
	for name, want := range map[string]bool{"owner": true, "a": true, "é": true, "": true,
		`q"`: false, `b\`: false, "t\t": false, "\xff": false, "\x7f": false} {
		if got := NewJSONKey(name); got.plain != want || got.name != name {
			t.Errorf("NewJSONKey(%q) = %+v, want plain %v", name, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = NewJSONKey("producer_authority") }); n != 0 {
		t.Errorf("NewJSONKey allocates %v times", n)
	}
}
