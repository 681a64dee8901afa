package model

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The ABI-level entries of abieos-errors.json are rejected, and its minimal
// ABIs load.
func TestAbieosABIRejects(t *testing.T) {
	var f struct {
		Errors []struct {
			ABIJSON *string `json:"abi_json"`
			ABIHex  *string `json:"abi_hex"`
			Error   string
			Line    int
		} `json:"errors"`
	}
	if err := json.Unmarshal(readFile(t, "abieos-errors.json"), &f); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range f.Errors {
		var data []byte
		switch {
		case e.ABIJSON != nil:
			data = []byte(*e.ABIJSON)
		case e.ABIHex != nil:
			data, _ = hex.DecodeString(*e.ABIHex)
		default:
			continue
		}
		n++
		src, err := Load(data)
		if err == nil {
			_, err = Resolve(src.ABI)
		}
		if err == nil {
			t.Errorf("line %d (%s): accepted", e.Line, e.Error)
		}
	}
	if n != 9 {
		t.Errorf("%d ABI rejects found, want 9", n)
	}
	var v struct {
		ABILoadOK []struct {
			ABIJSON string `json:"abi_json"`
		} `json:"abi_load_ok"`
	}
	if err := json.Unmarshal(readFile(t, "abieos-vectors.json"), &v); err != nil {
		t.Fatal(err)
	}
	for _, ok := range v.ABILoadOK {
		src, err := Load([]byte(ok.ABIJSON))
		if err == nil {
			_, err = Resolve(src.ABI)
		}
		if err != nil {
			t.Errorf("%s: %v", ok.ABIJSON, err)
		}
	}
}

// The packed and JSON forms of the same ABI give the same model input.
func TestPackedEqualsJSON(t *testing.T) {
	for _, c := range []struct{ packed, json string }{
		{"abieos-abis/eosio.token.abi.hex", "abieos-abis/eosio.token.abi.json"},
		{"abieos-abis/test.hex.abi.hex", "abieos-abis/test.hex.abi.json"},
		{"fetch-responses/dfuse/state-abi.eosio.test.json-false.json", "abis/eosio.test-dfuse.abi.json"},
		{"fetch-responses/nodeos/get_raw_abi.corecorecore.json", "fetch-responses/nodeos/get_abi.corecorecore.json"},
	} {
		p, err := Load(readFile(t, c.packed))
		if err != nil {
			t.Fatalf("%s: %v", c.packed, err)
		}
		j, err := Load(readFile(t, c.json))
		if err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		if !reflect.DeepEqual(normalize(p.ABI), normalize(j.ABI)) {
			t.Errorf("%s and %s differ:\n%+v\n%+v", c.packed, c.json, normalize(p.ABI), normalize(j.ABI))
		}
	}
}

// normalize makes nil and empty slices equal, as the encodings do.
func normalize(a *ABI) ABI {
	var out ABI
	_ = json.Unmarshal(a.canonicalJSON(), &out)
	out.ABIExtensions = nil
	return out
}

func TestLoadForms(t *testing.T) {
	raw := readFile(t, "fetch-responses/nodeos/get_raw_abi.eosio.token.json")
	for _, c := range []struct {
		name, input, form, account string
		block                      uint64
	}{
		{"state json", string(readFile(t, "fetch-responses/dfuse/state-abi.orng.wax.json-true.json")), "state API response", "orng.wax", 9135393},
		{"state hex", string(readFile(t, "fetch-responses/dfuse/state-abi.eosio.test.json-false.json")), "state API response (packed ABI)", "eosio.test", 5},
		{"recorded get_raw_abi", string(raw), "nodeos get_raw_abi response", "eosio.token", 0},
		{"hex text", strings.ToLower(string(readFile(t, "abieos-abis/eosio.token.abi.hex"))), "packed ABI (hex)", "", 0},
	} {
		src, err := Load([]byte(c.input))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if src.Form != c.form || src.Account != c.account || src.BlockNum != c.block {
			t.Errorf("%s: form %q account %q block %d", c.name, src.Form, src.Account, src.BlockNum)
		}
	}
	bin, _ := hex.DecodeString(strings.TrimSpace(string(readFile(t, "abieos-abis/eosio.token.abi.hex"))))
	if src, err := Load(bin); err != nil || src.Form != "packed ABI (binary)" {
		t.Errorf("raw bytes: %v", err)
	}
	// A get_raw_abi whose hash does not match is refused.
	bad := strings.Replace(string(raw), `"abi_hash": "d8`, `"abi_hash": "00`, 1)
	if _, err := Load([]byte(bad)); err == nil || !strings.Contains(err.Error(), "abi_hash") {
		t.Errorf("bad abi_hash: %v", err)
	}
	for input, msg := range map[string]string{
		``:                             "empty input",
		`{"account_name":"alice"}`:     `account "alice" has no ABI`,
		`{"hello":1}`:                  "unrecognized JSON",
		`{"version":"eosio::abi/1.1",`: "invalid JSON",
		`{"version":"eosio::abi/1.1","structs":{}}`:                "should be []model.StructDef",
		`{"version":"eosio::abi/1.1","abi_extensions":[[1,"00"]]}`: "abi_extensions must be empty",
	} {
		if _, err := Load([]byte(input)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Load(%s) = %v, want %q", input, err, msg)
		}
	}
}

func resolveJSON(t *testing.T, abi string) (*Model, error) {
	t.Helper()
	src, err := Load([]byte(abi))
	if err != nil {
		t.Fatalf("load %s: %v", abi, err)
	}
	return Resolve(src.ABI)
}

func TestResolveErrors(t *testing.T) {
	for abi, msg := range map[string]string{
		`{"version":"eosio::abi/1.4"}`:  `unsupported ABI version "eosio::abi/1.4"`,
		`{"version":"eosio::abi/1.01"}`: `unsupported ABI version`,
		`{"version":"eosio::abi/1.1","structs":[{"name":"jobs_a","fields":[{"name":"assoc_id","type":"uint46"}]}]}`:                                                 `structs[0] "jobs_a" field "assoc_id": unknown type "uint46"`,
		`{"version":"eosio::abi/1.1","structs":[{"name":"s","fields":[{"name":"a","type":"int8$"},{"name":"b","type":"int8"}]}]}`:                                   `field "b": follows the binary-extension field "a"`,
		`{"version":"eosio::abi/1.1","structs":[{"name":"s","base":"int8","fields":[]}]}`:                                                                           `base "int8" is not a struct`,
		`{"version":"eosio::abi/1.1","structs":[{"name":"b","fields":[{"name":"x","type":"int8"}]},{"name":"s","base":"b","fields":[{"name":"x","type":"int8"}]}]}`: `duplicate field name (in the struct or its base)`,
		`{"version":"eosio::abi/1.1","actions":[{"name":"Transfer","type":"int8"}]}`:                                                                                `actions[0] "Transfer": not a valid action name`,
		`{"version":"eosio::abi/1.1","tables":[{"name":"","type":"int8"}]}`:                                                                                         `tables[0]: empty table name`,
		`{"version":"eosio::abi/1.1","structs":[{"name":"s[]","fields":[]}]}`:                                                                                       `invalid type name`,
		`{"version":"eosio::abi/1.1","variants":[{"name":"v","types":["v"]}],"structs":[{"name":"s","fields":[{"name":"x","type":"s"}]}]}`:                          `struct "s" contains itself`,
	} {
		_, err := resolveJSON(t, abi)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s:\n got %v\nwant %q", abi, err, msg)
		}
	}
}

func TestResolveGraph(t *testing.T) {
	m, err := resolveJSON(t, `{"version":"eosio::abi/1.1",
		"types":[{"new_type_name":"vec","type":"uint16[]"},{"new_type_name":"opt","type":"vec?"}],
		"structs":[{"name":"base","fields":[{"name":"a","type":"int8"}]},
			{"name":"s","base":"base","fields":[{"name":"x","type":"opt[]"},{"name":"y","type":"int8[][]?"},{"name":"z","type":"s[2]?$"},{"name":"w","type":"base$"}]}],
		"variants":[{"name":"v","types":["s","vec"]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Structs[1]
	if s.Base != m.Structs[0] || len(s.AllFields()) != 5 || !s.ExtensionTail {
		t.Fatalf("struct s: %+v", s)
	}
	x := s.Fields[0].Type
	if x.Kind != Array || x.Elem.Kind != AliasKind || x.Elem.Resolved().Kind != Optional || x.Elem.Resolved().Elem.Resolved().Kind != Array {
		t.Errorf("opt[]: %+v", x)
	}
	z := s.Fields[2]
	if !z.Extension || z.Type.Kind != Optional || z.Type.Elem.Kind != FixedArray || z.Type.Elem.Len != 2 || z.Type.Elem.Elem.Struct != s {
		t.Errorf("s[2]?$: %+v", z.Type)
	}
	if len(m.Variants[0].Members) != 2 || m.Variants[0].Members[1].Name != "vec" {
		t.Errorf("variant: %+v", m.Variants[0])
	}
	// Interning: one spelling, one *Type.
	if m.Aliases[1].Target != m.Aliases[0].Target.Resolved() && m.Aliases[1].Target.Elem != x.Elem.Resolved().Elem {
		t.Errorf("types are not interned")
	}
}

func TestOffChainTableNamesWarn(t *testing.T) {
	m, err := resolveJSON(t, `{"version":"eosio::abi/1.1","tables":[{"name":"account_metadata","type":"int8"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], `tables[0] "account_metadata": not a valid name`) {
		t.Errorf("warnings: %q", m.Warnings)
	}
}

// Pack is the inverse of ParsePacked on the real packed ABIs (nodeos writes
// an empty variants list before action_results, so those bytes are compared
// after a parse/pack round trip).
func TestPack(t *testing.T) {
	for _, path := range []string{"abieos-abis/eosio.token.abi.hex", "abieos-abis/test.hex.abi.hex"} {
		raw, _ := hex.DecodeString(strings.TrimSpace(string(readFile(t, path))))
		abi, err := ParsePacked(raw)
		if err != nil {
			t.Fatal(err)
		}
		packed, err := abi.Pack()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePacked(packed)
		if err != nil || !reflect.DeepEqual(normalize(back), normalize(abi)) {
			t.Errorf("%s: pack/parse round trip differs: %v", path, err)
		}
		if len(abi.Variants) == 0 && !bytes.Equal(packed, raw[:len(packed)]) {
			t.Errorf("%s: packed bytes differ from the original", path)
		}
	}
	src, _ := Load(readFile(t, "abis/orng.wax.abi.json"))
	packed, err := src.ABI.Pack()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePacked(packed)
	if err != nil || !reflect.DeepEqual(normalize(back), normalize(src.ABI)) {
		t.Fatalf("orng.wax pack/parse: %v", err)
	}
	if _, err := (&ABI{Version: "eosio::abi/1.1", Actions: []ActionDef{{Name: "BAD"}}}).Pack(); err == nil {
		t.Error("invalid action name packed")
	}
}

func TestLoadSaysWhatTheInputIs(t *testing.T) {
	for input, msg := range map[string]string{
		"hello, this is not an ABI\n":                   `neither JSON nor a packed ABI: the input starts with "hello, this is not an AB"…`,
		"<!DOCTYPE html><html><body>502</body></html>":  `neither JSON nor a packed ABI: the input starts with "<!DOCTYPE html><html><bo"…`,
		`["eosio::abi/1.1"]`:                            `JSON array, not an object: expected an ABI (an object with "version") or a saved API response`,
		`"eosio::abi/1.1"`:                              `JSON string, not an object: expected an ABI (an object with "version") or a saved API response`,
		"deadbeef":                                      `hex text, but not a packed ABI: it decodes to "\xde\xad\xbe\xef", not the packed "eosio::abi/1.x" version string`,
		"{\n  \"version\": \"eosio::abi/1.1\",\n  v\n}": "invalid JSON at line 3, column 3: invalid character 'v' looking for beginning of object key string",
		"\ufeff\n\n{\"version\": 1x}":                   "invalid JSON at line 3, column 14: invalid character 'x' after object key:value pair",
		`{"version":"eosio::abi/1.1",`:                  "invalid JSON at line 1, column 29: unexpected end of JSON input",
	} {
		_, err := Load([]byte(input))
		if err == nil || err.Error() != msg {
			t.Errorf("Load(%q)\n got %v\nwant %s", input, err, msg)
		}
	}
	// Packed input still gets the packed-ABI message.
	_, err := Load(append([]byte{14}, "eosio::abi/1.1\xff"...))
	if err == nil || !strings.HasPrefix(err.Error(), "packed ABI (binary): ") {
		t.Errorf("packed: %v", err)
	}
	var se *SyntaxError
	if _, err := Load([]byte("{\n\n   x")); !errors.As(err, &se) || se.Line != 3 || se.Column != 4 {
		t.Errorf("SyntaxError: %#v", err)
	}
}

func TestOffChainOptionAcceptsTableNames(t *testing.T) {
	src, err := Load([]byte(`{"version":"eosio::abi/1.1","tables":[{"name":"account_metadata","type":"int8"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ResolveWith(src.ABI, ResolveOptions{OffChain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) != 0 || len(m.Tables) != 1 {
		t.Errorf("off chain: warnings %q, tables %d", m.Warnings, len(m.Tables))
	}
}
