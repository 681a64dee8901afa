package model

import (
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/hostileabi"
)

func TestMinSize(t *testing.T) {
	src, err := Load([]byte(`{"version":"eosio::abi/1.1","types":[{"new_type_name":"amount","type":"uint64"}],
	"structs":[
	 {"name":"base","base":"","fields":[{"name":"a","type":"amount"},{"name":"ok","type":"bool"}]},
	 {"name":"derived","base":"base","fields":[{"name":"q","type":"asset"},{"name":"sums","type":"checksum256[3]"},{"name":"x","type":"name$"}]},
	 {"name":"holder","base":"","fields":[{"name":"d","type":"derived"},{"name":"l","type":"derived[]"},{"name":"o","type":"derived?"},{"name":"v","type":"var"},{"name":"none","type":"holder[0]"}]},
	 {"name":"big","base":"","fields":[{"name":"b","type":"checksum512[65536]"},{"name":"c","type":"checksum512[65536]"}]}],
	"variants":[{"name":"var","types":["derived","uint8"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Resolve(src.ABI)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"base": 8 + 1, "derived": 8 + 1 + 16 + 3*32 + 8, "holder": 129 + 1 + 1 + 1, "big": maxMinSize}
	for _, s := range m.Structs {
		if s.MinSize != want[s.Name] {
			t.Errorf("%s: MinSize %d, want %d", s.Name, s.MinSize, want[s.Name])
		}
	}
	for _, name := range BuiltinTypes {
		if n := MinSize(&Type{Kind: Builtin, Name: name}); n < 1 {
			t.Errorf("built-in %s: MinSize %d", name, n)
		}
	}

	// Twelve levels of 24 fields: 24^12 paths, each struct sized once.
	for leaf, want := range map[string]int{"empty": 0, "uint8": maxMinSize} {
		src, err := Load(hostileabi.Wide(12, 24, leaf))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Resolve(src.ABI)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Structs[2].MinSize; got != want {
			t.Errorf("s0 of %s leaves: MinSize %d, want %d", leaf, got, want)
		}
	}
}

// Every built-in type is walked by RewriteNames: a built-in added to
// BuiltinTypes and not to names.go fails here, by name.
func TestRewriteNamesKnowsEveryBuiltin(t *testing.T) {
	for _, name := range BuiltinTypes {
		data := make([]byte, 128)
		w := nameWalker{d: antelope.NewDecoder(data), data: data, rewrite: func(n antelope.Name) antelope.Name { return n }}
		if err := w.builtin(name); err != nil && strings.Contains(err.Error(), "unknown built-in type") {
			t.Errorf("built-in %s: %v", name, err)
		}
	}
}
