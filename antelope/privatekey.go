package antelope

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strconv"
	"sync"
)

// PrivateKey is a private key (abieos's built-in; nodeos has none). Binary:
// varuint32 type, then 32 bytes. JSON: "PVT_K1_…"/"PVT_R1_…"; input also
// takes a legacy WIF K1 key ("5…"), whose checksum is verified.
//
// A PrivateKey never prints its secret: String, GoString and every fmt verb
// show the key type and its public key, and the secret is held inside a
// closure, which fmt prints as an address, so that even a struct that holds
// the key in an unexported field (where fmt cannot call its methods) does not
// show the bytes. Compare keys with Equal: == does not compile. Errors about a private
// key never quote its text. Only the calls whose names say so reveal it:
// RevealString, RevealWIF, RevealBytes, and the JSON and binary codecs that an
// ABI with a private_key field needs.
//
// A PrivateKey is a Signer for its own public key. The zero value is an
// all-zero K1 key, which cannot sign.
type PrivateKey struct {
	typ    KeyType
	secret func() [32]byte // nil means 32 zero bytes
	pub    *publicKeyCache // the derived public key, computed once
}

func holdSecret(s [32]byte) func() [32]byte { return func() [32]byte { return s } }

// publicKeyCache keeps the public key of a key once derived: signing asks
// for it every time, and deriving costs a curve multiplication.
type publicKeyCache struct {
	once sync.Once
	key  PublicKey
	err  error
}

// NewPrivateKey returns a key of type t (KeyK1 or KeyR1) holding secret. The
// secret is copied.
func NewPrivateKey(t KeyType, secret [32]byte) (PrivateKey, error) {
	if t != KeyK1 && t != KeyR1 {
		return PrivateKey{}, valueErr("private_key", "", "type must be K1 or R1, not "+strconv.Itoa(int(t)))
	}
	return PrivateKey{typ: t, secret: holdSecret(secret), pub: &publicKeyCache{}}, nil
}

// Type is the key's curve: KeyK1 or KeyR1.
func (k PrivateKey) Type() KeyType { return k.typ }

// RevealBytes returns the 32 secret bytes. Mind where they go.
func (k PrivateKey) RevealBytes() [32]byte {
	if k.secret == nil {
		return [32]byte{}
	}
	return k.secret()
}

// Equal reports whether k and o are the same key.
func (k PrivateKey) Equal(o PrivateKey) bool {
	a, b := k.RevealBytes(), o.RevealBytes()
	return k.typ == o.typ && a == b
}

// ParsePrivateKey parses "PVT_K1_…", "PVT_R1_…" or a legacy WIF K1 key. Its
// errors never quote the input.
func ParsePrivateKey(s string) (PrivateKey, error) { return parsePrivateKey([]byte(s)) }

func parsePrivateKey(s []byte) (PrivateKey, error) {
	var secret [32]byte
	var buf [keyTextBuf]byte // the secret's text decoded on the stack, cleared after
	defer clear(buf[:])
	if bytes.HasPrefix(s, []byte("PVT_")) {
		kt, data, err := parseKeyString("private_key", s, "PVT_", buf[:])
		if err != nil {
			// parseKeyString quotes its input: say why without it.
			if ve, ok := err.(*ValueError); ok {
				return PrivateKey{}, valueErr("private_key", "", ve.Msg)
			}
			return PrivateKey{}, valueErr("private_key", "", "malformed")
		}
		if kt == KeyWA || len(data) != 32 {
			return PrivateKey{}, valueErr("private_key", "", "expected a 32-byte K1 or R1 key")
		}
		copy(secret[:], data)
		return NewPrivateKey(kt, secret)
	}
	raw, ok := base58Decode(buf[:0], s)
	if !ok || len(raw) != 37 || raw[0] != 0x80 {
		return PrivateKey{}, valueErr("private_key", "", `expected "PVT_K1_…", "PVT_R1_…" or a WIF key`)
	}
	h := sha256.Sum256(raw[:33])
	h = sha256.Sum256(h[:])
	if !bytes.Equal(h[:4], raw[33:]) {
		return PrivateKey{}, valueErr("private_key", "", "WIF checksum mismatch")
	}
	copy(secret[:], raw[1:33])
	return NewPrivateKey(KeyK1, secret)
}

func (k PrivateKey) check() error {
	if k.typ > KeyR1 {
		return valueErr("private_key", "", "unknown key type "+strconv.Itoa(int(k.typ)))
	}
	return nil
}

func (k PrivateKey) appendText(b []byte) []byte {
	s := k.RevealBytes()
	return appendKeyString(b, "PVT_"+k.typ.suffix()+"_", s[:], k.typ.suffix())
}

// RevealString returns the secret text form, "PVT_K1_…" or "PVT_R1_…".
func (k PrivateKey) RevealString() string {
	if err := k.check(); err != nil {
		return "<" + err.Error() + ">"
	}
	return string(k.appendText(nil))
}

// RevealWIF returns a K1 key in the legacy WIF form ("5…") that older
// wallets import.
func (k PrivateKey) RevealWIF() (string, error) {
	if k.typ != KeyK1 {
		return "", valueErr("private_key", "", "only a K1 key has a WIF form")
	}
	s := k.RevealBytes()
	raw := append([]byte{0x80}, s[:]...)
	h := sha256.Sum256(raw)
	h = sha256.Sum256(h[:])
	return string(base58Encode(nil, append(raw, h[:4]...))), nil
}

// String describes the key without its secret: "PVT_K1_<redacted> EOS…",
// naming the public key it signs for.
func (k PrivateKey) String() string {
	if err := k.check(); err != nil {
		return "<" + err.Error() + ">"
	}
	s := "PVT_" + k.typ.suffix() + "_<redacted>"
	if pub, err := k.PublicKey(); err == nil {
		s += " " + pub.String()
	} else {
		s += " (not a valid key)"
	}
	return s
}

// GoString is String: %#v does not reveal the secret either.
func (k PrivateKey) GoString() string {
	return "antelope.PrivateKey(" + strconv.Quote(k.String()) + ")"
}

// Format prints String for every verb, so that no fmt verb (%x, %d, %+v…)
// reaches the secret bytes.
func (k PrivateKey) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = f.Write([]byte(k.GoString()))
		return
	}
	_, _ = f.Write([]byte(k.String()))
}

// AppendBinary appends the type and the 32 bytes.
func (k PrivateKey) AppendBinary(b []byte) ([]byte, error) {
	if err := k.check(); err != nil {
		return b, err
	}
	s := k.RevealBytes()
	b = AppendVarUint32(b, uint32(k.typ))
	return append(b, s[:]...), nil
}

// MarshalBinary returns the binary form.
func (k PrivateKey) MarshalBinary() ([]byte, error) { return k.AppendBinary(nil) }

// DecodeBinary reads the type and the 32 bytes.
func (k *PrivateKey) DecodeBinary(d *Decoder) error {
	off := d.Offset()
	kt, err := decodeKeyType(d, "private_key")
	if err != nil {
		return err
	}
	if kt == KeyWA {
		return d.errAt(off, "private_key", "WA is not a private key type")
	}
	var s [32]byte
	if err := decodeFixed(d, "private_key", s[:]); err != nil {
		return err
	}
	k.typ, k.secret, k.pub = kt, holdSecret(s), &publicKeyCache{}
	return nil
}

// UnmarshalBinary decodes exactly one key.
func (k *PrivateKey) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, k) }

// AppendJSON appends the quoted secret text form: a private_key field of an
// ABI struct is data the contract asked for.
func (k PrivateKey) AppendJSON(b []byte) ([]byte, error) {
	if err := k.check(); err != nil {
		return b, err
	}
	b = append(b, '"')
	b = k.appendText(b)
	return append(b, '"'), nil
}

// MarshalJSON returns the quoted secret text form (see AppendJSON).
func (k PrivateKey) MarshalJSON() ([]byte, error) { return k.AppendJSON(nil) }

// DecodeJSON reads any text form.
func (k *PrivateKey) DecodeJSON(r *JSONReader) error {
	t, err := r.StringBytes()
	if err != nil {
		return err
	}
	v, err := parsePrivateKey(t)
	if err == nil {
		*k = v
	}
	return err
}

// UnmarshalJSON reads any text form.
func (k *PrivateKey) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, k) }
