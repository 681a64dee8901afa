package antelope

import "strconv"

// Bitset is a sequence of bits (ABI 1.3). Binary: varuint32 bit count, then
// ceil(n/8) bytes, bit i in byte i/8 under mask 1<<(i%8), unused high bits 0.
// JSON: a string of '0' and '1', highest index first ("110001011"), whose
// length is the bit count.
type Bitset struct {
	n    int
	bits []byte
}

// NewBitset returns n zero bits.
func NewBitset(n int) Bitset { return Bitset{n: n, bits: make([]byte, (n+7)/8)} }

// Len is the number of bits.
func (s Bitset) Len() int { return s.n }

// Bit reports bit i; out-of-range bits are false.
func (s Bitset) Bit(i int) bool {
	return i >= 0 && i < s.n && s.bits[i/8]&(1<<(i%8)) != 0
}

// Set sets bit i, which must be below Len; it reports whether it was.
func (s Bitset) Set(i int, v bool) bool {
	if i < 0 || i >= s.n {
		return false
	}
	if v {
		s.bits[i/8] |= 1 << (i % 8)
	} else {
		s.bits[i/8] &^= 1 << (i % 8)
	}
	return true
}

// ParseBitset parses a string of '0' and '1', highest bit first.
func ParseBitset(s string) (Bitset, error) { return parseBitset([]byte(s)) }

func parseBitset(t []byte) (Bitset, error) {
	if len(t) > MaxBytesLength {
		return Bitset{}, valueErr("bitset", "", "more than "+strconv.Itoa(MaxBytesLength)+" bits")
	}
	b := NewBitset(len(t))
	for i, c := range t {
		bit := len(t) - 1 - i
		switch c {
		case '1':
			b.bits[bit/8] |= 1 << (bit % 8)
		case '0':
		default:
			return Bitset{}, valueErr("bitset", string(t), "only '0' and '1' are allowed")
		}
	}
	return b, nil
}

func (s Bitset) appendText(b []byte) []byte {
	for i := s.n - 1; i >= 0; i-- {
		if s.Bit(i) {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	return b
}

// String returns the '0'/'1' form, highest bit first.
func (s Bitset) String() string { return string(s.appendText(nil)) }

func (s Bitset) check() error {
	if s.n < 0 || len(s.bits) != (s.n+7)/8 {
		return valueErr("bitset", "", "malformed bitset")
	}
	return nil
}

// AppendBinary appends the bit count and the bytes.
func (s Bitset) AppendBinary(b []byte) ([]byte, error) {
	if err := s.check(); err != nil {
		return b, err
	}
	b, err := AppendLength(b, s.n)
	if err != nil {
		return b, err
	}
	b = append(b, s.bits...)
	if s.n%8 != 0 { // keep unused high bits zero whatever the caller did
		b[len(b)-1] &= byte(1)<<(s.n%8) - 1
	}
	return b, nil
}

// MarshalBinary returns the binary form.
func (s Bitset) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// DecodeBinary reads the bit count and the bytes; set unused bits are an
// error, as they would not re-encode.
func (s *Bitset) DecodeBinary(d *Decoder) error {
	off := d.Offset()
	n, err := d.varuint32("bitset", true)
	if err != nil {
		return err
	}
	nbytes := (uint64(n) + 7) / 8
	if nbytes > uint64(d.Remaining()) {
		return d.errAt(off, "bitset", strconv.FormatUint(uint64(n), 10)+" bits cannot fit in the "+strconv.Itoa(d.Remaining())+" bytes left")
	}
	if nbytes > MaxBytesLength {
		return d.errAt(off, "bitset", "more than "+strconv.Itoa(MaxBytesLength)+" bytes")
	}
	raw, _ := d.Raw("bitset", int(nbytes))
	if n%8 != 0 && raw[len(raw)-1]>>(n%8) != 0 {
		return d.errAt(off, "bitset", "unused high bits are set")
	}
	s.n, s.bits = int(n), append([]byte(nil), raw...)
	return nil
}

// UnmarshalBinary decodes exactly one bitset.
func (s *Bitset) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, s) }

// AppendJSON appends the quoted '0'/'1' form.
func (s Bitset) AppendJSON(b []byte) ([]byte, error) {
	if err := s.check(); err != nil {
		return b, err
	}
	b = append(b, '"')
	b = s.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted '0'/'1' form.
func (s Bitset) MarshalJSON() ([]byte, error) { return s.AppendJSON(nil) }

// DecodeJSON reads a string of '0' and '1'.
func (s *Bitset) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseBitset(t)
	if err == nil {
		*s = v
	}
	return err
}

// UnmarshalJSON reads a string of '0' and '1'.
func (s *Bitset) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, s) }
