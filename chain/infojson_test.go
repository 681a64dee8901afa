package chain

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// checkInfoFast checks decodeInfoFast against encoding/json on body: where
// it reads the answer it reads what encoding/json reads, and it never reads
// one encoding/json refuses.
func checkInfoFast(t *testing.T, body []byte) (fast bool) {
	t.Helper()
	var got, want Info
	fast = decodeInfoFast(body, &got)
	err := json.Unmarshal(body, &want)
	switch {
	case fast && err != nil:
		t.Fatalf("read %s, which encoding/json refuses (%v): %+v", body, err, got)
	case fast && !reflect.DeepEqual(got, want):
		t.Fatalf("read %s as\n%+v\nencoding/json reads\n%+v", body, got, want)
	}
	return fast
}

// infoValues are values of each kind a get_info member can hold: those a
// node writes, and the forms encoding/json reads otherwise or refuses.
var infoValues = []string{
	`"0000000a5b7c1b1fbd2c03ab41c9b12f58f9ea3fd3f1e0d8c5e6d0b2a7f8c9d0"`, `"0000000A5B7C1B1FBD2C03AB41C9B12F58F9EA3FD3F1E0D8C5E6D0B2A7F8C9D0"`,
	`"1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4"`, `"00"`, `""`,
	`"\u0030000000a5b7c1b1fbd2c03ab41c9b12f58f9ea3fd3f1e0d8c5e6d0b2a7f8c9d0"`,
	`10`, `0`, `4294967295`, `4294967296`, `01`, `-1`, `-0`, `1.0`, `1e3`, `"10"`, `99999999999`,
	`"2026-11-26T19:30:52.500"`, `"2026-11-26T19:30:52"`, `"2026-13-26T19:30:52.500"`, `"not a time"`,
	`"eosio"`, `"EOSIO"`, `"eosio.token"`, `"a.b.c.d.e.f.g"`, `"\u0065osio"`,
	`"v5.0.3"`, `"caf\u00e9"`, "\"caf\xc3\xa9\"", "\"bad \xff\"", `"tab\tin"`, `"a\"b"`, `"\ud800"`, `"\ud83d\ude00"`, `"\udc00x"`, `"\u00e9"`,
	`null`, `true`, `false`, `{}`, `[]`, `{"a":[1,{"b":null}]}`, `[1,2,`, `"unterminated`,
}

// infoKeys are member names: Info's, those in another case or form that
// encoding/json still matches, escaped ones, and others.
var infoKeys = func() []string {
	keys := []string{"total_cpu_weight", "fork_db_head_block_num", "x", "", "ſerver_version", "chain_\\u0069d", "CHAIN_ID",
		"Head_Block_Num", "head_block_nuM", "ser\\u0076er_version", "chain_id\\u0000"}
	return append(keys, infoFields[:]...)
}()

// TestDecodeInfoFastIsEncodingJSON compares the two readers on random
// answers built from infoKeys and infoValues, and on well-formed ones.
func TestDecodeInfoFastIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runs, fast := 200000, 0
	if testing.Short() {
		runs = 20000
	}
	for range runs {
		var b strings.Builder
		b.WriteString([]string{"{", " { ", "\n{"}[rng.IntN(3)])
		n := rng.IntN(12)
		for i := range n {
			if i > 0 {
				b.WriteString([]string{",", " , "}[rng.IntN(2)])
			}
			b.WriteString(`"` + infoKeys[rng.IntN(len(infoKeys))] + `":`)
			b.WriteString(infoValues[rng.IntN(len(infoValues))])
		}
		b.WriteString([]string{"}", "} ", "}x", "", "}}"}[rng.IntN(5)%4])
		if checkInfoFast(t, []byte(b.String())) {
			fast++
		}
	}
	well := `{"server_version":"d133c641","chain_id":"1064487b3cd1a897ce03ae5b6a865651747e2e152090f99c1d19d44e01aea5a4",` +
		`"head_block_num":382731920,"last_irreversible_block_num":382731593,"last_irreversible_block_id":"16d01c49b1d2d7b0ce1f7b3cbd53c2d06b7c0d8e4d3a0f51d3c1f0e2a4b5c6d7",` +
		`"head_block_id":"16d01d90aa0c7f7d4c0d3f3fb7b1cbd0f6a4d9f2c2f0e1d3b4a5c6d7e8f90a1b","head_block_time":"2026-11-26T19:30:52.500",` +
		`"head_block_producer":"eosnationftw","virtual_block_cpu_limit":200000,"server_version_string":"v5.0.3","total_cpu_weight":"123456789"}`
	if !checkInfoFast(t, []byte(well)) {
		t.Fatalf("a node's get_info left to encoding/json: %s", well)
	}
	if fast == 0 {
		t.Fatal("no random answer was read by the fast path: the comparison compared nothing")
	}
}

// FuzzDecodeInfoFast compares decodeInfoFast with encoding/json on any
// input (TestDecodeInfoFastIsEncodingJSON's rule).
func FuzzDecodeInfoFast(f *testing.F) {
	for _, v := range infoValues {
		for _, k := range infoKeys[len(infoKeys)-len(infoFields):] {
			f.Add([]byte(`{"` + k + `":` + v + `}`))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkInfoFast(t, body) })
}
