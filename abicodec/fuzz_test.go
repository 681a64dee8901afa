package abicodec_test

import (
	"bytes"
	"testing"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/golden/abieostest"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/eosiotoken"
	"github.com/antelopego/abigen/golden/springvariants"
	"github.com/antelopego/abigen/model"
)

// fuzzPackage is a generated package the fuzz target compares with: a
// few chosen for their variety (variants, extensions, arrays, every
// built-in), imported directly so that the fuzzing binary stays small.
type fuzzPackage struct {
	name     string
	abiJSON  []byte
	newValue func(string) antelope.Value
}

var fuzzPackages = []fuzzPackage{
	{"eosiotoken", eosiotoken.ABIJSON, eosiotoken.NewValue},
	{"atomicassets", atomicassets.ABIJSON, atomicassets.NewValue},
	{"springvariants", springvariants.ABIJSON, springvariants.NewValue},
	{"abieostest", abieostest.ABIJSON, abieostest.NewValue},
	{"randcontract", randcontract.ABIJSON, randcontract.NewValue},
}

// FuzzSameAsGenerated: any bytes, as any type of a few golden ABIs (a
// selector byte picks the ABI and the type): the dynamic decoder accepts
// exactly what the generated code accepts, and prints the same JSON.
func FuzzSameAsGenerated(f *testing.F) {
	type target struct {
		p     fuzzPackage
		c     *abicodec.Codec
		types []string
	}
	var targets []target
	for _, p := range fuzzPackages {
		c, err := abicodec.New(p.abiJSON)
		if err != nil {
			f.Fatal(err)
		}
		src, _ := model.Load(p.abiJSON)
		m, err := model.ResolveWith(src.ABI, model.ResolveOptions{OffChain: true})
		if err != nil {
			f.Fatal(err)
		}
		var types []string
		for _, s := range m.Structs {
			types = append(types, s.Name)
		}
		for _, v := range m.Variants {
			types = append(types, v.Name)
		}
		targets = append(targets, target{p, c, types})
	}
	f.Add(byte(0), []byte("\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(byte(7), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18})
	f.Fuzz(func(t *testing.T, sel byte, data []byte) {
		tg := targets[int(sel)%len(targets)]
		typ := tg.types[int(sel)/len(targets)%len(tg.types)]
		gen := tg.p.newValue(typ)
		genErr := gen.UnmarshalBinary(data)
		got, err := tg.c.JSON(typ, data)
		if (genErr == nil) != (err == nil) {
			t.Fatalf("%s %s: generated %v, dynamic %v", tg.p.name, typ, genErr, err)
		}
		if err != nil {
			return
		}
		want, _ := gen.MarshalJSON()
		if !bytes.Equal(got, want) {
			t.Fatalf("%s %s:\n got %s\nwant %s", tg.p.name, typ, got, want)
		}
	})
}
