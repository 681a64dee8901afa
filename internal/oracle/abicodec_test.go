package oracle

import (
	"bytes"
	"encoding/hex"
	"path/filepath"
	"sort"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/internal/goldenpkgs"
)

// TestDynamicDecoderSameAsGenerated: on every oracle vector of every golden
// ABI, abicodec (the ABI read at run time) prints exactly the JSON the
// generated code prints, and refuses what it refuses.
func TestDynamicDecoderSameAsGenerated(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "oracle", "*.json.gz"))
	if len(files) == 0 {
		t.Fatal("no vectors in testdata/oracle")
	}
	values, abis := 0, 0
	for _, path := range files {
		vf := readVectors(t, path)
		p := goldenpkgs.ByName(vf.ABI)
		if p == nil {
			continue // not a golden ABI's vectors (keys, signing requests)
		}
		abis++
		c, err := abicodec.New(p.ABIJSON)
		if err != nil {
			t.Fatalf("%s: %v", vf.ABI, err)
		}
		names := make([]string, 0, len(vf.Types))
		for n := range vf.Types {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, typ := range names {
			for i, v := range vf.Types[typ] {
				data, _ := hex.DecodeString(v.Hex)
				gen := p.NewValue(typ)
				genErr := gen.UnmarshalBinary(data)
				got, err := c.JSON(typ, data)
				if genErr != nil {
					if err == nil {
						t.Errorf("%s %s[%d]: generated refuses (%v), abicodec accepts", vf.ABI, typ, i, genErr)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s %s[%d]: %v", vf.ABI, typ, i, err)
					continue
				}
				want, _ := gen.MarshalJSON()
				if !bytes.Equal(got, want) {
					t.Errorf("%s %s[%d]:\n got %.300s\nwant %.300s", vf.ABI, typ, i, got, want)
				}
				values++
			}
		}
	}
	if values < 40000 {
		t.Errorf("only %d values compared", values)
	}
	t.Logf("abicodec: %d values of %d ABIs print as the generated code prints them", values, abis)
}
