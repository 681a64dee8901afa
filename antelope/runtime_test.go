package antelope

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func TestInt64JSONBoundaries(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "0"}, {-1, "-1"}, {math.MaxUint32, "4294967295"}, {math.MaxUint32 + 1, `"4294967296"`},
		{-math.MaxUint32, "-4294967295"}, {-math.MaxUint32 - 1, `"-4294967296"`},
		{math.MinInt64, `"-9223372036854775808"`},
	} {
		if got := string(AppendInt64JSON(nil, c.v)); got != c.want {
			t.Errorf("AppendInt64JSON(%d) = %s, want %s", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    uint64
		want string
	}{{math.MaxUint32, "4294967295"}, {math.MaxUint32 + 1, `"4294967296"`}, {math.MaxUint64, `"18446744073709551615"`}} {
		if got := string(AppendUint64JSON(nil, c.v)); got != c.want {
			t.Errorf("AppendUint64JSON(%d) = %s, want %s", c.v, got, c.want)
		}
	}
}

func TestFloatJSON(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.125, `"0.12500000000000000"`}, {float64(float32(0.1)), `"0.10000000149011612"`},
		{math.Inf(1), `"inf"`}, {math.Inf(-1), `"-inf"`}, {math.NaN(), `"nan"`},
		{-2.5, `"-2.50000000000000000"`},
	} {
		if got := string(AppendFloat64JSON(nil, c.v)); got != c.want {
			t.Errorf("AppendFloat64JSON(%v) = %s, want %s", c.v, got, c.want)
		}
	}
	for in, want := range map[string]float64{`"0.12500000000000000"`: 0.125, `0.125`: 0.125, `"Infinity"`: math.Inf(1),
		`"-inf"`: math.Inf(-1), `1e2`: 100, `"1e-400"`: 0, `-0.0`: math.Copysign(0, -1)} {
		got, err := NewJSONReader([]byte(in)).Float64()
		if err != nil || got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("Float64(%s) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{`"0x1p3"`, `"1_0"`, `"infinit"`, `"nan1"`, `1e400`, `"1e400"`, `true`, `""`, `"1.5 "`} {
		if _, err := NewJSONReader([]byte(in)).Float64(); err == nil {
			t.Errorf("Float64(%s) accepted", in)
		}
	}
	if _, err := NewJSONReader([]byte(`3.5e38`)).Float32(); err == nil {
		t.Errorf("Float32(3.5e38) accepted; it overflows binary32")
	}
}

func TestIntegerJSONInput(t *testing.T) {
	ok := map[string]int64{`1`: 1, `"1"`: 1, `"-128"`: -128, `127`: 127, `"007"`: 7}
	for in, want := range ok {
		if got, err := NewJSONReader([]byte(in)).Int8(); err != nil || int64(got) != want {
			t.Errorf("Int8(%s) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{`128`, `1.0`, `1e0`, `"1 "`, `"+1"`, `true`, `null`, `""`, `01`} {
		if _, err := NewJSONReader([]byte(in)).Int8(); err == nil {
			t.Errorf("Int8(%s) accepted", in)
		}
	}
	if _, err := NewJSONReader([]byte(`"-1"`)).Uint64(); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Uint64(-1) error = %v", err)
	}
	for in, want := range map[string]bool{`true`: true, `false`: false, `1`: true, `0`: false, `"1"`: true, `"false"`: false} {
		if got, err := NewJSONReader([]byte(in)).Bool(); err != nil || got != want {
			t.Errorf("Bool(%s) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{`2`, `"yes"`, `null`, `truex`} {
		if _, err := UnmarshalJSONBool(in); err == nil {
			t.Errorf("Bool(%s) accepted", in)
		}
	}
}

func UnmarshalJSONBool(in string) (bool, error) {
	r := NewJSONReader([]byte(in))
	v, err := r.Bool()
	if err == nil {
		err = r.Finish()
	}
	return v, err
}

func TestDecoderRejectsNonCanonicalAndShortInput(t *testing.T) {
	for _, c := range []struct {
		name, hex string
		read      func(*Decoder) error
		wantMsg   string
	}{
		{"varuint redundant zero", "8000", func(d *Decoder) error { _, err := d.VarUint32(); return err }, "redundant"},
		{"varuint 6 bytes", "808080808001", func(d *Decoder) error { _, err := d.VarUint32(); return err }, "longer than 5"},
		{"varuint above 2^32", "FFFFFFFF1F", func(d *Decoder) error { _, err := d.VarUint32(); return err }, "exceeds"},
		{"varuint truncated", "80", func(d *Decoder) error { _, err := d.VarUint32(); return err }, "ends inside"},
		{"bool 2", "02", func(d *Decoder) error { _, err := d.Bool(); return err }, "neither 0 nor 1"},
		{"optional flag 2", "02", func(d *Decoder) error { _, err := d.OptionalFlag(); return err }, "neither 0 nor 1"},
		{"uint64 short", "0102", func(d *Decoder) error { _, err := d.Uint64(); return err }, "need 8 bytes, have 2"},
		{"bytes longer than input", "0501", func(d *Decoder) error { _, err := d.Bytes(); return err }, "exceeds the 1 bytes left"},
		{"array count beyond input", "FFFFFFFF0F", func(d *Decoder) error { _, err := d.Length("x", 1); return err }, "exceed the limit"},
		{"array count beyond input 2", "0A00", func(d *Decoder) error { _, err := d.Length("x", 8); return err }, "cannot fit"},
		{"symbol lower case", "04535953730000000000", func(d *Decoder) error { var s Symbol; return s.DecodeBinary(d) }, "not at most 7 letters"},
		{"symbol precision 19", "1353595300000000", func(d *Decoder) error { var s Symbol; return s.DecodeBinary(d) }, "above 18"},
		{"asset amount 2^62", "00000000000000400453595300000000", func(d *Decoder) error { var a Asset; return a.DecodeBinary(d) }, "2^62-1"},
		{"bitset unused bit", "0104", func(d *Decoder) error { var b Bitset; return b.DecodeBinary(d) }, "unused high bits"},
		{"bitset longer than input", "FFFFFFFF0F00", func(d *Decoder) error { var b Bitset; return b.DecodeBinary(d) }, "cannot fit"},
		{"public key type 3", "03" + strings.Repeat("00", 33), func(d *Decoder) error { var k PublicKey; return k.DecodeBinary(d) }, "unknown key type"},
	} {
		d := NewDecoder(mustHex(c.hex))
		err := c.read(d)
		var de *DecodeError
		if err == nil || !errors.As(err, &de) || !strings.Contains(err.Error(), c.wantMsg) {
			t.Errorf("%s: error = %v, want a DecodeError containing %q", c.name, err, c.wantMsg)
		}
	}
	var n Name
	if err := n.UnmarshalBinary(mustHex("000000000000000000")); err == nil || !strings.Contains(err.Error(), "trailing") {
		t.Errorf("trailing byte: %v", err)
	}
}

// A length prefix that claims far more than the input holds must fail
// before the decoder allocates for it.
func TestHugeLengthAllocatesNothing(t *testing.T) {
	input := mustHex("FFFFFFFF0F") // 4 GiB claimed in 5 bytes
	allocs := testing.AllocsPerRun(100, func() {
		d := Decoder{data: input}
		if _, err := d.ByteSlice("bytes"); err == nil {
			t.Fatal("accepted")
		}
		d = Decoder{data: input}
		var b Bitset
		if err := b.DecodeBinary(&d); err == nil {
			t.Fatal("accepted")
		}
	})
	// The only allocations allowed are the two error values and their text.
	if allocs > 8 {
		t.Errorf("%v allocations for a rejected 4 GiB length", allocs)
	}
}

func TestDepthLimit(t *testing.T) {
	d := NewDecoder(nil)
	for i := 0; i < MaxDepth; i++ {
		if err := d.Enter("s"); err != nil {
			t.Fatalf("Enter %d: %v", i, err)
		}
	}
	if err := d.Enter("s"); err == nil {
		t.Fatal("Enter beyond MaxDepth succeeded")
	}
	r := NewJSONReader(nil)
	for i := 0; i < MaxDepth; i++ {
		_ = r.Enter()
	}
	if err := r.Enter(); err == nil {
		t.Fatal("JSON Enter beyond MaxDepth succeeded")
	}
}

func TestNames(t *testing.T) {
	for _, s := range []string{"", "a", "eosio", "eosio.token", "orng.wax", "zzzzzzzzzzzzj", "1", ".a", "a.b", "111111111111j"} {
		n, err := ParseName(s)
		if err != nil || n.String() != s {
			t.Errorf("ParseName(%q) = %v (%q), %v", s, uint64(n), n.String(), err)
		}
	}
	for _, s := range []string{"A", "a.", "zzzzzzzzzzzzk", "aaaaaaaaaaaaaa", "a b", "é", "6"} {
		if _, err := ParseName(s); err == nil {
			t.Errorf("ParseName(%q) accepted", s)
		}
	}
	// Every uint64 is a name whose text parses back to it.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		n := Name(rng.Uint64())
		back, err := ParseName(n.String())
		if err != nil || back != n {
			t.Fatalf("name %#x → %q → %#x, %v", uint64(n), n.String(), uint64(back), err)
		}
	}
	err := (*Name)(new(Name)).UnmarshalJSON([]byte(`"ABC"`))
	if err == nil || err.Error() != `invalid name "ABC": character 'A' is not in .12345abcdefghijklmnopqrstuvwxyz` {
		t.Errorf("error = %v", err)
	}
}

func TestAssets(t *testing.T) {
	for in, want := range map[string]string{
		"1.0000 WAX": "1.0000 WAX", " 1.0000  WAX ": "1.0000 WAX", "1.0SYS": "1.0 SYS", "-0.5 SYS": "-0.5 SYS",
		"0 FOO": "0 FOO", "4611686018427387903 MAX": "4611686018427387903 MAX",
		"-4.611686018427387903 MAX": "-4.611686018427387903 MAX", "0.000000000000000001 A": "0.000000000000000001 A",
		"+1 A": "1 A", "\t1.5 \tA\n": "1.5 A", // nodeos: a '+', any white space around (not within) the amount
	} {
		a, err := ParseAsset(in)
		if err != nil || a.String() != want {
			t.Errorf("ParseAsset(%q) = %q, %v; want %q", in, a.String(), err, want)
		}
	}
	for _, in := range []string{"1. SYS", ".5 SYS", "1.0", "1 sys", "1 ABCDEFGH", "4611686018427387904 MAX",
		"1.0000000000000000000 A", "--1 A", "+-1 A", "1.5\tA", "1.0.0 A", "", "1 A B"} {
		if _, err := ParseAsset(in); err == nil {
			t.Errorf("ParseAsset(%q) accepted", in)
		}
	}
	if _, err := (Asset{Amount: MaxAssetAmount + 1, Symbol: Symbol{4, SymbolCode(0x535953)}}).MarshalBinary(); err == nil {
		t.Error("encoding an out-of-range asset succeeded")
	}
	if _, err := (Asset{Amount: 1, Symbol: Symbol{Code: SymbolCode(0x61)}}).MarshalJSON(); err == nil {
		t.Error("JSON of an asset with a lower-case symbol succeeded")
	}
}

func TestExtendedAssetJSON(t *testing.T) {
	var e ExtendedAsset
	for _, in := range []string{`{"quantity":"1.0000 SYS","contract":"eosio.token"}`,
		`{"contract":"eosio.token","extra":[1,{"a":null}],"quantity":"1.0000 SYS"}`,
		`["1.0000 SYS","eosio.token"]`} {
		if err := e.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
		out, _ := e.MarshalJSON()
		if string(out) != `{"quantity":"1.0000 SYS","contract":"eosio.token"}` {
			t.Errorf("%s → %s", in, out)
		}
	}
	for in, msg := range map[string]string{
		`{"quantity":"1.0000 SYS"}`:                                        `missing field "contract"`,
		`{"quantity":"1.0000 SYS","quantity":"1.0000 SYS","contract":"a"}`: `duplicate key "quantity"`,
		`{"quantity":"1.0000 SYS","contract":"A"}`:                         `contract: invalid name "A"`,
		`["1.0000 SYS"]`:         `needs 2 elements`,
		`["1.0000 SYS","a","b"]`: `exactly 2`,
	} {
		if err := e.UnmarshalJSON([]byte(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", in, err, msg)
		}
	}
}

func TestTimes(t *testing.T) {
	for in, want := range map[string]string{
		"2018-06-15T19:17:47.999": "2018-06-15T19:17:47.999", "2018-06-15T19:17:47.999999Z": "2018-06-15T19:17:47.999",
		"2021-12-20T15:30": "2021-12-20T15:30:00.000", "2021-12-20T15": "2021-12-20T15:00:00.000",
		"2021-12-20": "2021-12-20T00:00:00.000", "2024-02-29T00:00:00.5": "2024-02-29T00:00:00.500",
		"1969-12-31T23:59:59.999": "1969-12-31T23:59:59.999", "-0001-01-01T00:00:00": "-0001-01-01T00:00:00.000",
	} {
		tp, err := ParseTimePoint(in)
		if err != nil || tp.String() != want {
			t.Errorf("ParseTimePoint(%q) = %q, %v; want %q", in, tp.String(), err, want)
		}
	}
	for _, in := range []string{"2018-06-15T19:17:47.9999999", "2023-02-29", "2018-06-15 19:17:47", "2018-06-15T24:00:00",
		"2018-06-15T19:17:47+01:00", "18-06-15", "2018-6-15", ""} {
		if _, err := ParseTimePoint(in); err == nil {
			t.Errorf("ParseTimePoint(%q) accepted", in)
		}
	}
	// Every int64 formats to text that parses back to the value, to the ms.
	rng := rand.New(rand.NewPCG(3, 4))
	for _, v := range append([]int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1000, -1, 0, 1}, rng.Int64(), -rng.Int64()) {
		tp := TimePoint(v)
		back, err := ParseTimePoint(tp.String())
		want := TimePoint(max(floorDiv(v, 1000), math.MinInt64/1000) * 1000)
		if err != nil || back != want {
			t.Errorf("time_point %d → %q → %d, %v; want %d", v, tp.String(), back, err, want)
		}
	}
	if _, err := ParseTimePointSec("2106-02-07T06:28:16"); err == nil {
		t.Error("time_point_sec beyond 2^32-1 accepted")
	}
	if s, _ := ParseTimePointSec("2106-02-07T06:28:15.999"); s != math.MaxUint32 {
		t.Errorf("time_point_sec max = %d", s)
	}
	if _, err := ParseBlockTimestamp("1999-12-31T23:59:59.500"); err == nil {
		t.Error("block timestamp before 2000 accepted")
	}
	if b, _ := ParseBlockTimestamp("2000-01-01T00:00:00.999"); b != 1 {
		t.Errorf("block timestamp rounding: %d, want slot 1", b)
	}
}

func TestKeys(t *testing.T) {
	const legacy = "EOS6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5GDW5CV"
	const k1 = "PUB_K1_6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5BoDq63"
	for _, in := range []string{legacy, k1} {
		k, err := ParsePublicKey(in)
		if err != nil || k.String() != legacy {
			t.Errorf("ParsePublicKey(%s) = %s, %v", in, k.String(), err)
		}
		bin, _ := k.MarshalBinary()
		if hex.EncodeToString(bin) != "0002c0ded2bc1f1305fb0faac5e6c03ee3a1924234985427b6167ca569d13df435cf" {
			t.Errorf("binary %x", bin)
		}
	}
	// A one-character change must fail the checksum, in every form.
	for _, in := range []string{legacy, k1, "SIG_K1_Kg2UKjXTX48gw2wWH4zmsZmWu3yarcfC21Bd9JPj7QoDURqiAacCHmtExPk3syPb2tFLsp1R4ttXLXgr7FYgDvKPC5RCkx",
		"PVT_R1_PtoxLPzJZURZmPS4e26pjBiAn41mkkLPrET5qHnwDvbvqFEL6", "5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3"} {
		bad := in[:len(in)-3] + string(rune(in[len(in)-3]^1)) + in[len(in)-2:]
		var err1, err2 error
		switch {
		case strings.HasPrefix(in, "SIG_"):
			_, err1 = ParseSignature(in)
			_, err2 = ParseSignature(bad)
		case strings.HasPrefix(in, "PVT_"), strings.HasPrefix(in, "5"):
			_, err1 = ParsePrivateKey(in)
			_, err2 = ParsePrivateKey(bad)
		default:
			_, err1 = ParsePublicKey(in)
			_, err2 = ParsePublicKey(bad)
		}
		if err1 != nil || err2 == nil {
			t.Errorf("%s: good → %v, corrupted %s → %v", in, err1, bad, err2)
		}
	}
	if _, err := ParsePublicKey("PUB_K1_11111111111111111111111111111111149Mr2Rx"); err == nil {
		t.Error("key with extra data accepted")
	}
	if _, err := (PublicKey{Type: KeyK1, Data: make([]byte, 32)}).MarshalBinary(); err == nil {
		t.Error("32-byte K1 key encoded")
	}
}

func TestJSONReaderSyntax(t *testing.T) {
	for _, in := range []string{`[1,{"a":[true,false,null,"x\"y"],"b":{}},-0.5e+3,[]]`, `{}`, `"\ud83d\udc4d"`, ` 7 `} {
		r := NewJSONReader([]byte(in))
		if err := r.Skip(); err != nil || r.Finish() != nil {
			t.Errorf("Skip(%s): %v", in, err)
		}
	}
	for _, in := range []string{`[1}`, `{"a"}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{1:2}`, `"abc`, "\"a\x01\"", `01`, `1.`, `-`, `nul`, `[`, `{"a":1`, `"\x"`, `"\u12"`, `tru`} {
		r := NewJSONReader([]byte(in))
		if err := r.Skip(); err == nil && r.Finish() == nil {
			t.Errorf("Skip(%s) accepted invalid JSON", in)
		}
	}
	s, err := NewJSONReader([]byte(`"a\u00e9\ud83d\udc4d\n\/"`)).String()
	if err != nil || s != "aé👍\n/" {
		t.Errorf("String = %q, %v", s, err)
	}
}

func TestStringJSONEscaping(t *testing.T) {
	in := "a\"\\\t\n\r\x01\x7f\u0085é\xff👍"
	want := `"a\"\\\t\n\r\u0001\u007f\u0085é👍"`
	if got := string(AppendStringJSON(nil, in)); got != want {
		t.Errorf("AppendStringJSON = %s, want %s", got, want)
	}
}

func TestPathErrors(t *testing.T) {
	err := AtField(AtIndex(AtField(valueErr("name", "ABC", "bad"), "caller"), 3), "jobs")
	if got := err.Error(); got != `jobs[3].caller: invalid name "ABC": bad` {
		t.Errorf("path error = %s", got)
	}
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Input != "ABC" {
		t.Errorf("ValueError not reachable through PathError")
	}
}

func TestActionJSONAndBinary(t *testing.T) {
	// eosio.token transfer useraaaaaaaa → useraaaaaaab 0.0001 SYS (abi-spec §5).
	data := mustHex("608C31C6187315D6708C31C6187315D60100000000000000045359530000000000")
	a := Action{Account: MustName("eosio.token"), Name: MustName("transfer"),
		Authorization: []PermissionLevel{{MustName("useraaaaaaaa"), MustName("active")}}, Data: data}
	js, err := a.MarshalJSON()
	want := `{"account":"eosio.token","name":"transfer","authorization":[{"actor":"useraaaaaaaa","permission":"active"}],"data":"608c31c6187315d6708c31c6187315d60100000000000000045359530000000000"}`
	if err != nil || string(js) != want {
		t.Fatalf("JSON = %s, %v", js, err)
	}
	var back Action
	if err := back.UnmarshalJSON(js); err != nil {
		t.Fatal(err)
	}
	bin1, _ := a.MarshalBinary()
	bin2, _ := back.MarshalBinary()
	if !bytes.Equal(bin1, bin2) {
		t.Fatal("JSON round trip changed the action")
	}
	// account, name, 1 authorization, 33-byte data.
	if hex.EncodeToString(bin1[:17]) != "00a6823403ea3055000000572d3ccdcd01" || len(bin1) != 8+8+1+16+1+33 {
		t.Errorf("binary = %x", bin1)
	}
	var dec Action
	if err := dec.UnmarshalBinary(bin1); err != nil || !bytes.Equal(dec.Data, data) {
		t.Errorf("UnmarshalBinary: %v", err)
	}
	if err := dec.UnmarshalJSON([]byte(`{"account":"a","name":"b","authorization":[],"data":{"from":"x"}}`)); err == nil ||
		!strings.Contains(err.Error(), "hex string") {
		t.Errorf("object data: %v", err)
	}
}

// TestFloatJSONRoundTrip: floats print nodeos's 17 fixed decimals where
// they read back exactly, and the shortest exact decimal where they would
// not (the voters table's vote weights lost bits before).
func TestFloatJSONRoundTrip(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.125, `"0.12500000000000000"`},
		{1, `"1.00000000000000000"`},
		{-2.5, `"-2.50000000000000000"`},
		{0.0075001068036015806, `"0.0075001068036015806"`},
		{1e-300, `"1e-300"`},
		{5e-324, `"5e-324"`},
		{math.Copysign(0, -1), `"-0.00000000000000000"`},
		{1.7976931348623157e308, `"` + strconv.FormatFloat(1.7976931348623157e308, 'f', 17, 64) + `"`},
		{math.Inf(1), `"inf"`},
	} {
		got := string(AppendFloat64JSON(nil, c.v))
		if got != c.want {
			t.Errorf("%v: %s, want %s", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    float32
		want string
	}{
		{0.5, `"0.50000000000000000"`},
		{1e-10, `"0.00000000010000000"`}, // 8 significant digits are enough for float32
		{1e-30, `"1e-30"`},
		{3.4028235e38, `"` + strconv.FormatFloat(float64(float32(3.4028235e38)), 'f', 17, 64) + `"`},
	} {
		if got := string(AppendFloat32JSON(nil, c.v)); got != c.want {
			t.Errorf("float32 %v: %s, want %s", c.v, got, c.want)
		}
	}
	// Random bit patterns, every exponent: value → JSON → value, bit for bit.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) {
			continue
		}
		js := AppendFloat64JSON(nil, f)
		rd := JSONReader{data: js}
		back, err := rd.Float64()
		if err != nil || math.Float64bits(back) != math.Float64bits(f) {
			t.Fatalf("float64 %b: %s reads back as %b, %v", math.Float64bits(f), js, math.Float64bits(back), err)
		}
		f32 := math.Float32frombits(r.Uint32())
		if f32 != f32 {
			continue
		}
		js = AppendFloat32JSON(nil, f32)
		rd = JSONReader{data: js}
		back32, err := rd.Float32()
		if err != nil || math.Float32bits(back32) != math.Float32bits(f32) {
			t.Fatalf("float32 %b: %s reads back as %b, %v", math.Float32bits(f32), js, math.Float32bits(back32), err)
		}
	}
}
