package gen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/antelopego/abigen/model"
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
		src, err := model.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.Resolve(src.ABI)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Generate(m, src, Options{Package: "big"})
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
