package oracle

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/antelopego/abigen/internal/goldenpkgs"
)

// vectorFile is one testdata/oracle/<case>.json.gz, as oracle.js writes it.
type vectorFile struct {
	ABI     string              `json:"abi"` // the golden case
	Seed    int                 `json:"seed"`
	Types   map[string][]vector `json:"types"`
	Skipped map[string]string   `json:"skipped"` // type → why the oracles cannot do it
}

type vector struct {
	Hex  string          `json:"hex"`
	JSON json.RawMessage `json:"json"` // as @wharfkit/antelope prints it (eosjs where wharfkit cannot)
	// JSONLossy is set when that JSON does not encode back to Hex in the
	// library that printed it: it is not a test input.
	JSONLossy bool `json:"json_lossy"`
	// Wharfkit and EOSJS note where a library could not encode the value,
	// encoded it differently, or printed different JSON.
	Wharfkit *struct {
		Cannot string `json:"cannot"`
	} `json:"wharfkit"`
	EOSJS *struct {
		Cannot    string          `json:"cannot"`
		Differs   string          `json:"differs"`
		JSON      json.RawMessage `json:"json"`
		JSONLossy bool            `json:"json_lossy"`
	} `json:"eosjs"`
}

func readVectors(t *testing.T, path string) vectorFile {
	var vf vectorFile
	readGzipJSON(t, path, &vf)
	return vf
}

// readGzipJSON decodes the gzipped JSON file at path into v.
func readGzipJSON(t *testing.T, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// goJSON is what the test writes for oracle.js check when ORACLE_GO_JSON is
// set: the generated code's MarshalJSON of every vector.
type goJSON struct {
	ABI    string        `json:"abi"`
	Values []goJSONValue `json:"values"`
}

type goJSONValue struct {
	Type string          `json:"type"`
	JSON json.RawMessage `json:"json"`
	// Hex is what the generated code reads JSON as. It is the vector's hex
	// unless Lossy: the nodeos dialect prints doubles with 17 fixed
	// decimals and time_point in milliseconds, so a tiny float or a
	// microsecond does not survive. Either way, both libraries must read
	// the JSON as Hex.
	Hex   string `json:"hex"`
	Lossy bool   `json:"lossy,omitempty"`
	// A library is not asked to read the JSON of a value it could not
	// encode itself.
	WharfkitCannot bool `json:"wharfkit_cannot,omitempty"`
	EOSJSDiffers   bool `json:"eosjs_differs,omitempty"`
}

// TestOracleVectors: for every vector, the generated code decodes the bytes
// and encodes them back unchanged, and reads the JSON each library printed
// to the same bytes.
func TestOracleVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "oracle", "*.json.gz"))
	if len(files) == 0 {
		t.Fatal("no vectors in testdata/oracle: run go generate ./internal/oracle")
	}
	out := map[string]goJSON{}
	var abis, types, values, jsonChecks, lossy, ownLossy int
	for _, path := range files {
		vf := readVectors(t, path)
		p := goldenpkgs.ByName(vf.ABI)
		if p == nil {
			t.Errorf("%s: no generated package %q", path, vf.ABI)
			continue
		}
		abis++
		names := make([]string, 0, len(vf.Types))
		for n := range vf.Types {
			names = append(names, n)
		}
		sort.Strings(names)
		gj := goJSON{ABI: filepath.ToSlash(filepath.Join("..", "..", "golden", vf.ABI, "abi.json"))}
		for _, typ := range names {
			if p.NewValue(typ) == nil {
				t.Errorf("%s: NewValue(%q) is nil", vf.ABI, typ)
				continue
			}
			types++
			if len(vf.Types[typ]) < 50 {
				t.Errorf("%s %s: only %d values", vf.ABI, typ, len(vf.Types[typ]))
			}
			for i, v := range vf.Types[typ] {
				values++
				where := fmt.Sprintf("%s %s #%d", vf.ABI, typ, i)
				want, err := hex.DecodeString(v.Hex)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				val := p.NewValue(typ)
				if err := val.UnmarshalBinary(want); err != nil {
					t.Errorf("%s: decoding the oracle's bytes: %v", where, err)
					continue
				}
				if got, err := val.MarshalBinary(); err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: bytes → value → bytes gives %x, %v; want %s", where, got, err, short(v.Hex))
				}
				var jsons []json.RawMessage
				if !v.JSONLossy {
					jsons = append(jsons, v.JSON)
				} else {
					lossy++
				}
				if v.EOSJS != nil && v.EOSJS.JSON != nil && !v.EOSJS.JSONLossy {
					jsons = append(jsons, v.EOSJS.JSON)
				}
				for _, j := range jsons {
					jsonChecks++
					fromJSON := p.NewValue(typ)
					if err := fromJSON.UnmarshalJSON(j); err != nil {
						t.Errorf("%s: reading the oracle's JSON %s: %v", where, short(string(j)), err)
						continue
					}
					if got, err := fromJSON.MarshalBinary(); err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: the oracle's JSON %s encodes as %s, %v; want %s", where, short(string(j)), short(hex.EncodeToString(got)), err, short(v.Hex))
					}
				}
				mine, err := val.MarshalJSON()
				if err != nil {
					t.Errorf("%s: MarshalJSON: %v", where, err)
					continue
				}
				back := p.NewValue(typ)
				if err := back.UnmarshalJSON(mine); err != nil {
					t.Errorf("%s: reading its own JSON %s: %v", where, short(string(mine)), err)
					continue
				}
				backHex, err := back.MarshalBinary()
				if err != nil {
					t.Errorf("%s: encoding what its own JSON reads as: %v", where, err)
					continue
				}
				gv := goJSONValue{Type: typ, Hex: hex.EncodeToString(backHex), JSON: mine,
					WharfkitCannot: v.Wharfkit != nil,
					EOSJSDiffers:   v.EOSJS != nil && (v.EOSJS.Differs != "" || v.EOSJS.Cannot != "")}
				if gv.Hex != v.Hex {
					// Every value, floats included, survives its own JSON
					// (float64 lost bits below 1 with nodeos's 17 decimals).
					gv.Lossy = true
					ownLossy++
					t.Errorf("%s: value → its own JSON %s → value gives %s; want %s", where, short(string(mine)), short(gv.Hex), short(v.Hex))
				}
				gj.Values = append(gj.Values, gv)
			}
		}
		out[vf.ABI] = gj
	}
	summary := fmt.Sprintf("oracle: %d ABIs × %d types × %d values compared (%d JSON inputs; %d oracle JSONs lossy, not read; %d of ours lossy by the nodeos dialect), all equal", abis, types, values, jsonChecks, lossy, ownLossy)
	if t.Failed() {
		summary = strings.Replace(summary, "all equal", "NOT all equal", 1)
	}
	t.Log(summary)
	if path := os.Getenv("ORACLE_GO_JSON"); path != "" {
		data, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestHandwrittenVectors checks testdata/oracle/handwritten.json: vectors
// written from the reference rules for what the oracles cannot check.
func TestHandwrittenVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "oracle", "handwritten.json"))
	if err != nil {
		t.Fatal(err)
	}
	var hw struct {
		ABI     string `json:"abi"`
		Vectors []struct {
			Type string          `json:"type"`
			Note string          `json:"note"`
			Hex  string          `json:"hex"`
			JSON json.RawMessage `json:"json"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(data, &hw); err != nil {
		t.Fatal(err)
	}
	p := goldenpkgs.ByName(hw.ABI)
	if p == nil || len(hw.Vectors) == 0 {
		t.Fatalf("no package %q or no vectors", hw.ABI)
	}
	for i, v := range hw.Vectors {
		want, _ := hex.DecodeString(v.Hex)
		val := p.NewValue(v.Type)
		if err := val.UnmarshalBinary(want); err != nil {
			t.Errorf("#%d (%s): decoding: %v", i, v.Note, err)
			continue
		}
		if got, err := val.MarshalBinary(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("#%d (%s): bytes → value → bytes gives %x, %v; want %s", i, v.Note, got, err, v.Hex)
		}
		fromJSON := p.NewValue(v.Type)
		if err := fromJSON.UnmarshalJSON(v.JSON); err != nil {
			t.Errorf("#%d (%s): reading %s: %v", i, v.Note, v.JSON, err)
			continue
		}
		if got, err := fromJSON.MarshalBinary(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("#%d (%s): %s encodes as %x, %v; want %s", i, v.Note, v.JSON, got, err, v.Hex)
		}
	}
}
