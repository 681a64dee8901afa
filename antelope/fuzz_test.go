package antelope

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The fuzz targets cover the decoder of every built-in through a selector
// byte that picks the type, so one short CI run exercises them all. Seeds
// are the abieos vectors.

// jsonLossy lists the types whose JSON does not keep every binary bit:
// time_point prints milliseconds, floats print NaN without its payload,
// strings drop invalid UTF-8 as nodeos does.
var jsonLossy = map[string]bool{"time_point": true, "float32": true, "float64": true, "string": true}

func seedVectors(f *testing.F, add func(sel uint8, v struct{ JSON, Hex string })) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "abieos-vectors.json"))
	if err != nil {
		f.Fatal(err)
	}
	var vs abieosVectors
	if err := json.Unmarshal(data, &vs); err != nil {
		f.Fatal(err)
	}
	for _, v := range vs.Vectors {
		if i := slices.Index(builtinNames, v.Type); i >= 0 {
			add(uint8(i), struct{ JSON, Hex string }{v.JSON, v.Hex})
		}
	}
}

// FuzzDecodeBinary: no panic on any bytes; whatever decodes re-encodes to
// the same bytes (every accepted encoding is canonical); its JSON parses back
// and prints the same JSON again, and for lossless types gives the same bytes.
func FuzzDecodeBinary(f *testing.F) {
	seedVectors(f, func(sel uint8, v struct{ JSON, Hex string }) { f.Add(sel, mustHex(v.Hex)) })
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		typ := builtinNames[int(sel)%len(builtinNames)]
		v := builtins[typ]()
		if err := UnmarshalBinary(data, v); err != nil {
			return
		}
		again, err := v.AppendBinary(nil)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%s: decoded %x re-encodes to %x, %v", typ, data, again, err)
		}
		js, err := v.AppendJSON(nil)
		if err != nil {
			t.Fatalf("%s: decoded %x but JSON fails: %v", typ, data, err)
		}
		v2 := builtins[typ]()
		if err := UnmarshalJSON(js, v2); err != nil {
			t.Fatalf("%s: own JSON %s rejected: %v", typ, js, err)
		}
		js2, _ := v2.AppendJSON(nil)
		if !bytes.Equal(js, js2) {
			t.Fatalf("%s: JSON %s reads back as %s", typ, js, js2)
		}
		if !jsonLossy[typ] {
			bin2, err := v2.AppendBinary(nil)
			if err != nil || !bytes.Equal(bin2, data) {
				t.Fatalf("%s: %x → JSON %s → %x, %v", typ, data, js, bin2, err)
			}
		}
	})
}

// FuzzDecodeJSON: no panic on any text; whatever is accepted encodes, and
// the bytes decode to a value that encodes to the same bytes.
func FuzzDecodeJSON(f *testing.F) {
	seedVectors(f, func(sel uint8, v struct{ JSON, Hex string }) { f.Add(sel, []byte(v.JSON)) })
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		typ := builtinNames[int(sel)%len(builtinNames)]
		v := builtins[typ]()
		if err := UnmarshalJSON(data, v); err != nil {
			return
		}
		bin, err := v.AppendBinary(nil)
		if err != nil {
			t.Fatalf("%s: accepted JSON %q does not encode: %v", typ, data, err)
		}
		v2 := builtins[typ]()
		if err := UnmarshalBinary(bin, v2); err != nil {
			t.Fatalf("%s: JSON %q encodes to %x, which does not decode: %v", typ, data, bin, err)
		}
		bin2, _ := v2.AppendBinary(nil)
		if !bytes.Equal(bin, bin2) {
			t.Fatalf("%s: %x decodes and re-encodes to %x", typ, bin, bin2)
		}
	})
}

// FuzzJSONSkip compares the reader's notion of well-formed JSON with
// encoding/json's, on any text.
func FuzzJSONSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"c":"\u00e9"}`, `[1}`, `"x`, `-0.5e+3`, `{"a"}`, `[]`, `tru`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewJSONReader(data)
		ours := r.Skip() == nil && r.Finish() == nil
		if std := json.Valid(data); ours != std {
			t.Fatalf("%q: reader says valid=%v, encoding/json says %v", data, ours, std)
		}
	})
}
