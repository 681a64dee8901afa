package hyperion

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// seeds adds every fixture and a few broken forms of them.
func seeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte(`"invalid limit parameter"`))
	f.Add([]byte(`{"actions":[{"act":{"account":"a","name":"b"},"global_sequence":"18446744073709551616"}]}`))
	f.Add([]byte(`{"deltas":[{"code":"a","table":"b","present":true,"primary_key":1e3,"value":"zz"}]}`))
}

// Every answer parser takes any bytes without panicking, and what it
// accepts is whole: actions and deltas name their contract and table.
func FuzzParseActions(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseActions(b)
		if err != nil {
			return
		}
		for _, a := range p.Actions {
			if a.Contract == 0 || a.Name == 0 {
				t.Fatalf("an action without contract or name: %+v", a)
			}
		}
	})
}

func FuzzParseDeltas(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseDeltas(b)
		if err != nil {
			return
		}
		for _, d := range p.Deltas {
			if d.Code == 0 || d.Table == 0 {
				t.Fatalf("a delta without code or table: %+v", d)
			}
		}
	})
}

func FuzzParseTransaction(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) { ParseTransaction(b) })
}

func FuzzParseTokens(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		toks, err := ParseTokens(b)
		if err != nil {
			return
		}
		for _, tok := range toks {
			tok.Asset() // never panics; exactness is FuzzExactAsset's
		}
	})
}

func FuzzParseHealth(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) { ParseHealth(b) })
}

func FuzzParseCreator(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) { ParseCreator(b) })
}

func FuzzParseCreatedAccounts(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, b []byte) { ParseCreatedAccounts(b) })
}

// FuzzExactAsset: an asset recovered from a float's text gives that float
// back, and the text's float is never rounded to a neighbour.
func FuzzExactAsset(f *testing.F) {
	for _, s := range []string{"1.2345", "0.30000000000000004", "1e-7", "90071992547.40993", "-3", "1e+21", "0"} {
		f.Add(s, uint8(4))
	}
	f.Fuzz(func(t *testing.T, text string, p uint8) {
		if len(text) > 64 { // big.Rat of a huge exponent is slow, not wrong
			return
		}
		if i := strings.IndexAny(text, "eE"); i >= 0 {
			if e, err := strconv.Atoi(strings.TrimPrefix(text[i+1:], "+")); err != nil || e > 400 || e < -400 {
				return
			}
		}
		s := antelope.Symbol{Precision: p % 19, Code: antelope.MustSymbolCode("EOS")}
		a, err := exactAsset(text, s)
		if err != nil {
			return
		}
		x, _ := strconv.ParseFloat(text, 64)
		y, _ := strconv.ParseFloat(strings.Fields(a.String())[0], 64)
		if x != y || a.Symbol != s {
			t.Fatalf("%s at %s gave %v (%v)", text, s, a, y)
		}
	})
}

// FuzzRepairAction: undoing Hyperion's rewrites takes any JSON without
// panicking.
func FuzzRepairAction(f *testing.F) {
	f.Add(`{"payer":"a","receiver":"b","quant":1.5}`, "buyram")
	f.Add(`{"account":"a","auth":{"threshold":1}}`, "updateauth")
	f.Add(`{"newact":"carol","creator":"a"}`, "newaccount")
	f.Add(`{"stake_cpu_quantity":0.2,"stake_net_quantity":"x"}`, "delegatebw")
	c := New("http://127.0.0.1:1", WithCoreSymbol(antelope.MustSymbol("4,EOS")))
	f.Fuzz(func(t *testing.T, data, name string) {
		n, err := antelope.ParseName(name)
		if err != nil {
			return
		}
		c.repairAction(nameEosio, n, []byte(data))
	})
}
