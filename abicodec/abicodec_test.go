package abicodec_test

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/internal/goldenpkgs"
	"github.com/antelopego/abigen/model"
)

type vectorFile struct {
	ABI   string `json:"abi"`
	Types map[string][]struct {
		Hex string `json:"hex"`
	} `json:"types"`
}

// TestSameAsGenerated: on every oracle vector of every golden ABI, the
// dynamic decoder prints exactly the JSON the generated code prints, and
// refuses what it refuses.
func TestSameAsGenerated(t *testing.T) {
	files, _ := filepath.Glob("../testdata/oracle/*.json.gz")
	if len(files) == 0 {
		t.Fatal("no oracle vectors")
	}
	values := 0
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(zr)
		f.Close()
		var vf vectorFile
		if err := json.Unmarshal(raw, &vf); err != nil {
			t.Fatal(err)
		}
		p := goldenpkgs.ByName(vf.ABI)
		if p == nil {
			t.Fatalf("%s: no package", vf.ABI)
		}
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
						t.Errorf("%s %s[%d]: generated refuses (%v), dynamic accepts", vf.ABI, typ, i, genErr)
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
	t.Logf("%d values of %d ABIs print as the generated code prints them", values, len(files))
}

// A packed ABI (as an account delta or get_raw_abi carries it) and an
// action's data.
func TestPackedABIAction(t *testing.T) {
	src, err := model.Load(eosiotoken.ABIJSON)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := src.ABI.Pack()
	if err != nil {
		t.Fatal(err)
	}
	c, err := abicodec.New(packed)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := antelope.ParseAsset("1.0000 WAX")
	data, _ := (&eosiotoken.Transfer{From: antelope.MustName("alice"), To: antelope.MustName("bob"), Quantity: q, Memo: "hi"}).MarshalBinary()
	got, err := c.ActionJSON(eosiotoken.ActionTransfer, data)
	if err != nil || string(got) != `{"from":"alice","to":"bob","quantity":"1.0000 WAX","memo":"hi"}` {
		t.Fatalf("%s %v", got, err)
	}
	if _, err := c.ActionJSON(antelope.MustName("nothing"), data); err == nil {
		t.Error("unknown action decoded")
	}
	if _, err := c.ActionJSON(eosiotoken.ActionTransfer, data[:5]); err == nil {
		t.Error("short data decoded")
	}
	if _, err := c.TableJSON(antelope.MustName("accounts"), []byte{1, 2}); err == nil {
		t.Error("short row decoded")
	}
}
