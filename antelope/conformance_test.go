package antelope

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The conformance test runs every abieos and spring vector whose type is a
// built-in, or arrays and optionals of built-ins, through the runtime:
// JSON → binary must give exactly the hex, binary → JSON must give the nodeos
// form of the expected output, and every reject must be rejected. Vectors of
// ABI-defined structs and variants are run through generated code by the
// generator's tests; here they are listed as out of scope, never skipped
// silently.

type abieosVectors struct {
	Vectors []struct {
		Type    string `json:"type"`
		JSON    string `json:"json"`
		Hex     string `json:"hex"`
		JSONOut string `json:"json_out"`
		ABI     string `json:"abi"`
		Line    int    `json:"line"`
	} `json:"vectors"`
	BinToJSONOnly []struct {
		Type    string `json:"type"`
		Hex     string `json:"hex"`
		JSONOut string `json:"json_out"`
		Line    int    `json:"line"`
	} `json:"bin_to_json_only"`
}

type abieosErrors struct {
	Errors []struct {
		Type      string  `json:"type"`
		JSON      *string `json:"json"`
		Hex       *string `json:"hex"`
		ABIJSON   *string `json:"abi_json"`
		ABIHex    *string `json:"abi_hex"`
		Direction string  `json:"direction"`
		Line      int     `json:"line"`
	} `json:"errors"`
}

type springVectors struct {
	Vectors []struct {
		Type     string `json:"type"`
		TestCase string `json:"test_case"`
		Line     int    `json:"line"`
	} `json:"vectors"`
	Errors []struct {
		Type     string `json:"type"`
		TestCase string `json:"test_case"`
		Line     int    `json:"line"`
	} `json:"errors"`
}

// jsonInputRejectedOnPurpose lists abieos vectors whose JSON input this
// package rejects by design; their binary → JSON direction is still checked.
var jsonInputRejectedOnPurpose = map[int]string{
	840: `name "..ab.cd.ef..": trailing dots are invalid in nodeos (abi-spec §3.4); abieos alone accepts them`,
}

func readTestdata(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func decodeHexString(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex in vector: %v", err)
	}
	return b
}

type tally struct {
	vectors, vectorsPass, rejects, rejected int
	outOfScope                              []string
}

func (c *tally) skip(format string, args ...any) {
	c.outOfScope = append(c.outOfScope, fmt.Sprintf(format, args...))
}

func TestConformance(t *testing.T) {
	var c tally
	runAbieosVectors(t, &c)
	runAbieosErrors(t, &c)
	listSpring(t, &c)

	t.Logf("out of scope here (%d):", len(c.outOfScope))
	for _, s := range c.outOfScope {
		t.Logf("  %s", s)
	}
	summary := fmt.Sprintf("vectors: %d/%d pass, rejects: %d/%d rejected, out of scope: %d listed",
		c.vectorsPass, c.vectors, c.rejected, c.rejects, len(c.outOfScope))
	// Printed, not only logged, so that it shows in a plain `go test` run.
	fmt.Println("antelope conformance:", summary)
	if c.vectorsPass != c.vectors || c.rejected != c.rejects {
		t.Errorf("conformance: %s", summary)
	}
	// The in-scope counts are pinned so that a change to the vector files
	// or to codecFor cannot quietly shrink what is checked.
	if c.vectors != 190 || c.rejects != 56 {
		t.Errorf("in-scope cases changed (%s): review the out-of-scope list and update the counts", summary)
	}
}

func runAbieosVectors(t *testing.T, c *tally) {
	var vs abieosVectors
	readTestdata(t, "abieos-vectors.json", &vs)
	for _, v := range vs.Vectors {
		newValue, err := codecFor(v.Type)
		if err != nil {
			c.skip("abieos line %d %s (%s): ABI-defined type, checked through generated code", v.Line, v.Type, v.ABI)
			continue
		}
		c.vectors++
		name := fmt.Sprintf("abieos line %d %s %s", v.Line, v.Type, v.JSON)
		want := decodeHexString(t, v.Hex)
		ok := true

		// JSON → binary.
		if reason, rejected := jsonInputRejectedOnPurpose[v.Line]; rejected {
			if err := UnmarshalJSON([]byte(v.JSON), newValue()); err == nil {
				t.Errorf("%s: JSON input accepted, but it is rejected on purpose: %s", name, reason)
				ok = false
			}
		} else {
			val := newValue()
			if err := UnmarshalJSON([]byte(v.JSON), val); err != nil {
				t.Errorf("%s: JSON → binary: %v", name, err)
				ok = false
			} else if got, err := val.AppendBinary(nil); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s: JSON → binary = %X, %v; want %s", name, got, err, v.Hex)
				ok = false
			}
		}

		// binary → JSON, compared with the nodeos form of abieos's output.
		out := v.JSONOut
		if out == "" {
			out = v.JSON
		}
		wantJSON, err := abieosToNodeos(v.Type, out)
		if err != nil {
			t.Fatalf("%s: dialect mapping: %v", name, err)
		}
		if !checkBinToJSON(t, name, newValue, want, wantJSON) {
			ok = false
		}
		if ok {
			c.vectorsPass++
		}
	}
	for _, v := range vs.BinToJSONOnly {
		newValue, err := codecFor(v.Type)
		if err != nil {
			t.Fatalf("bin_to_json_only line %d: %v", v.Line, err)
		}
		c.vectors++
		name := fmt.Sprintf("abieos bin_to_json line %d %s", v.Line, v.Type)
		wantJSON, err := abieosToNodeos(v.Type, v.JSONOut)
		if err != nil {
			t.Fatal(err)
		}
		// abieos turns invalid UTF-8 into '?'; nodeos drops those bytes.
		if v.Line == 860 {
			wantJSON = `"invalid utf8: "`
		}
		if checkBinToJSON(t, name, newValue, decodeHexString(t, v.Hex), wantJSON) {
			c.vectorsPass++
		}
	}
}

// checkBinToJSON decodes bin, checks that it re-encodes to the same bytes
// and that its JSON is wantJSON.
func checkBinToJSON(t *testing.T, name string, newValue func() codecValue, bin []byte, wantJSON string) bool {
	val := newValue()
	if err := UnmarshalBinary(bin, val); err != nil {
		t.Errorf("%s: binary → value: %v", name, err)
		return false
	}
	if again, err := val.AppendBinary(nil); err != nil || !bytes.Equal(again, bin) {
		t.Errorf("%s: re-encoded %X, %v; want %X", name, again, err, bin)
		return false
	}
	got, err := val.AppendJSON(nil)
	if err != nil || string(got) != wantJSON {
		t.Errorf("%s: binary → JSON = %s, %v; want %s", name, got, err, wantJSON)
		return false
	}
	return true
}

func runAbieosErrors(t *testing.T, c *tally) {
	var es abieosErrors
	readTestdata(t, "abieos-errors.json", &es)
	for _, e := range es.Errors {
		if e.ABIJSON != nil || e.ABIHex != nil {
			c.skip("abieos-errors line %d: an ABI to reject, checked by model/", e.Line)
			continue
		}
		newValue, err := codecFor(e.Type)
		if err != nil {
			c.skip("abieos-errors line %d %s: not a built-in type (ABI type grammar or struct), checked by model/ and generated code", e.Line, e.Type)
			continue
		}
		c.rejects++
		name := fmt.Sprintf("abieos-errors line %d %s", e.Line, e.Type)
		switch {
		case e.JSON != nil:
			if err := UnmarshalJSON([]byte(*e.JSON), newValue()); err != nil {
				c.rejected++
			} else {
				t.Errorf("%s: JSON %s accepted, want an error", name, *e.JSON)
			}
		case e.Hex != nil:
			if err := UnmarshalBinary(decodeHexString(t, *e.Hex), newValue()); err != nil {
				c.rejected++
			} else {
				t.Errorf("%s: hex %q accepted, want an error", name, *e.Hex)
			}
		default:
			t.Errorf("%s: entry has neither json nor hex", name)
		}
	}
}

func listSpring(t *testing.T, c *tally) {
	var sv springVectors
	readTestdata(t, "spring-abi-vectors.json", &sv)
	for _, v := range sv.Vectors {
		if _, err := codecFor(v.Type); err == nil {
			t.Errorf("spring line %d: built-in type %s: add it to this test", v.Line, v.Type)
		}
		c.skip("spring line %d %s (%s): ABI-defined type, checked through generated code", v.Line, v.Type, v.TestCase)
	}
	for _, e := range sv.Errors {
		c.skip("spring reject line %d %s (%s): ABI-defined type, checked through generated code", e.Line, e.Type, e.TestCase)
	}
}
