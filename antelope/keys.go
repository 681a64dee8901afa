package antelope

import (
	"bytes"
	"encoding/binary"
	"strconv"
)

// KeyType is the curve or scheme of a key or signature, the varuint32 that
// starts its binary form.
type KeyType uint8

// The key types Antelope defines.
const (
	KeyK1 KeyType = 0 // secp256k1
	KeyR1 KeyType = 1 // secp256r1 (P-256)
	KeyWA KeyType = 2 // WebAuthn (P-256 with authenticator data)
)

func (t KeyType) suffix() string { return [...]string{"K1", "R1", "WA"}[t] }

// PublicKey is a public key. Binary: varuint32 type, then for K1 and R1 the
// 33-byte compressed point, for WA the point, a uint8 user-presence flag and a
// string rpid. JSON: K1 in the legacy "EOS…" form nodeos prints, R1 and WA as
// "PUB_R1_…"/"PUB_WA_…"; input takes "EOS…" and every "PUB_XX_…" form. The
// checksum of the text form is always verified.
type PublicKey struct {
	Type KeyType // K1, R1 or WA
	Data []byte  // everything after the type: 33 bytes for K1/R1, more for WA
}

// Signature is a signature. Binary: varuint32 type, then for K1 and R1 65
// bytes, for WA 65 bytes, bytes auth_data and string client_json. JSON:
// "SIG_K1_…", "SIG_R1_…", "SIG_WA_…".
type Signature struct {
	Type KeyType // K1, R1 or WA
	Data []byte  // everything after the type
}

// ripemdChecksum is the checksum of a key or signature's text form: the
// first four bytes of RIPEMD-160(data ‖ suffix).
func ripemdChecksum(data []byte, suffix string) (sum [4]byte) {
	if n := len(data) + len(suffix); n <= 55 {
		// One padded block built in place (K1 and R1 keys): no
		// digest buffering, and only the first word of the state is kept.
		var block [64]byte
		copy(block[copy(block[:], data):], suffix)
		block[n] = 0x80
		binary.LittleEndian.PutUint64(block[56:], uint64(n)<<3)
		h := [5]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}
		rmdBlock(&h, block[:])
		binary.LittleEndian.PutUint32(sum[:], h[0])
		return sum
	}
	d := newRMD()
	d.write(data)
	d.writeString(suffix)
	h := d.sum()
	copy(sum[:], h[:4])
	return sum
}

// keyTextBuf is the stack buffer keys and signatures are decoded into and
// encoded from: a K1 or R1 signature and its checksum fit.
const keyTextBuf = 96

// appendKeyString appends prefix + base58(data ‖ ripemd160(data ‖ suffix)[:4]).
func appendKeyString(b []byte, prefix string, data []byte, suffix string) []byte {
	var stack [keyTextBuf]byte
	buf := append(stack[:0], data...)
	sum := ripemdChecksum(data, suffix)
	buf = append(buf, sum[:]...)
	return base58Encode(append(b, prefix...), buf)
}

// parseKeyString parses "PREFIX_XX_base58" and verifies its checksum,
// returning the type and the data without checksum, decoded into buf's
// array when it fits (the caller copies what it keeps).
func parseKeyString(typ string, s []byte, prefix string, buf []byte) (KeyType, []byte, error) {
	rest := s[len(prefix):]
	var kt KeyType
	switch {
	case bytes.HasPrefix(rest, []byte("K1_")):
		kt = KeyK1
	case bytes.HasPrefix(rest, []byte("R1_")):
		kt = KeyR1
	case bytes.HasPrefix(rest, []byte("WA_")):
		kt = KeyWA
	default:
		return 0, nil, valueErr(typ, string(s), "unknown key type (expected K1, R1 or WA)")
	}
	raw, ok := base58Decode(buf[:0], rest[3:])
	if !ok || len(raw) < 4 {
		return 0, nil, valueErr(typ, string(s), "not valid base58")
	}
	data, sum := raw[:len(raw)-4], raw[len(raw)-4:]
	if want := ripemdChecksum(data, kt.suffix()); !bytes.Equal(sum, want[:]) {
		return 0, nil, valueErr(typ, string(s), "checksum mismatch")
	}
	return kt, data, nil
}

// checkKeyData checks that data is exactly one key or signature body of type
// kt, by decoding it.
func checkKeyData(typ string, kt KeyType, data []byte, sig bool) error {
	d := Decoder{data: data}
	var err error
	if sig {
		err = decodeSignatureBody(&d, kt)
	} else {
		err = decodePublicKeyBody(&d, kt)
	}
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		return valueErr(typ, "", "malformed "+kt.suffix()+" data: "+err.Error())
	}
	return nil
}

// ParsePublicKey parses "EOS…", "PUB_K1_…", "PUB_R1_…" or "PUB_WA_…".
func ParsePublicKey(s string) (PublicKey, error) { return parsePublicKey([]byte(s)) }

func parsePublicKey(s []byte) (PublicKey, error) {
	if k, ok := cachedParsedKey(s); ok {
		return k, nil
	}
	k, err := parsePublicKeyText(s)
	if err != nil {
		return k, err
	}
	cacheParsedKey(s, k)
	// The text printing would give is the one just verified ("EOS…" for
	// K1, "PUB_R1_…" for R1; base58 is one text per byte string): a key
	// read and printed again needs no second conversion.
	switch {
	case k.Type == KeyK1 && s[0] == 'E':
		cacheKeyText(k.Type, k.Data, s[len("EOS"):])
	case k.Type == KeyR1:
		cacheKeyText(k.Type, k.Data, s[len("PUB_R1_"):])
	}
	return k, nil
}

// parsePublicKeyText parses a key's text without the cache.
func parsePublicKeyText(s []byte) (PublicKey, error) {
	var buf [keyTextBuf]byte
	if bytes.HasPrefix(s, []byte("PUB_")) {
		kt, data, err := parseKeyString("public_key", s, "PUB_", buf[:])
		if err != nil {
			return PublicKey{}, err
		}
		if err := checkKeyData("public_key", kt, data, false); err != nil {
			return PublicKey{}, err
		}
		return PublicKey{Type: kt, Data: bytes.Clone(data)}, nil
	}
	if bytes.HasPrefix(s, []byte("EOS")) && bytes.IndexByte(s, '_') < 0 {
		raw, ok := base58Decode(buf[:0], s[3:])
		if !ok || len(raw) != 37 {
			return PublicKey{}, valueErr("public_key", string(s), "legacy key must be 33 bytes and a checksum in base58")
		}
		if want := ripemdChecksum(raw[:33], ""); !bytes.Equal(raw[33:], want[:]) {
			return PublicKey{}, valueErr("public_key", string(s), "checksum mismatch")
		}
		return PublicKey{Type: KeyK1, Data: bytes.Clone(raw[:33])}, nil
	}
	return PublicKey{}, valueErr("public_key", string(s), `expected "EOS…" or "PUB_K1_…", "PUB_R1_…", "PUB_WA_…"`)
}

func (k PublicKey) check() error {
	if (k.Type == KeyK1 || k.Type == KeyR1) && len(k.Data) == keyDataLen {
		return nil // what checkKeyData accepts, without building a decoder per print
	}
	if k.Type > KeyWA {
		return valueErr("public_key", "", "unknown key type "+strconv.Itoa(int(k.Type)))
	}
	return checkKeyData("public_key", k.Type, k.Data, false)
}

func (k PublicKey) appendText(b []byte) []byte {
	if k.Type == KeyK1 {
		b = append(b, "EOS"...)
	} else {
		b = append(b, "PUB_"...)
		b = append(b, k.Type.suffix()...)
		b = append(b, '_')
	}
	if k.Type == KeyWA {
		return appendKeyString(b, "", k.Data, k.Type.suffix())
	}
	b, ok := appendCachedKeyText(b, k.Type, k.Data)
	if ok {
		return b
	}
	suffix := ""
	if k.Type != KeyK1 {
		suffix = k.Type.suffix()
	}
	start := len(b)
	b = appendKeyString(b, "", k.Data, suffix)
	cacheKeyText(k.Type, k.Data, b[start:])
	return b
}

// String returns the text form ("EOS…" for K1), or a description of why the
// key is invalid.
func (k PublicKey) String() string {
	if err := k.check(); err != nil {
		return "<" + err.Error() + ">"
	}
	return string(k.appendText(nil))
}

func decodePublicKeyBody(d *Decoder, kt KeyType) error {
	if _, err := d.Raw("public_key", 33); err != nil {
		return err
	}
	if kt == KeyWA {
		if _, err := d.Uint8(); err != nil {
			return err
		}
		if _, err := d.ByteSlice("public_key rpid"); err != nil {
			return err
		}
	}
	return nil
}

func decodeKeyType(d *Decoder, what string) (KeyType, error) {
	off := d.Offset()
	t, err := d.VarUint32()
	if err != nil {
		return 0, err
	}
	if t > uint32(KeyWA) {
		return 0, d.errAt(off, what, "unknown key type "+strconv.FormatUint(uint64(t), 10))
	}
	return KeyType(t), nil
}

// AppendBinary appends the type and the data; a malformed key is an error.
func (k PublicKey) AppendBinary(b []byte) ([]byte, error) {
	if err := k.check(); err != nil {
		return b, err
	}
	b = AppendVarUint32(b, uint32(k.Type))
	return append(b, k.Data...), nil
}

// MarshalBinary returns the binary form.
func (k PublicKey) MarshalBinary() ([]byte, error) { return k.AppendBinary(nil) }

// DecodeBinary reads the type and the data.
func (k *PublicKey) DecodeBinary(d *Decoder) error {
	kt, err := decodeKeyType(d, "public_key")
	if err != nil {
		return err
	}
	start := d.Offset()
	if err := decodePublicKeyBody(d, kt); err != nil {
		return err
	}
	k.Type, k.Data = kt, append([]byte(nil), d.data[start:d.Offset()]...)
	return nil
}

// UnmarshalBinary decodes exactly one key.
func (k *PublicKey) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, k) }

// AppendJSON appends the quoted text form.
func (k PublicKey) AppendJSON(b []byte) ([]byte, error) {
	if err := k.check(); err != nil {
		return b, err
	}
	b = append(b, '"')
	b = k.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted text form.
func (k PublicKey) MarshalJSON() ([]byte, error) { return k.AppendJSON(nil) }

// DecodeJSON reads any text form.
func (k *PublicKey) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parsePublicKey(t)
	if err == nil {
		*k = v
	}
	return err
}

// UnmarshalJSON reads any text form.
func (k *PublicKey) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, k) }

// ParseSignature parses "SIG_K1_…", "SIG_R1_…" or "SIG_WA_…".
func ParseSignature(s string) (Signature, error) { return parseSignature([]byte(s)) }

func parseSignature(s []byte) (Signature, error) {
	if !bytes.HasPrefix(s, []byte("SIG_")) {
		return Signature{}, valueErr("signature", string(s), `expected "SIG_K1_…", "SIG_R1_…" or "SIG_WA_…"`)
	}
	var buf [keyTextBuf]byte
	kt, data, err := parseKeyString("signature", s, "SIG_", buf[:])
	if err != nil {
		return Signature{}, err
	}
	if err := checkKeyData("signature", kt, data, true); err != nil {
		return Signature{}, err
	}
	return Signature{Type: kt, Data: bytes.Clone(data)}, nil
}

func decodeSignatureBody(d *Decoder, kt KeyType) error {
	if _, err := d.Raw("signature", 65); err != nil {
		return err
	}
	if kt == KeyWA {
		if _, err := d.ByteSlice("signature auth_data"); err != nil {
			return err
		}
		if _, err := d.ByteSlice("signature client_json"); err != nil {
			return err
		}
	}
	return nil
}

func (s Signature) check() error {
	if s.Type > KeyWA {
		return valueErr("signature", "", "unknown key type "+strconv.Itoa(int(s.Type)))
	}
	return checkKeyData("signature", s.Type, s.Data, true)
}

func (s Signature) appendText(b []byte) []byte {
	return appendKeyString(b, "SIG_"+s.Type.suffix()+"_", s.Data, s.Type.suffix())
}

// String returns the text form, or a description of why it is invalid.
func (s Signature) String() string {
	if err := s.check(); err != nil {
		return "<" + err.Error() + ">"
	}
	return string(s.appendText(nil))
}

// AppendBinary appends the type and the data; a malformed signature is an error.
func (s Signature) AppendBinary(b []byte) ([]byte, error) {
	if err := s.check(); err != nil {
		return b, err
	}
	b = AppendVarUint32(b, uint32(s.Type))
	return append(b, s.Data...), nil
}

// MarshalBinary returns the binary form.
func (s Signature) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// DecodeBinary reads the type and the data.
func (s *Signature) DecodeBinary(d *Decoder) error {
	kt, err := decodeKeyType(d, "signature")
	if err != nil {
		return err
	}
	start := d.Offset()
	if err := decodeSignatureBody(d, kt); err != nil {
		return err
	}
	s.Type, s.Data = kt, append([]byte(nil), d.data[start:d.Offset()]...)
	return nil
}

// UnmarshalBinary decodes exactly one signature.
func (s *Signature) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, s) }

// AppendJSON appends the quoted text form.
func (s Signature) AppendJSON(b []byte) ([]byte, error) {
	if err := s.check(); err != nil {
		return b, err
	}
	b = append(b, '"')
	b = s.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted text form.
func (s Signature) MarshalJSON() ([]byte, error) { return s.AppendJSON(nil) }

// DecodeJSON reads the text form.
func (s *Signature) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parseSignature(t)
	if err == nil {
		*s = v
	}
	return err
}

// UnmarshalJSON reads the text form.
func (s *Signature) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, s) }
