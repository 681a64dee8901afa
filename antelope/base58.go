package antelope

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Base58 with Bitcoin's alphabet, as Antelope key and signature strings use.

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

var base58Index = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(base58Alphabet); i++ {
		t[base58Alphabet[i]] = int8(i)
	}
	return t
}()

// maxBase58Input bounds the text decoded, so a hostile string cannot make
// the quadratic conversion slow. A WebAuthn signature is the longest form in
// practice and stays far below it.
const maxBase58Input = 8192

// base58Words is how many 24-bit words of input the table conversion in
// base58Encode handles: 72 bytes, a K1 or R1 signature with its checksum.
// Longer input (WebAuthn keys and signatures) takes base58EncodeLong.
const base58Words = 24

// base58Limbs is how many base-58^5 limbs hold a number of base58Words
// words: 58^(5·20) > 2^576.
const base58Limbs = 20

const base58Limb = 58 * 58 * 58 * 58 * 58 // five digits, below 2^30

// base58Powers[k] is 2^(24k) in base-58^5 limbs, least significant first:
// a number is the sum of its 24-bit words times these, so converting it
// takes multiplications and additions, where dividing the number by 58^5
// over and over took a division per limb per five digits.
var base58Powers, base58PowerLen = func() (t [base58Words][base58Limbs]uint32, n [base58Words]int) {
	p := [base58Limbs]uint64{1}
	for k := range t {
		for j := range p {
			t[k][j] = uint32(p[j])
			if p[j] != 0 {
				n[k] = j + 1
			}
		}
		var carry uint64
		for j := range p {
			v := p[j]<<24 + carry
			p[j], carry = v%base58Limb, v/base58Limb
		}
	}
	return t, n
}()

func base58Encode(b []byte, data []byte) []byte {
	zeros := 0
	for zeros < len(data) && data[zeros] == 0 {
		zeros++
	}
	rest := data[zeros:]
	if (len(rest)+2)/3 > base58Words {
		return base58EncodeLong(b, zeros, rest)
	}
	// Each product is below 2^54 and there are at most 24 of them per limb,
	// so no sum reaches 2^59.
	var acc [base58Limbs]uint64
	used := 0 // the limbs a product reached
	for k, i := 0, len(rest); i > 0; k, i = k+1, i-3 {
		w := uint64(rest[i-1])
		if i >= 3 {
			w |= uint64(rest[i-2])<<8 | uint64(rest[i-3])<<16
		} else if i == 2 {
			w |= uint64(rest[i-2]) << 8
		}
		if w == 0 {
			continue
		}
		row := base58Powers[k][:base58PowerLen[k]]
		used = max(used, len(row))
		sums := acc[:len(row)] // one bounds check, not one per limb
		for j, p := range row {
			sums[j] += w * uint64(p)
		}
	}
	// Carrying is one chain of dependent steps: only over the limbs the
	// sums reached, then while a carry is left (the number fits
	// base58Limbs limbs, see base58Limbs).
	var limbs [base58Limbs]uint32
	var carry uint64
	j := 0
	for ; j < used; j++ {
		v := acc[j] + carry
		limbs[j], carry = uint32(v%base58Limb), v/base58Limb
	}
	for ; carry > 0; j++ {
		limbs[j], carry = uint32(carry%base58Limb), carry/base58Limb
	}
	top := j
	for top > 0 && limbs[top-1] == 0 {
		top--
	}
	// The most significant limb without its leading zero digits, then five
	// digits for every other limb, written in place after the '1' of each
	// leading zero byte.
	n := 0
	if top > 0 {
		for v := limbs[top-1]; v > 0; v /= 58 {
			n++
		}
		n += 5 * (top - 1)
	}
	start := len(b)
	b = slices.Grow(b, zeros+n)[:start+zeros+n]
	out := b[start:]
	for i := range zeros {
		out[i] = '1'
	}
	out = out[zeros:]
	// Every limb but the top one is five digits: two pairs from a table
	// of 58² and the leading digit, two divisions where five took four.
	for j := 0; j < top-1; j++ {
		v := limbs[j]
		k := len(out) - 5*j
		d := out[k-5 : k]
		lo := v % (58 * 58)
		v /= 58 * 58
		mid := v % (58 * 58)
		d[0] = base58Alphabet[v/(58*58)]
		d[1], d[2] = base58Pairs[2*mid], base58Pairs[2*mid+1]
		d[3], d[4] = base58Pairs[2*lo], base58Pairs[2*lo+1]
	}
	if top > 0 {
		v := limbs[top-1]
		for k := len(out) - 5*(top-1); k > 0; k-- {
			out[k-1] = base58Alphabet[v%58]
			v /= 58
		}
	}
	return b
}

// base58Pairs holds the two digits of every n below 58² at 2n.
var base58Pairs = func() (t [2 * 58 * 58]byte) {
	for n := range 58 * 58 {
		t[2*n], t[2*n+1] = base58Alphabet[n/58], base58Alphabet[n%58]
	}
	return t
}()

// base58EncodeLong converts data of any length (after its zeros leading
// zero bytes) by repeated division.
func base58EncodeLong(b []byte, zeros int, rest []byte) []byte {
	// The number as big-endian 32-bit limbs, divided by 58^5 per pass: five
	// digits for a few 64-bit divisions per limb.
	limbs := make([]uint32, 0, (len(rest)+3)/4)
	if head := len(rest) % 4; head > 0 {
		var w uint32
		for _, c := range rest[:head] {
			w = w<<8 | uint32(c)
		}
		limbs = append(limbs, w)
		rest = rest[head:]
	}
	for ; len(rest) > 0; rest = rest[4:] {
		limbs = append(limbs, uint32(rest[0])<<24|uint32(rest[1])<<16|uint32(rest[2])<<8|uint32(rest[3]))
	}
	var digits []byte // least significant first
	for len(limbs) > 0 && limbs[0] == 0 {
		limbs = limbs[1:]
	}
	for len(limbs) > 0 {
		var rem uint64
		for i, l := range limbs {
			cur := rem<<32 | uint64(l)
			limbs[i] = uint32(cur / base58Limb)
			rem = cur % base58Limb
		}
		for len(limbs) > 0 && limbs[0] == 0 {
			limbs = limbs[1:]
		}
		for range 5 {
			digits = append(digits, byte(rem%58))
			rem /= 58
		}
	}
	for len(digits) > 0 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	for range zeros {
		b = append(b, '1')
	}
	for i := len(digits) - 1; i >= 0; i-- {
		b = append(b, base58Alphabet[digits[i]])
	}
	return b
}

// base58Decode appends the bytes that s encodes to dst. Ten digits at a
// time (58^10 < 2^59) are multiplied into 64-bit limbs: a key's 50 digits
// take five passes over at most five limbs, a quarter of the 32-bit work.
func base58Decode(dst []byte, s []byte) ([]byte, bool) {
	if len(s) > maxBase58Input {
		return nil, false
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	digits := s[zeros:]
	var limbBuf [12]uint64 // 96 bytes: keys and signatures
	limbs := limbBuf[:0]   // least significant first
	if n := len(digits)*733/8000 + 2; n > len(limbBuf) {
		limbs = make([]uint64, 0, n)
	}
	for len(digits) > 0 {
		k := len(digits) % 10
		if k == 0 {
			k = 10
		}
		var group, mul uint64 = 0, 1
		for _, c := range digits[:k] {
			v := base58Index[c]
			if v < 0 {
				return nil, false
			}
			group = group*58 + uint64(v)
			mul *= 58
		}
		digits = digits[k:]
		carry := group
		for i := range limbs {
			hi, lo := bits.Mul64(limbs[i], mul)
			var c uint64
			limbs[i], c = bits.Add64(lo, carry, 0)
			carry = hi + c
		}
		if carry > 0 {
			limbs = append(limbs, carry)
		}
	}
	for range zeros {
		dst = append(dst, 0)
	}
	started := false
	for i := len(limbs) - 1; i >= 0; i-- {
		l := limbs[i]
		if started {
			dst = binary.BigEndian.AppendUint64(dst, l)
			continue
		}
		for shift := 56; shift >= 0; shift -= 8 {
			c := byte(l >> shift)
			if c == 0 && !started {
				continue
			}
			started = true
			dst = append(dst, c)
		}
	}
	return dst, true
}
