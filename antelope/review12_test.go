package antelope

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf8"
)

// An adversary's review of the in-place fast path (assetfast.go): every
// asset text, whatever bytes surround it in the JSON input and however it
// is escaped, reads as the general path reads its unescaped text — what
// Asset.DecodeJSON did before the fast path (StringBytes, then
// parseAssetText).

// assetBefore decodes as Asset.DecodeJSON did before the fast path.
type assetBefore struct{ a Asset }

func (b *assetBefore) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseAssetText(t)
	if err == nil {
		b.a = v
	}
	return err
}

// assetPair is [asset, asset]: the first is followed in the input by a
// comma and the second's text, which the fast path's loads reach.
type assetPair[A any, P interface {
	*A
	JSONDecodable
}] [2]A

func (p *assetPair[A, P]) DecodeJSON(r *JSONReader) error {
	if err := r.BeginArray(); err != nil {
		return err
	}
	for i := range p {
		more, err := r.NextElement()
		if err != nil {
			return err
		}
		if !more {
			return r.errorf("two assets expected")
		}
		if err := P(&p[i]).DecodeJSON(r); err != nil {
			return err
		}
	}
	if more, err := r.NextElement(); err != nil || more {
		return r.errorf("two assets expected")
	}
	return nil
}

// quoteAssetJSON is s as a JSON string: bytes a JSON string cannot hold
// as they are escaped, and each other byte escaped too when the next bit
// of esc is set, in one of the forms JSON has (\u00XX, \/, \", \\, \t, and
// \uD83D\uDE00 style pairs for a rune above the BMP), so that the
// unescaped text is shorter than the raw one by a varying amount.
func quoteAssetJSON(s string, esc uint64) []byte {
	b := []byte{'"'}
	for i := 0; i < len(s); {
		c := s[i]
		bit := esc&1 == 1
		esc = esc>>1 | esc<<63
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			// Not UTF-8: as it is (JSONReader keeps such bytes).
			if c < 0x20 || c == '"' || c == '\\' {
				b = append(b, `\u00`...)
				b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				b = append(b, c)
			}
			i++
			continue
		case r > 0xffff && bit:
			r1, r2 := utf16Pair(r)
			b = append(b, `\u`...)
			b = append(b, strconv.FormatUint(uint64(r1), 16)...)
			b = append(b, `\u`...)
			b = append(b, strconv.FormatUint(uint64(r2), 16)...)
		case r < 0x20 || r == '"' || r == '\\' || bit:
			switch {
			case r == '"' && esc&1 == 0:
				b = append(b, `\"`...)
			case r == '\\' && esc&1 == 0:
				b = append(b, `\\`...)
			case r == '/' && esc&1 == 0:
				b = append(b, `\/`...)
			case r == '\t' && esc&1 == 0:
				b = append(b, `\t`...)
			case r <= 0xffff:
				h := strconv.FormatUint(uint64(r), 16)
				b = append(b, `\u`...)
				for range 4 - len(h) {
					b = append(b, '0')
				}
				b = append(b, h...)
			default:
				b = append(b, s[i:i+size]...)
			}
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + r>>10&0x3ff, 0xdc00 + r&0x3ff
}

// checkAssetJSONAsBefore reads data, a JSON input holding asset texts, as
// an asset, and as [asset, asset], with the fast path and as before it:
// the same values, the same error text.
func checkAssetJSONAsBefore(t *testing.T, data []byte) {
	t.Helper()
	var got Asset
	var want assetBefore
	err, wantErr := UnmarshalJSON(data, &got), UnmarshalJSON(data, &want)
	if errText(err) != errText(wantErr) || got != want.a {
		t.Fatalf("%q: reads %+v, %v; before the fast path %+v, %v", data, got, err, want.a, wantErr)
	}
	var gotPair assetPair[Asset, *Asset]
	var wantPair assetPair[assetBefore, *assetBefore]
	err, wantErr = UnmarshalJSON(data, &gotPair), UnmarshalJSON(data, &wantPair)
	if errText(err) != errText(wantErr) || gotPair[0] != wantPair[0].a || gotPair[1] != wantPair[1].a {
		t.Fatalf("%q as a pair: reads %+v, %v; before the fast path %+v, %v", data, gotPair, err, wantPair, wantErr)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// randNeighbour is bytes that may follow or precede an asset text in a
// JSON input, some of which would extend the text if read as part of it.
func randNeighbour(r *rand.Rand) string {
	const pieces = "0123456789 .-+AZaz\"\\,]}:\t\x00\xff"
	b := make([]byte, r.IntN(12))
	for i := range b {
		b[i] = pieces[r.IntN(len(pieces))]
	}
	return string(b)
}

// randAssetJSON is a JSON input around one or two asset texts: a string
// (escaped at random), a pair of them, with random bytes after, so that
// the input may also be malformed.
func randAssetJSON(r *rand.Rand) []byte {
	one := quoteAssetJSON(randAssetText(r), escMask(r))
	var data []byte
	switch r.IntN(4) {
	case 0:
		data = one
	case 1:
		data = append(append([]byte(" "), one...), " "...)
	case 2:
		two := quoteAssetJSON(randAssetText(r), escMask(r))
		data = append(append(append(append([]byte("["), one...), ","...), two...), "]"...)
	default:
		two := []byte(randAssetText(r))
		data = append(append(append(append([]byte("["), one...), ","...), two...), "]"...)
	}
	if r.IntN(3) == 0 {
		data = append(data, randNeighbour(r)...)
	}
	if r.IntN(8) == 0 && len(data) > 0 {
		data = data[:r.IntN(len(data))] // cut anywhere: ends inside the text
	}
	return data
}

func escMask(r *rand.Rand) uint64 {
	switch r.IntN(3) {
	case 0:
		return 0
	case 1:
		return 1 << r.IntN(64)
	}
	return r.Uint64() & r.Uint64()
}

func TestAssetJSONReadsAsBeforeTheFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	n := 200000
	if testing.Short() {
		n = 30000
	}
	for _, s := range []string{`"1.0 A"9`, `"1 SYS"ABC`, `["1 SYS","ABC"]`, `["1 SYS",1]`, `"1 S\"YS"`,
		`"1\u0020SYS"`, `"1 \u0053YS"`, `"1 SY\/"`, `"\u0031 A"`, `"1.0 \u00c0"`, `"1 A\ud83d\ude00"`,
		`"4611686018427387903 ABCDEFG"`, `"4611686018427387904 A"`, `"1 ABCDEFGH"`, `"1 A`, `"1 `, `"`,
		`""`, `"1 A"`, `["-0.000000000000000001 Z","9999999999999999999 A"]`, "\"1 A\x00\"", "\"1 \xffA\""} {
		checkAssetJSONAsBefore(t, []byte(s))
	}
	for range n {
		checkAssetJSONAsBefore(t, randAssetJSON(r))
	}
}

// Every asset text, anywhere in a buffer of random bytes: the fast path
// reads only the text, what it reads alone, as the general path.
func TestAssetFastPathAmidRandomBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 2))
	n := 200000
	if testing.Short() {
		n = 30000
	}
	for range n {
		s := randAssetText(r)
		before, after := randNeighbour(r), randNeighbour(r)
		data := []byte(before + s + after)
		got, ok := parseAssetFast(data, len(before), len(before)+len(s))
		alone, okAlone := parseAssetFast([]byte(s), 0, len(s))
		if ok != okAlone || got != alone {
			t.Fatalf("%q amid %q and %q: %+v %v; alone %+v %v", s, before, after, got, ok, alone, okAlone)
		}
		if want, err := parseAssetText([]byte(s)); ok && (err != nil || want != got) {
			t.Fatalf("%q: fast path %+v; general path %+v, %v", s, got, want, err)
		}
		if want, nodeosOK := nodeosAsset(s); ok && (!nodeosOK || want != got) {
			t.Fatalf("%q: fast path %+v; nodeos %+v, %v", s, got, want, nodeosOK)
		}
	}
}

// Every length from 0 to 40, every cut of a canonical text, at the very
// end of its buffer (no byte after it to load).
func TestAssetFastPathAtTheEndOfItsInput(t *testing.T) {
	for _, s := range []string{"4611686018427387903 ABCDEFG", "-4.611686018427387903 ABCDEFG",
		"0.000000000000000001 A", "12345678.12345678 SYS", "-1234567890123456789 ZZZZZZZ",
		"0000000000000000000000000000000000001 A"} {
		for k := 0; k <= len(s); k++ {
			for from := 0; from <= k; from++ {
				b := []byte(s[from:k]) // its own exact-length buffer
				got, ok := parseAssetFast(b, 0, len(b))
				want, err := parseAssetText(b)
				if ok && (err != nil || got != want) {
					t.Fatalf("%q: fast path %+v; general path %+v, %v", b, got, want, err)
				}
				checkAssetJSONAsBefore(t, []byte(`"`+string(b)+`"`))
			}
		}
	}
}

func TestAssetFastPathAllocatesNothing(t *testing.T) {
	data := []byte(`["1.0000 SYS","-4611686018427387.903 ABCDEFG"]`)
	var r JSONReader
	var p assetPair[Asset, *Asset]
	allocs := testing.AllocsPerRun(100, func() {
		r.Reset(data)
		if err := p.DecodeJSON(&r); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("reading two canonical assets allocates %v times", allocs)
	}
	for _, s := range []string{"1.0000 SYS", "-4.611686018427387903 ABCDEFG"} {
		if allocs := testing.AllocsPerRun(100, func() { _, _ = ParseAsset(s) }); allocs != 0 {
			t.Fatalf("ParseAsset(%q) allocates %v times", s, allocs)
		}
	}
}

func FuzzAssetJSONInPlace(f *testing.F) {
	f.Add("1.0000 SYS", "9]", uint64(0), uint8(0))
	f.Add("1 SYS", `,"ABC"]`, uint64(0), uint8(2))
	f.Add("1 S\"YS", "", uint64(1), uint8(1))
	f.Add("4611686018427387903 Z", "12345678", uint64(1<<20), uint8(3))
	f.Fuzz(func(t *testing.T, s, tail string, esc uint64, shape uint8) {
		one := quoteAssetJSON(s, esc)
		var data []byte
		switch shape % 4 {
		case 0:
			data = append(one, tail...)
		case 1:
			data = append(append([]byte("["), one...), ","+tail...)
		case 2:
			data = append(append([]byte("["), one...), tail...)
		default:
			data = append(append([]byte(" "), one...), " "+tail...)
		}
		checkAssetJSONAsBefore(t, data)
		b := []byte(s + tail)
		got, ok := parseAssetFast(b, 0, len(s))
		if want, err := parseAssetText([]byte(s)); ok && (err != nil || want != got) {
			t.Fatalf("%q before %q: fast path %+v; general path %+v, %v", s, tail, got, want, err)
		}
		checkAssetQuoted(t, b)
		checkAssetQuoted(t, []byte(s+`"`+tail))
	})
}

// checkAssetQuoted: when parseAssetQuoted takes data, the text it read
// ends at a quote, holds nothing JSON escapes, and reads the same through
// the general path.
func checkAssetQuoted(t *testing.T, data []byte) {
	t.Helper()
	got, end, ok := parseAssetQuoted(data, 0)
	if !ok {
		return
	}
	if end >= len(data) || data[end] != '"' {
		t.Fatalf("%q: the quoted fast path ends at %d, not at a quote", data, end)
	}
	for _, c := range data[:end] {
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			t.Fatalf("%q: the quoted fast path read past a byte JSON escapes (%q)", data, c)
		}
	}
	if want, err := parseAssetText(data[:end]); err != nil || want != got {
		t.Fatalf("%q: quoted fast path %+v; general path %+v, %v", data, got, want, err)
	}
}

// Every text of up to 5 bytes (4 in -short) from those that matter to the
// fast path, alone, in place before a quote, and before digits and letters.
func TestAssetFastPathEveryShortText(t *testing.T) {
	maxLen := 5
	if testing.Short() {
		maxLen = 4
	}
	const alphabet = "019.- AZ[@+\t\x00\xff"
	var b []byte
	var walk func(depth int)
	walk = func(depth int) {
		s := string(b)
		for _, tail := range []string{"", `"`, "9999999999", "ZZZZZZZZ"} {
			data := []byte(s + tail)
			checkAssetQuoted(t, data)
			got, ok := parseAssetFast(data, 0, len(s))
			want, err := parseAssetText([]byte(s))
			if ok && (err != nil || got != want) {
				t.Fatalf("%q before %q: fast path %+v; general path %+v, %v", s, tail, got, want, err)
			}
			if err == nil && !ok && want.Symbol.Code != 0 && want.String() == s {
				t.Fatalf("%q: a canonical print left the fast path", s)
			}
			if _, _, ok := parseAssetQuoted(data, 0); !ok && err == nil && tail == `"` && want.Symbol.Code != 0 && want.String() == s {
				t.Fatalf("%q: a canonical print, quoted, left the quoted fast path", s)
			}
		}
		if depth == maxLen {
			return
		}
		for i := range len(alphabet) {
			b = append(b, alphabet[i])
			walk(depth + 1)
			b = b[:len(b)-1]
		}
	}
	walk(0)
}
