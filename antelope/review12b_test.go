package antelope

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// An adversary's review of the one-pass readers of names, integers and
// hex (name.go, jsonscalar.go, jsonread.go): every JSON input reads through
// the public API as it did before them — the same value, the same error
// (type, message, byte offset), the reader at the same offset with the
// same scratch buffer, a []byte of the same capacity, no more allocations
// — whatever surrounds the value: escapes, cuts, white space, neighbours.
// The plain code (oldParseName, oldSigned, oldUnsigned, oldBytes…) is kept
// in scalar_fastpath_test.go.

// scalarRead is one reader of the public API and the plain code it
// replaced: each reads one value at r and returns it with its error.
type scalarRead struct {
	what     string
	new, old func(r *JSONReader) (any, error)
}

// OldReadName is Name.DecodeJSON as it was, for the external tests of
// bindings; it leaves *n alone when the input is no string, as it did.
func OldReadName(r *JSONReader, n *Name) error { return oldNameDecodeJSON(n, r) }

// OldReadBytes is JSONReader.Bytes as it was.
func OldReadBytes(r *JSONReader) ([]byte, error) { return oldBytes(r) }

// OldReadUnsigned and OldReadSigned are the integer readers as they were:
// typ is the ABI type ("uint32"), bits its size.
func OldReadUnsigned(r *JSONReader, typ string, bits int) (uint64, error) {
	t, _, err := r.Scalar("an integer")
	if err != nil {
		return 0, err
	}
	return oldUnsigned(typ, bits, t)
}

func OldReadSigned(r *JSONReader, typ string, bits int) (int64, error) {
	t, _, err := r.Scalar("an integer")
	if err != nil {
		return 0, err
	}
	return oldSigned(typ, bits, t)
}

var scalarReads = []scalarRead{
	{"Name", func(r *JSONReader) (any, error) {
		n := Name(7) // not zero: an error that leaves it must leave it alike
		err := n.DecodeJSON(r)
		return n, err
	}, func(r *JSONReader) (any, error) {
		n := Name(7)
		err := OldReadName(r, &n)
		return n, err
	}},
	{"Bytes", func(r *JSONReader) (any, error) { return r.Bytes() }, func(r *JSONReader) (any, error) { return OldReadBytes(r) }},
	{"Bytes.DecodeJSON", func(r *JSONReader) (any, error) {
		b := Bytes{1}
		err := b.DecodeJSON(r)
		return b, err
	}, func(r *JSONReader) (any, error) {
		b := Bytes{1}
		v, err := OldReadBytes(r)
		if err == nil {
			b = v
		}
		return b, err
	}},
	{"Uint8", func(r *JSONReader) (any, error) { return r.Uint8() }, func(r *JSONReader) (any, error) {
		v, err := OldReadUnsigned(r, "uint8", 8)
		return uint8(v), err
	}},
	{"Uint16", func(r *JSONReader) (any, error) { return r.Uint16() }, func(r *JSONReader) (any, error) {
		v, err := OldReadUnsigned(r, "uint16", 16)
		return uint16(v), err
	}},
	{"Uint32", func(r *JSONReader) (any, error) { return r.Uint32() }, func(r *JSONReader) (any, error) {
		v, err := OldReadUnsigned(r, "uint32", 32)
		return uint32(v), err
	}},
	{"Uint64", func(r *JSONReader) (any, error) { return r.Uint64() }, func(r *JSONReader) (any, error) {
		return OldReadUnsigned(r, "uint64", 64)
	}},
	{"Int8", func(r *JSONReader) (any, error) { return r.Int8() }, func(r *JSONReader) (any, error) {
		v, err := OldReadSigned(r, "int8", 8)
		return int8(v), err
	}},
	{"Int16", func(r *JSONReader) (any, error) { return r.Int16() }, func(r *JSONReader) (any, error) {
		v, err := OldReadSigned(r, "int16", 16)
		return int16(v), err
	}},
	{"Int32", func(r *JSONReader) (any, error) { return r.Int32() }, func(r *JSONReader) (any, error) {
		v, err := OldReadSigned(r, "int32", 32)
		return int32(v), err
	}},
	{"Int64", func(r *JSONReader) (any, error) { return r.Int64() }, func(r *JSONReader) (any, error) {
		return OldReadSigned(r, "int64", 64)
	}},
	{"VarUint32", func(r *JSONReader) (any, error) {
		v := VarUint32(9)
		err := v.DecodeJSON(r)
		return v, err
	}, func(r *JSONReader) (any, error) {
		v := VarUint32(9)
		u, err := OldReadUnsigned(r, "varuint32", 32)
		if err == nil {
			v = VarUint32(u)
		}
		return v, err
	}},
	{"VarInt32", func(r *JSONReader) (any, error) {
		v := VarInt32(9)
		err := v.DecodeJSON(r)
		return v, err
	}, func(r *JSONReader) (any, error) {
		v := VarInt32(9)
		i, err := OldReadSigned(r, "varint32", 32)
		if err == nil {
			v = VarInt32(i)
		}
		return v, err
	}},
}

// readVia makes a scalarRead a JSONDecodable, for UnmarshalJSON.
type readVia struct {
	read func(r *JSONReader) (any, error)
	v    any
}

func (x *readVia) DecodeJSON(r *JSONReader) (err error) {
	x.v, err = x.read(r)
	return err
}

// readList reads a JSON array of values, as a generated binding reads a
// vector: every value, then the first error.
type readList struct {
	read func(r *JSONReader) (any, error)
	vs   []any
}

func (x *readList) DecodeJSON(r *JSONReader) error {
	if err := r.BeginArray(); err != nil {
		return err
	}
	for i := 0; ; i++ {
		more, err := r.NextElement()
		if err != nil || !more {
			return err
		}
		v, err := x.read(r)
		x.vs = append(x.vs, v)
		if err != nil {
			return AtIndex(err, i)
		}
	}
}

// sameCap fails unless the []byte values in got and want have the same
// capacity (and are both nil or both not).
func sameCap(t testing.TB, what string, doc []byte, got, want any) {
	t.Helper()
	g, gok := got.([]byte)
	w, wok := want.([]byte)
	if gb, ok := got.(Bytes); ok {
		g, gok = gb, true
		w, wok = want.(Bytes)
	}
	if gok && wok && (cap(g) != cap(w) || (g == nil) != (w == nil)) {
		t.Fatalf("%s(%q): capacity %d (nil %v); the plain code %d (nil %v)", what, doc, cap(g), g == nil, cap(w), w == nil)
	}
}

// checkReadsAsBefore reads doc with every reader and with the plain code:
// a reader's value, error, offset and scratch buffer after one value, then
// what it reads next (Skip, Finish); UnmarshalJSON of the value; and doc
// as every element of an array of three.
func checkReadsAsBefore(t testing.TB, doc []byte) {
	t.Helper()
	list := bytes.Join([][]byte{[]byte("["), doc, []byte(","), doc, []byte(" ,"), doc, []byte("]")}, nil)
	for _, sr := range scalarReads {
		r, wr := NewJSONReader(doc), NewJSONReader(doc)
		v, err := sr.new(r)
		wv, werr := sr.old(wr)
		sameResult(t, sr.what, doc, v, err, wv, werr)
		sameCap(t, sr.what, doc, v, wv)
		if r.Offset() != wr.Offset() || cap(r.scratch) != cap(wr.scratch) || len(r.scratch) != len(wr.scratch) || r.depth != wr.depth || r.first != wr.first {
			t.Fatalf("%s(%q): reader at %d, scratch %d/%d; the plain code at %d, %d/%d", sr.what, doc,
				r.Offset(), len(r.scratch), cap(r.scratch), wr.Offset(), len(wr.scratch), cap(wr.scratch))
		}
		// What follows reads alike: a string at the same place, or not.
		s, serr := r.String()
		ws, wserr := wr.String()
		sameResult(t, sr.what+" then String", doc, s, serr, ws, wserr)
		sameResult(t, sr.what+" then Skip", doc, r.Offset(), r.Skip(), wr.Offset(), wr.Skip())

		x, wx := readVia{read: sr.new}, readVia{read: sr.old}
		err, werr = UnmarshalJSON(doc, &x), UnmarshalJSON(doc, &wx)
		sameResult(t, "UnmarshalJSON "+sr.what, doc, x.v, err, wx.v, werr)
		sameCap(t, "UnmarshalJSON "+sr.what, doc, x.v, wx.v)

		l, wl := readList{read: sr.new}, readList{read: sr.old}
		err, werr = UnmarshalJSON(list, &l), UnmarshalJSON(list, &wl)
		sameResult(t, "UnmarshalJSON list of "+sr.what, list, l.vs, err, wl.vs, werr)
		for i := range l.vs {
			sameCap(t, "UnmarshalJSON list of "+sr.what, list, l.vs[i], wl.vs[i])
		}
	}
}

// review12bTexts are the texts at the edges the brief names: integer
// bounds of every size, 20- and 21-digit values, leading zeros, signs,
// exponents, names of 12 to 14 characters and their 13th character, hex
// of odd length and of 15 to 33 and 63 to 129 digits, either case.
var review12bTexts = func() []string {
	texts := []string{
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "18446744073709551617", "36893488147419103231",
		"99999999999999999999", "100000000000000000000", "184467440737095516150", "-18446744073709551616",
		"00000000000000000000", "000000000000000000000", "00000000000000000255", "-00000000000000000128",
		"007", "-0", "-00", "0", "00", "0x10", "0X10", "1e3", "1E3", "1e+3", "-1e3", "1.0", "1.", ".1",
		"+0", "+1", "-", "--1", "- 1", " 1", "1 ", "1\x00", "1_0", "١", "\u00bd",
		"127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32768", "-32769", "65535", "65536",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
		"12345678", "123456789", "1234567812345678", "12345678123456781", "1234567812345678123",
		"", ".", "a", "a.", "...", "eosio", "eosio.token", "abcdefghijkl", "abcdefghijkl.", "abcdefghijkla",
		"abcdefghijklj", "abcdefghijklk", "abcdefghijklz", "abcdefghijkl1", "abcdefghijkl5", "abcdefghijkl6",
		"abcdefghijklmn", "zzzzzzzzzzzzj", "zzzzzzzzzzzz.", "zzzzzzzzzzzzz", "............", ".............",
		"...........a", "Eosio", "eosiO", "eos io", "eos\tio", "eosio\x80", "\xffeosio", "\xc3\xa9", "eosio\"",
		"0123456789abcdef", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "abc", "a", "aA",
	}
	const hex = "0123456789abcdefABCDEF9876543210fedcbaFEDCBA"
	for _, n := range []int{1, 2, 3, 7, 8, 9, 14, 15, 16, 17, 18, 30, 31, 32, 33, 34, 63, 64, 65, 126, 127, 128, 129, 130, 256, 257} {
		texts = append(texts, strings.Repeat(hex, 6)[:n])
	}
	return texts
}()

// jsonAround are ways a text appears in a JSON input: %s is the text
// quoted (as it is, or escaped), %v bare.
var jsonPrefixes = []string{"", " ", "\t\r\n ", "\f", "\v", "\xa0", "\x00", "[", ","}
var jsonSuffixes = []string{"", " ", "\n", ",", "]", "}", `"`, `""`, `"abc"`, `,"def"`, `,"ABCDEF0123456789"`, `\`, `\u0061"`,
	`abcdefghijklmnop"`, `0123456789abcdef"`, "12345678", ":", "\x00", "\xff"}

// randJSONAround is text as a JSON value, quoted or bare, escaped at
// random, between random neighbours, often cut.
func randJSONAround(r *rand.Rand, text string) []byte {
	var v []byte
	switch r.IntN(6) {
	case 0:
		v = []byte(text)
	case 1:
		v = []byte(`"` + text + `"`)
	case 2:
		v = []byte(`"` + text) // the text runs to the end of the input
	case 3: // one byte escaped, often mid-way: \u0061 in a name
		if text == "" {
			v = []byte(`""`)
			break
		}
		i := r.IntN(len(text))
		esc := `\u00` + strconv.FormatUint(uint64(text[i])>>4, 16) + strconv.FormatUint(uint64(text[i])&15, 16)
		if r.IntN(2) == 0 {
			esc = strings.ToUpper(esc[:2]) + strings.ToUpper(esc[2:])
			esc = `\u` + esc[2:]
		}
		v = []byte(`"` + text[:i] + esc + text[i+1:] + `"`)
	default:
		v = quoteAssetJSON(text, escMask(r))
	}
	doc := append([]byte(jsonPrefixes[r.IntN(len(jsonPrefixes))]), v...)
	doc = append(doc, jsonSuffixes[r.IntN(len(jsonSuffixes))]...)
	if r.IntN(6) == 0 {
		doc = doc[:r.IntN(len(doc)+1)]
	}
	return doc
}

// randReview12bText is a text from the edges, from the other
// differential test's generator, or a random name, integer or hex text.
func randReview12bText(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return review12bTexts[r.IntN(len(review12bTexts))]
	case 1:
		return scalarBoundaries[r.IntN(len(scalarBoundaries))]
	case 2: // a decimal of up to 22 digits around a power of two
		v := uint64(1)<<r.IntN(64) + uint64(r.IntN(5)) - 2
		s := strconv.FormatUint(v, 10)
		if r.IntN(4) == 0 {
			s = strings.Repeat("0", r.IntN(4)) + s
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		return s
	case 3: // hex of any length up to 140 digits, either case
		b := make([]byte, r.IntN(141))
		for i := range b {
			b[i] = "0123456789abcdefABCDEF"[r.IntN(22)]
		}
		if len(b) > 0 && r.IntN(3) == 0 {
			b[r.IntN(len(b))] = randByte(r)
		}
		return string(b)
	}
	return string(randScalarText(r))
}

// TestScalarsReadAsBeforeThroughTheAPI reads the edge texts in every form
// and random texts in random forms, comparing every reader with the plain
// code: 4,000 random inputs (REVIEW12B_INPUTS for more).
func TestScalarsReadAsBeforeThroughTheAPI(t *testing.T) {
	for _, s := range append(slicesClone(review12bTexts), scalarBoundaries...) {
		for _, p := range []string{"", " \n"} {
			for _, q := range []string{s, `"` + s + `"`, `"` + s, `"` + s + `","x"`, `"` + s + `"` + s, s + `,1`} {
				checkReadsAsBefore(t, []byte(p+q))
			}
		}
	}
	n := 4000
	if s := os.Getenv("REVIEW12B_INPUTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("REVIEW12B_INPUTS=%q: %v", s, err)
		}
	}
	r := rand.New(rand.NewPCG(12, 0xb))
	for range n {
		checkReadsAsBefore(t, randJSONAround(r, randReview12bText(r)))
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// TestScalarsAllocateNoMoreThanBefore: for each edge text quoted and bare,
// no reader allocates more than the plain code did.
func TestScalarsAllocateNoMoreThanBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts: not with -short")
	}
	for _, s := range review12bTexts {
		for _, doc := range []string{s, `"` + s + `"`, `["` + s + `"]`} {
			data := []byte(doc)
			for _, sr := range scalarReads {
				var r JSONReader
				count := func(read func(*JSONReader) (any, error)) float64 {
					return testing.AllocsPerRun(5, func() {
						r.Reset(data)
						_, _ = read(&r)
					})
				}
				// Each twice, after a first run that sizes the scratch
				// buffer: what is left is the read's own allocations.
				count(sr.old)
				old := count(sr.old)
				count(sr.new)
				if got := count(sr.new); got > old {
					t.Errorf("%s(%s): %v allocations; the plain code %v", sr.what, doc, got, old)
				}
			}
		}
	}
}

// TestUsualScalarsAllocateNothingButTheBytes: the usual texts, each read
// in one pass, allocate nothing, and a hex string its bytes once.
func TestUsualScalarsAllocateNothingButTheBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts: not with -short")
	}
	var r JSONReader
	for _, c := range []struct {
		doc  string
		read func(*JSONReader) error
		want float64
	}{
		{`"eosio.token"`, func(r *JSONReader) error { var n Name; return n.DecodeJSON(r) }, 0},
		{`"zzzzzzzzzzzzj"`, func(r *JSONReader) error { var n Name; return n.DecodeJSON(r) }, 0},
		{`"18446744073709551615"`, func(r *JSONReader) error { _, err := r.Uint64(); return err }, 0},
		{`-9223372036854775808`, func(r *JSONReader) error { _, err := r.Int64(); return err }, 0},
		{`"0123456789abcdef0123456789ABCDEF"`, func(r *JSONReader) error { _, err := r.Bytes(); return err }, 1},
	} {
		data := []byte(c.doc)
		got := testing.AllocsPerRun(20, func() {
			r.Reset(data)
			if err := c.read(&r); err != nil {
				t.Fatal(err)
			}
		})
		if got != c.want {
			t.Errorf("%s: %v allocations, want %v", c.doc, got, c.want)
		}
	}
}

// FuzzScalarsReadAsBefore compares every reader with the plain code on
// any JSON input, as a value, through UnmarshalJSON, and as the elements
// of an array; and the fast paths themselves on the input as a text (one
// target for both: each costs CI 35 s).
func FuzzScalarsReadAsBefore(f *testing.F) {
	for _, s := range scalarBoundaries {
		f.Add([]byte(s))
	}
	for _, s := range review12bTexts {
		f.Add([]byte(`"` + s + `"`))
		f.Add([]byte(s))
	}
	f.Add([]byte(`"eos\u0069o"`))
	f.Add([]byte(`"abcdefghijkl\u006a"`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkReadsAsBefore(t, doc)
		checkScalarFastPaths(t, doc)
	})
}

// RandScalarJSON is a random JSON input around a name, integer or hex
// text at an edge, for the external tests of bindings.
func RandScalarJSON(r *rand.Rand) []byte { return randJSONAround(r, randReview12bText(r)) }

// RandScalarText is such a text alone.
func RandScalarText(r *rand.Rand) string { return randReview12bText(r) }

// TestEveryByteAtEveryPlaceReadsAsBefore puts every byte value at every
// place of names of 11 to 14 characters and of integers at the bounds of
// the eight-digit steps and of the 20th digit's overflow check, and just
// after them (where the closing quote belongs), each as a JSON string
// alone, at the input's end, and followed by another; every name and
// integer reader reads it as the plain code did.
func TestEveryByteAtEveryPlaceReadsAsBefore(t *testing.T) {
	names := []string{"abcdefghijk", "abcdefghijkl", "zzzzzzzzzzzzj", "a.b.c.d.e.f.g", "abcdefghijklmn"}
	ints := []string{"18446744073709551615", "1844674407370955161", "9223372036854775808", "-9223372036854775808", "12345678"}
	nameReads := map[string]bool{"Name": true}
	intReads := map[string]bool{"Uint8": true, "Uint64": true, "Int8": true, "Int64": true}
	for k, base := range append(names, ints...) {
		reads := nameReads
		if k >= len(names) {
			reads = intReads
		}
		for i := 0; i <= len(base); i++ {
			for c := range 256 {
				text := []byte(base)
				if i == len(base) {
					text = append(text, byte(c))
				} else {
					text[i] = byte(c)
				}
				for _, doc := range [][]byte{
					append(append([]byte(`"`), text...), '"'),
					append([]byte(`"`), text...),
					append(append([]byte(`"`), text...), `","abcdefghijklmnop"`...),
					text,
				} {
					for _, sr := range scalarReads {
						if !reads[sr.what] {
							continue
						}
						r, wr := NewJSONReader(doc), NewJSONReader(doc)
						v, err := sr.new(r)
						wv, werr := sr.old(wr)
						sameResult(t, sr.what, doc, v, err, wv, werr)
						if r.Offset() != wr.Offset() || cap(r.scratch) != cap(wr.scratch) {
							t.Fatalf("%s(%q): reader at %d; the plain code at %d", sr.what, doc, r.Offset(), wr.Offset())
						}
					}
				}
			}
		}
	}
}
