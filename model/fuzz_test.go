package model

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad: Load and Resolve never panic on any bytes, only return errors.
// An ABI they accept packs, and the packed form loads and resolves to the
// same canonical JSON, so the JSON and binary parsers agree.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "golden", "*", "input*"))
	// The state service's and nodeos's ABI answers, as fetched.
	fetched, _ := filepath.Glob(filepath.Join("..", "testdata", "fetch-responses", "*", "*abi*.json"))
	seeds = append(seeds, fetched...)
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"version":"eosio::abi/1.2","structs":[{"name":"s","base":"","fields":[{"name":"a","type":"s?"}]}]}`))
	f.Add([]byte(`{"version":"eosio::abi/1.1","types":[{"new_type_name":"a","type":"b"},{"new_type_name":"b","type":"a"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := Load(data)
		if err != nil {
			return
		}
		if _, err := Resolve(src.ABI); err != nil {
			return
		}
		packed, err := src.ABI.Pack()
		if err != nil {
			return // not every JSON ABI fits the binary format (e.g. a 1.0 ABI with 1.2 sections is fine, an oversized one is not)
		}
		again, err := Load(packed)
		if err != nil {
			t.Fatalf("packed form of an accepted ABI does not load: %v", err)
		}
		if _, err := Resolve(again.ABI); err != nil {
			t.Fatalf("packed form of an accepted ABI does not resolve: %v", err)
		}
		a := src.ABI.canonicalJSON()
		b := again.ABI.canonicalJSON()
		if !bytes.Equal(a, b) {
			t.Fatalf("JSON and packed forms differ:\n%s\n%s", a, b)
		}
	})
}
