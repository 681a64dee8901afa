package antelope

import (
	"encoding/binary"
	"math/bits"
)

// parseAssetFast reads the asset text s[start:end] when it has the form
// every chain API prints — "[-]digits[.digits] CODE", one space, no other
// white space, a code of 1–7 letters — eight bytes per step, and reports
// false for anything else (or an amount above MaxAssetAmount), which
// parseAssetText then reads or refuses with its messages. Token balances
// are the commonest value of a table page, and a digit at a time was most
// of the time a page of them took to read.
//
// The text is given inside s, the whole JSON input when read from it, so
// that eight-byte loads may run past its end (what they read there is
// discarded) without copying it: a copy costs a stalled load after it.
func parseAssetFast(s []byte, start, end int) (Asset, bool) {
	if start < 0 || end > len(s) || start >= end {
		return Asset{}, false
	}
	amount, precision, space, ok := parseAssetAmount(s, start, end)
	if !ok {
		return Asset{}, false
	}
	code, ok := symbolCodeLetters(s, space+1, end)
	if !ok {
		return Asset{}, false
	}
	return Asset{Amount: amount, Symbol: Symbol{Precision: uint8(precision), Code: code}}, true
}

// parseAssetQuoted reads, as parseAssetFast does, the asset text that
// starts at s[start] and ends at the first byte after its code, which must
// be a quote: the text of a JSON string the reader has not scanned yet.
// Every byte of such a text is a digit, '-', '.', ' ' or a capital letter,
// none of which JSON escapes, so the string is exactly that text and its
// closing quote is at end: one pass where scanning the string for its end
// and then parsing it took two.
func parseAssetQuoted(s []byte, start int) (_ Asset, end int, ok bool) {
	if start < 0 || start >= len(s) {
		return Asset{}, 0, false
	}
	amount, precision, space, ok := parseAssetAmount(s, start, len(s))
	if !ok {
		return Asset{}, 0, false
	}
	end = space + 1
	for end < len(s) && end-space <= 8 && s[end]-'A' < 26 {
		end++
	}
	if end >= len(s) || s[end] != '"' {
		return Asset{}, 0, false
	}
	code, ok := symbolCodeLetters(s, space+1, end)
	if !ok {
		return Asset{}, 0, false
	}
	return Asset{Amount: amount, Symbol: Symbol{Precision: uint8(precision), Code: code}}, end, true
}

// parseAssetAmount reads the "[-]digits[.digits]" of an asset text in
// s[start:end] and the one space after it, at offset space.
func parseAssetAmount(s []byte, start, end int) (amount int64, precision, space int, ok bool) {
	i := start
	neg := s[i] == '-'
	if neg {
		i++
	}
	intEnd, mag := digitsAt(s, i, end)
	if intEnd == i || intEnd-i > 19 {
		return 0, 0, 0, false
	}
	fracEnd := intEnd
	if intEnd < end && s[intEnd] == '.' {
		var frac uint64
		fracEnd, frac = digitsAt(s, intEnd+1, end)
		precision = fracEnd - intEnd - 1
		// 19 digits in all always fit a uint64 (10^19 < 2^64).
		if precision == 0 || precision > MaxPrecision || intEnd-i+precision > 19 {
			return 0, 0, 0, false
		}
		mag = mag*pow10u64[precision] + frac
	}
	if mag > MaxAssetAmount || fracEnd >= end || s[fracEnd] != ' ' {
		return 0, 0, 0, false
	}
	amount = int64(mag)
	if neg {
		amount = -amount
	}
	return amount, precision, fracEnd, true
}

// pow10u64[n] is 10^n, for n up to 19.
var pow10u64 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

const bytesOf1 = 0x0101010101010101 // 0x01 in every byte

// digitsAt returns the offset j of the first byte of s[i:end] that is not
// an ASCII digit, or end, and the value of the digits s[i:j] when there
// are at most 19 (more wrap around: callers refuse them by their count).
// Each eight-byte load is tested for its first non-digit and converted
// at once: a byte is a digit when its high nibble is 3 and adding 6 to it
// leaves the high nibble 3 (the +6 carries into the next byte only from a
// byte that is not a digit, so the lowest flagged byte is exact).
func digitsAt(s []byte, i, end int) (j int, v uint64) {
	for ; i+8 <= len(s) && i < end; i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		m := (w&(0xf0*bytesOf1) ^ 0x30*bytesOf1) | ((w+6*bytesOf1)&(0xf0*bytesOf1) ^ 0x30*bytesOf1)
		if end-i < 8 {
			m |= ^uint64(0) << (8 * (end - i))
		}
		if m != 0 {
			n := bits.TrailingZeros64(m) / 8
			if n > 0 {
				// Less '0' in every byte: the bytes past the digits
				// (above them in w) may borrow, but only from each other;
				// the shift drops them and puts leading zeros below.
				v = v*pow10u64[n] + eightDigits((w-0x30*bytesOf1)<<(8*(8-n)))
			}
			return i + n, v
		}
		v = v*1e8 + eightDigits(w-0x30*bytesOf1)
	}
	for ; i < end && s[i]-'0' < 10; i++ {
		v = v*10 + uint64(s[i]-'0')
	}
	return i, v
}

// eightDigits is the value of eight decimal digits, one per byte of w,
// loaded little-endian (the first digit in the lowest byte): pairs, then
// quads, then the eight, each combined by one multiplication.
func eightDigits(w uint64) uint64 {
	w = (w * (10<<8 + 1)) >> 8 & 0x00ff00ff00ff00ff
	w = (w * (100<<16 + 1)) >> 16 & 0x0000ffff0000ffff
	return (w * (10000<<32 + 1)) >> 32
}

// symbolCodeLetters is the symbol code s[i:end] when it is 1–7 letters
// A–Z, all eight bytes checked at once when s has them.
func symbolCodeLetters(s []byte, i, end int) (SymbolCode, bool) {
	n := end - i
	if n < 1 || n > 7 {
		return 0, false
	}
	var w uint64
	if i+8 <= len(s) {
		w = binary.LittleEndian.Uint64(s[i:]) & (1<<(8*n) - 1)
	} else {
		for k := n - 1; k >= 0; k-- {
			w = w<<8 | uint64(s[i+k])
		}
	}
	// Valid takes trailing zero bytes for padding; here they would be
	// text, so the last byte must be a letter too.
	return SymbolCode(w), w>>(8*(n-1)) != 0 && SymbolCode(w).Valid()
}
