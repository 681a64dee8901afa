package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/internal/allocs"
	"github.com/antelopego/abigen/internal/goldenpkgs"
	"github.com/antelopego/abigen/model"
)

// decoder is one generated entry point that reads bytes from the network:
// a type's UnmarshalBinary, DecodeAction for one action, or DecodeTableRow
// for one table.
type decoder struct {
	pkg  *goldenpkgs.Package
	kind string // "type", "action" or "table"
	name string
	// builtins are the built-in types the decoded type contains.
	builtins map[string]bool
}

// jsonExact reports whether the type's JSON keeps every bit: no string
// (invalid UTF-8 is replaced, as nodeos does) and no time_point (nodeos
// prints milliseconds). Floats must round-trip exactly; only a NaN's
// payload is lost, and checkDecoder skips values that print "nan" or "-nan".
func (d decoder) jsonExact() bool { return !d.builtins["string"] && !d.builtins["time_point"] }

// builtinsOf collects the built-in types reachable from t.
func builtinsOf(t *model.Type, into map[string]bool, seen map[*model.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch t.Kind {
	case model.Builtin:
		into[t.Name] = true
	case model.StructKind:
		for _, f := range t.Struct.AllFields() {
			builtinsOf(f.Type, into, seen)
		}
	case model.VariantKind:
		for _, m := range t.Variant.Members {
			builtinsOf(m, into, seen)
		}
	default:
		builtinsOf(t.Elem, into, seen)
	}
}

func (d decoder) String() string { return d.pkg.Name + "." + d.kind + ":" + d.name }

func (d decoder) decode(data []byte) (antelope.Value, error) {
	var v any
	var err error
	switch d.kind {
	case "action":
		v, err = d.pkg.DecodeAction(d.name, data)
	case "table":
		v, err = d.pkg.DecodeTableRow(d.name, data)
	default:
		nv := d.pkg.NewValue(d.name)
		err = nv.UnmarshalBinary(data)
		v = nv
	}
	if err != nil {
		return nil, err
	}
	return v.(antelope.Value), nil
}

// allDecoders lists every decoder of every generated package, in a stable
// order, from each package's embedded ABI.
func allDecoders(tb testing.TB) []decoder {
	var out []decoder
	for i := range goldenpkgs.All {
		p := &goldenpkgs.All[i]
		src, err := model.Load(p.ABIJSON)
		if err != nil {
			tb.Fatalf("%s: %v", p.Name, err)
		}
		m, err := model.Resolve(src.ABI)
		if err != nil {
			tb.Fatalf("%s: %v", p.Name, err)
		}
		types := map[string]*model.Type{}
		for _, s := range m.Structs {
			types[s.Name] = &model.Type{Kind: model.StructKind, Name: s.Name, Struct: s}
		}
		for _, v := range m.Variants {
			types[v.Name] = &model.Type{Kind: model.VariantKind, Name: v.Name, Variant: v}
		}
		for _, a := range m.Aliases {
			types[a.Name] = a.Target
		}
		contains := func(t *model.Type) map[string]bool {
			b := map[string]bool{}
			builtinsOf(t, b, map[*model.Type]bool{})
			return b
		}
		names := make([]string, 0, len(types))
		for n := range types {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if p.NewValue(n) != nil {
				out = append(out, decoder{p, "type", n, contains(types[n])})
			}
		}
		for _, a := range m.Actions {
			out = append(out, decoder{p, "action", a.Name, contains(a.Type)})
		}
		for _, t := range m.Tables {
			out = append(out, decoder{p, "table", t.Name, contains(t.Type)})
		}
	}
	return out
}

func TestGoldenPackagesListed(t *testing.T) {
	dirs, _ := filepath.Glob("../golden/*/types.go")
	listed := map[string]bool{}
	for _, p := range goldenpkgs.All {
		listed[p.Name] = true
	}
	for _, d := range dirs {
		if name := filepath.Base(filepath.Dir(d)); !listed[name] {
			t.Errorf("golden/%s compiles but is not in internal/goldenpkgs: add it", name)
		}
	}
	for _, p := range goldenpkgs.All {
		if _, err := os.Stat(filepath.Join("..", "golden", p.Name)); err != nil && p.Name != "randcontract" {
			t.Errorf("goldenpkgs.All lists %s, which is not a golden package", p.Name)
		}
	}
}

// TestHugeLengthPrefix feeds every generated decoder 5 bytes that, read as a
// length prefix, claim 2^32−1 elements. Whatever each decoder reads first,
// it must fail (or decode those 5 bytes exactly) without allocating for the
// claim: lengths are checked against the input that is left.
func TestHugeLengthPrefix(t *testing.T) {
	input := []byte{0xff, 0xff, 0xff, 0xff, 0x0f}
	decoders := allDecoders(t)
	for _, d := range decoders {
		var v antelope.Value
		var err error
		n := allocs.Exactly(func() { v, err = d.decode(input) })
		if n > 64<<10 {
			t.Errorf("%s: allocated %d bytes for a 5-byte input", d, n)
		}
		if err == nil {
			if out, err := v.MarshalBinary(); err != nil || !bytes.Equal(out, input) {
				t.Errorf("%s: decoded 5 bytes but re-encodes them as %x, %v", d, out, err)
			}
		}
	}
	t.Logf("%d decoders of %d generated packages were fed a 4 GiB length claim without a large allocation", len(decoders), len(goldenpkgs.All))
}

// TestEveryDecoderOnZeros holds every decoder to checkDecoder on 64 zero
// bytes (which decode as many types), the seed FuzzGeneratedDecoders gives
// only some of them.
func TestEveryDecoderOnZeros(t *testing.T) {
	zeros := make([]byte, 64)
	for _, d := range allDecoders(t) {
		checkDecoder(t, d, zeros)
	}
}

// FuzzGeneratedDecoders runs every decoder of every generated package (the
// golden ones and generated/randcontract) on arbitrary bytes; sel picks the
// decoder. See checkDecoder for what must hold.
func FuzzGeneratedDecoders(f *testing.F) {
	fuzzDecoders(f, allDecoders(f))
}

// FuzzRandcontractDecoders is FuzzGeneratedDecoders for the 14 decoders of
// generated/randcontract alone, so a short run goes deep into them.
func FuzzRandcontractDecoders(f *testing.F) {
	var ds []decoder
	for _, d := range allDecoders(f) {
		if d.pkg.Name == "randcontract" {
			ds = append(ds, d)
		}
	}
	fuzzDecoders(f, ds)
}

// maxDecoderSeeds bounds a target's seeds: go test -fuzz first runs each
// seed through a worker that sends back the whole coverage map, and this
// test binary, every golden package in it, makes that 18 ms a seed — with
// one seed per decoder (1,690) a 35 s run never got past its seeds. The
// fuzzer reaches the others by mutating sel; TestEveryDecoderOnZeros
// runs each on the seed's input.
const maxDecoderSeeds = 100

func fuzzDecoders(f *testing.F, decoders []decoder) {
	step := (len(decoders) + maxDecoderSeeds - 1) / maxDecoderSeeds
	for i := 0; i < len(decoders); i += step {
		f.Add(uint16(i), make([]byte, 64)) // zeros decode as many types
	}
	f.Fuzz(func(t *testing.T, sel uint16, data []byte) {
		checkDecoder(t, decoders[int(sel)%len(decoders)], data)
	})
}

// checkDecoder: no input may panic or make a decoder allocate more than the
// input justifies; what decodes re-encodes to the same bytes, and its JSON
// reads back and prints the same JSON again.
func checkDecoder(t *testing.T, d decoder, data []byte) {
	var v antelope.Value
	var err error
	// Generous but linear: Go values are larger than their encoding (a
	// 1-byte empty string is a 16-byte header).
	bound := 64<<10 + uint64(len(data))*1024
	if ok, n := allocs.Within(bound, func() { v, err = d.decode(data) }); !ok {
		t.Fatalf("%s: allocated %d bytes for %d bytes of input", d, n, len(data))
	}
	if err != nil {
		return
	}
	out, err := v.MarshalBinary()
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("%s: decoded %x but re-encodes as %x, %v", d, data, out, err)
	}
	j1, err := v.MarshalJSON()
	if err != nil {
		t.Fatalf("%s: MarshalJSON of a decoded value: %v", d, err)
	}
	again, _ := d.decode(data) // a fresh value of the same type
	if err := again.UnmarshalJSON(j1); err != nil {
		t.Fatalf("%s: its own JSON does not read back: %v\n%s", d, err, j1)
	}
	j2, err := again.MarshalJSON()
	if err != nil || !bytes.Equal(j1, j2) {
		t.Fatalf("%s: JSON changes on a round trip:\n%s\n%s", d, j1, j2)
	}
	// nodeos prints every NaN as "nan" or "-nan" (the sign kept, the
	// payload not), so a NaN's payload cannot survive JSON.
	if d.jsonExact() && !bytes.Contains(j1, []byte(`nan"`)) {
		if back, err := again.MarshalBinary(); err != nil || !bytes.Equal(back, data) {
			t.Fatalf("%s: value → JSON → value changed the bytes\n%x\n%x, %v\n%s", d, data, back, err, j1)
		}
	}
}

// FuzzFloatFields is FuzzGeneratedDecoders for the decoders whose types hold
// a float32 or float64 field (in every golden ABI): a value's JSON must read
// back to the same value, bit for bit.
func FuzzFloatFields(f *testing.F) {
	var ds []decoder
	for _, d := range allDecoders(f) {
		if (d.builtins["float32"] || d.builtins["float64"]) && d.jsonExact() {
			ds = append(ds, d)
		}
	}
	if len(ds) < 20 {
		f.Fatalf("only %d decoders with float fields", len(ds))
	}
	fuzzDecoders(f, ds)
}

// TestRecursionDepth: the decoders of a type that contains itself refuse
// input nested deeper than antelope.MaxDepth, in binary and in JSON, with
// an error rather than a stack overflow. (Types that cannot recurse nest
// only as deep as their ABI spells them, and skip the check.)
func TestRecursionDepth(t *testing.T) {
	p := goldenpkgs.ByName("hazardrecursive")
	// list{next: list?}: each level is one optional flag; 100,000 levels.
	deep := bytes.Repeat([]byte{1}, 100000)
	deep = append(deep, 0)
	if err := p.NewValue("list").UnmarshalBinary(deep); err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("binary: %v", err)
	}
	shallow := append(bytes.Repeat([]byte{1}, antelope.MaxDepth-2), 0)
	if err := p.NewValue("list").UnmarshalBinary(shallow); err != nil {
		t.Errorf("binary, %d levels: %v", antelope.MaxDepth-1, err)
	}
	js := strings.Repeat(`{"next":`, 100000) + "null" + strings.Repeat("}", 100000)
	if err := p.NewValue("list").UnmarshalJSON([]byte(js)); err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("JSON: %v", err)
	}
}
