package antelope

import (
	"bytes"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// Edge cases of #34's fast paths that the tests beside each one leave out:
// the in-place base58 encoder behind a prefix, every time type over its
// whole range, every byte of a symbol code, and the key parse cache against
// texts one byte or one prefix away from a cached one.

// TestBase58EncodeAppendsInPlace: base58Encode writes its digits in place
// after what b already holds, with or without spare capacity, leaves that
// untouched, and agrees with the schoolbook conversion on runs of zero and
// 0xff bytes, all-zero payloads and every length up to the long path.
func TestBase58EncodeAppendsInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(341, 342))
	for i := range 20000 {
		data := make([]byte, rng.IntN(110))
		for j := range data {
			switch rng.IntN(4) {
			case 0:
				data[j] = 0
			case 1:
				data[j] = 0xff
			default:
				data[j] = byte(rng.Uint32())
			}
		}
		if i%7 == 0 {
			clear(data)
		}
		b := make([]byte, 3, 3+rng.IntN(160)*(i%2))
		copy(b, "EOS")
		got := base58Encode(b, data)
		if want := append([]byte("EOS"), base58Schoolbook(data)...); !bytes.Equal(got, want) {
			t.Fatalf("%x after %q (cap %d): %s, want %s", data, "EOS", cap(b), got, want)
		}
	}
}

// appendTimePadded is appendTime's general layout (sign, zero-padded
// fields), the one every time printed before the fixed-layout path.
func appendTimePadded(b []byte, sec int64, ms int, withMs bool) []byte {
	days := floorDiv(sec, 86400)
	rem := sec - days*86400
	y, m, d := civilFromDays(days)
	if y < 0 {
		b = append(b, '-')
		y = -y
	}
	b = appendPadded(b, y, 4)
	for _, f := range []struct {
		sep byte
		v   int64
	}{{'-', int64(m)}, {'-', int64(d)}, {'T', rem / 3600}, {':', rem / 60 % 60}, {':', rem % 60}} {
		b = append(b, f.sep)
		b = appendPadded(b, f.v, 2)
	}
	if withMs {
		b = append(b, '.')
		b = appendPadded(b, int64(ms), 3)
	}
	return b
}

// TestTimeTextEveryTypeAndRange: time_point over all of int64 (its extremes,
// the 1969/1970 boundary, years 0 and 9999/10000), time_point_sec over all
// of uint32 and block_timestamp_type over all of its slots print as the
// general layout does.
func TestTimeTextEveryTypeAndRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(343, 344))
	year0 := int64(-62167219200) * 1e6 // 0000-01-01T00:00:00 in µs
	year10000 := int64(253402300800) * 1e6
	points := []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 808, math.MinInt64 + 809, math.MaxInt64,
		0, -1, 1, -999, -1000, -1001, 999, 1000, year0, year0 - 1, year0 + 1, year10000, year10000 - 1, year10000 + 1}
	for range 100000 {
		switch rng.IntN(3) {
		case 0:
			points = append(points, int64(rng.Uint64()))
		case 1:
			points = append(points, int64(rng.Uint64())>>rng.IntN(64))
		default:
			points = append(points, year0-1e12+rng.Int64N(year10000-year0+2e12))
		}
	}
	for _, tp := range points {
		ms := floorDiv(tp, 1000)
		if ms < math.MinInt64/1000 {
			ms = math.MinInt64 / 1000
		}
		sec := floorDiv(ms, 1000)
		if got, want := TimePoint(tp).String(), string(appendTimePadded(nil, sec, int(ms-sec*1000), true)); got != want {
			t.Fatalf("time_point %d: %q, want %q", tp, got, want)
		}
		u := uint32(tp)
		if got, want := TimePointSec(u).String(), string(appendTimePadded(nil, int64(u), 0, false)); got != want {
			t.Fatalf("time_point_sec %d: %q, want %q", u, got, want)
		}
		bms := int64(u)*500 + blockTimestampEpochMs
		if got, want := BlockTimestamp(u).String(), string(appendTimePadded(nil, bms/1000, int(bms%1000), true)); got != want {
			t.Fatalf("block_timestamp_type %d: %q, want %q", u, got, want)
		}
	}
}

// TestSymbolCodeValidEveryByte: every byte value at every position of codes
// of every length (so bytes after a zero byte, lowercase, digits, ≥ 0x80 and
// an eighth byte), and every 16-bit pattern at every shift, against
// nodeos's rule as a loop; a valid code prints its letters.
func TestSymbolCodeValidEveryByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(345, 346))
	valid := func(v uint64) bool {
		n := 0
		for ; v != 0; v >>= 8 {
			if ch := byte(v); ch < 'A' || ch > 'Z' {
				return false
			}
			n++
		}
		return n <= 7
	}
	check := func(v uint64) {
		want := valid(v)
		if got := SymbolCode(v).Valid(); got != want {
			t.Fatalf("%#x: Valid %v, want %v", v, got, want)
		}
		if want {
			var text []byte
			for x := v; x != 0; x >>= 8 {
				text = append(text, byte(x))
			}
			if got := SymbolCode(v).String(); got != string(text) {
				t.Fatalf("%#x prints %q, want %q", v, got, text)
			}
		}
	}
	for n := range 9 {
		for pos := range max(n, 1) {
			for c := range 256 {
				var v uint64
				for i := range n {
					v |= uint64('A'+rng.IntN(26)) << (8 * i)
				}
				v = v&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
				check(v)
			}
		}
	}
	for shift := 0; shift <= 48; shift += 8 {
		for x := range 1 << 16 {
			check(uint64(x) << shift)
			check(uint64(x)<<shift | 'A')
		}
	}
}

// TestKeyParseCacheNeverConfuses: with a key's three texts cached, the same
// base58 behind another prefix (EOS…, PUB_K1_, PUB_R1_, PUB_WA_), any one
// byte changed, the text cut short or lengthened, and the caller's input
// buffer changed after a parse all parse as without the cache; keys whose
// bytes repeat (leading zero bytes, so leading '1's) parse and print the
// uncached text from several goroutines at once.
func TestKeyParseCacheNeverConfuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(347, 348))
	same := func(s []byte) {
		t.Helper()
		got, err := parsePublicKey(s)
		want, wantErr := parsePublicKeyText(s)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() ||
			got.Type != want.Type || !bytes.Equal(got.Data, want.Data) {
			t.Fatalf("%q: %v, %v; uncached %v, %v", s, got, err, want, wantErr)
		}
	}
	data := make([]byte, 33)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	texts := [][]byte{
		appendKeyString(nil, "EOS", data, ""),
		appendKeyString(nil, "PUB_K1_", data, "K1"),
		appendKeyString(nil, "PUB_R1_", data, "R1"),
	}
	for _, s := range texts {
		if _, err := parsePublicKey(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range texts {
		b58 := s[bytes.LastIndexByte(s, '_')+1:]
		if s[0] == 'E' {
			b58 = s[3:]
		}
		for _, prefix := range []string{"EOS", "PUB_K1_", "PUB_R1_", "PUB_WA_"} {
			same(append([]byte(prefix), b58...))
		}
		for i := range s {
			for _, c := range []byte{s[i] ^ 1, s[i] ^ 0x20, '1', 'z', '0', 0, 0x80} {
				m := bytes.Clone(s)
				m[i] = c
				same(m)
			}
			same(s[:i])
			same(append(bytes.Clone(s), s[i]))
		}
		buf := bytes.Clone(s)
		same(buf)
		buf[len(buf)-5] ^= 1
		same(buf)
		same(s)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(349, uint64(g)))
			for range 2000 {
				d := make([]byte, 33)
				for i := range d {
					d[i] = byte(r.IntN(3)) // few distinct keys: hits in both caches
				}
				want := appendKeyString(nil, "EOS", d, "")
				var s []byte
				switch r.IntN(3) {
				case 0:
					s = want
				case 1:
					s = appendKeyString(nil, "PUB_K1_", d, "K1")
				default:
					want = appendKeyString(nil, "PUB_R1_", d, "R1")
					s = want
				}
				k, err := parsePublicKey(s)
				if err != nil || !bytes.Equal(k.Data, d) {
					t.Errorf("%s: %v, %v", s, k, err)
					return
				}
				k.Data[0] ^= 0xff // the caller's copy: no other parse sees it
				k.Data[0] ^= 0xff
				if got := k.String(); got != string(want) {
					t.Errorf("%s prints %s, want %s", s, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
