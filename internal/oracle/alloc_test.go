package oracle

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/goldenpkgs"
)

// sampledValues calls check with three values of every type of every golden
// package (the first two edge values and a random one), decoded from the
// oracle's vectors, and returns how many it checked. The 1 MiB strings are
// left out: the allocation tests compare counts, not sizes.
func sampledValues(t *testing.T, check func(name string, v antelope.Value, data []byte)) int {
	t.Helper()
	if testing.Short() {
		t.Skip("allocation counts over every golden type")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "oracle", "*.json.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	checked := 0
	for _, path := range files {
		vf := readVectors(t, path)
		p := goldenpkgs.ByName(vf.ABI)
		if p == nil {
			continue
		}
		names := make([]string, 0, len(vf.Types))
		for n := range vf.Types {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, typ := range names {
			for _, i := range []int{0, 1, len(vf.Types[typ]) - 1} {
				data, _ := hex.DecodeString(vf.Types[typ][i].Hex)
				if len(data) > 4096 {
					continue
				}
				v := p.NewValue(typ)
				if err := v.UnmarshalBinary(data); err != nil {
					t.Fatalf("%s %s #%d: %v", vf.ABI, typ, i, err)
				}
				check(vf.ABI+" "+typ+" #"+strconv.Itoa(i), v, data)
				checked++
			}
		}
	}
	return checked
}

// TestUnmarshalBinaryAllocatesNoDecoder: for every type of every golden
// package, UnmarshalBinary allocates exactly what decoding the same bytes
// with a reused Decoder does (the value's own strings, slices, variant
// members): the Decoder itself stays on the stack. Measured on the oracle's
// vectors of the type.
func TestUnmarshalBinaryAllocatesNoDecoder(t *testing.T) {
	checked := sampledValues(t, func(name string, v antelope.Value, data []byte) {
		var d antelope.Decoder
		viaDecoder := testing.AllocsPerRun(5, func() {
			d.Reset(data)
			if err := v.DecodeBinary(&d); err != nil {
				t.Fatal(err)
			}
		})
		viaUnmarshal := testing.AllocsPerRun(5, func() {
			if err := v.UnmarshalBinary(data); err != nil {
				t.Fatal(err)
			}
		})
		if viaUnmarshal != viaDecoder {
			t.Errorf("%s: UnmarshalBinary makes %v allocations, DecodeBinary %v", name, viaUnmarshal, viaDecoder)
		}
	})
	t.Logf("%d values of every golden type: UnmarshalBinary allocates no Decoder", checked)
}

// TestAppendBinaryAllocatesNothing: for every type of every golden
// package, encoding a value into a buffer that holds it allocates nothing
// (the README's "no allocation into a reused buffer"), and the bytes are the
// oracle's.
func TestAppendBinaryAllocatesNothing(t *testing.T) {
	checked := sampledValues(t, func(name string, v antelope.Value, data []byte) {
		if err := v.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, len(data))
		if n := testing.AllocsPerRun(5, func() { buf, _ = v.AppendBinary(buf[:0]) }); n != 0 {
			t.Errorf("%s: AppendBinary makes %v allocations", name, n)
		}
		if !bytes.Equal(buf, data) {
			t.Errorf("%s: AppendBinary gives %x, want %x", name, buf, data)
		}
	})
	t.Logf("%d values of every golden type: AppendBinary allocates nothing", checked)
}

// TestJSONAllocations: for every type of every golden package, printing a
// value's JSON into a buffer that holds it allocates nothing, and reading
// it back allocates no more than decoding the same value from binary does
// (one allocation per string, byte string, slice, optional and variant
// member the value owns); UnmarshalJSON adds at most the reader's buffer
// for unescaping strings, its own reader staying on the stack.
func TestJSONAllocations(t *testing.T) {
	checked := sampledValues(t, func(name string, v antelope.Value, data []byte) {
		var d antelope.Decoder
		binary := testing.AllocsPerRun(5, func() {
			d.Reset(data)
			if err := v.DecodeBinary(&d); err != nil {
				t.Fatal(err)
			}
		})
		text, err := v.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, len(text))
		if n := testing.AllocsPerRun(5, func() { buf, _ = v.AppendJSON(buf[:0]) }); n != 0 {
			t.Errorf("%s: AppendJSON makes %v allocations", name, n)
		}
		var r antelope.JSONReader
		viaReader := testing.AllocsPerRun(5, func() {
			r.Reset(text)
			if err := v.DecodeJSON(&r); err != nil {
				t.Fatal(err)
			}
		})
		if viaReader > binary {
			t.Errorf("%s: DecodeJSON makes %v allocations, DecodeBinary %v", name, viaReader, binary)
		}
		viaUnmarshal := testing.AllocsPerRun(5, func() {
			if err := v.UnmarshalJSON(text); err != nil {
				t.Fatal(err)
			}
		})
		// A fresh reader may allocate its one buffer for unescaping.
		if viaUnmarshal > viaReader+1 {
			t.Errorf("%s: UnmarshalJSON makes %v allocations, DecodeJSON %v", name, viaUnmarshal, viaReader)
		}
	})
	t.Logf("%d values of every golden type: AppendJSON allocates nothing, DecodeJSON no more than DecodeBinary", checked)
}
