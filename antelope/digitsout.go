package antelope

import (
	"encoding/binary"
	"strconv"
)

// Writing decimal digits eight at a time: the value split into two
// four-digit halves, each half into two-digit pairs, each pair into its
// digits, all in the lanes of one 64-bit word (SWAR), where a loop of
// divisions by 100 and table lookups took four dependent steps.

// putEightDigits writes v, below 10^8, as exactly eight digits, zero
// padded, to t[:8].
func putEightDigits(t []byte, v uint32) {
	x := uint64(v/10000) | uint64(v%10000)<<32 // lanes: the high four digits first in memory
	// Each 32-bit lane is below 10^4: x/100 per lane by a multiplication
	// (10486/2^20 rounds up close enough below 10^4: exact there).
	hundreds := (x * 10486 >> 20) & 0x0000007f_0000007f
	x = hundreds | (x-100*hundreds)<<16 // 16-bit lanes, each below 100
	// Each 16-bit lane below 100: /10 as ·103/2^10 (exact there).
	tens := (x * 103 >> 10) & 0x000f000f_000f000f
	x = tens | (x-10*tens)<<8
	binary.LittleEndian.PutUint64(t[:8], x|0x30303030_30303030)
}

// appendUint appends u in decimal, as strconv.AppendUint(b, u, 10).
func appendUint(b []byte, u uint64) []byte {
	if u < 1e8 {
		return strconv.AppendUint(b, u, 10)
	}
	var buf [24]byte
	i := len(buf)
	for u >= 1e8 {
		q := u / 1e8
		i -= 8
		putEightDigits(buf[i:], uint32(u-q*1e8))
		u = q
	}
	b = strconv.AppendUint(b, u, 10)
	return append(b, buf[i:]...)
}
