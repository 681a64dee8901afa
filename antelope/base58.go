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
	// Each byte adds at most log(256)/log(58) ≈ 1.37 digits.
	digits := make([]byte, 0, len(data)*138/100+1)
	for _, c := range data[zeros:] {
		carry := int(c)
		for i := range digits {
			carry += int(digits[i]) << 8
			digits[i] = byte(carry % 58)
			carry /= 58
		}
		for carry > 0 {
			digits = append(digits, byte(carry%58))
			carry /= 58
		}
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
