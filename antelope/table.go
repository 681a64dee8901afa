package antelope

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"iter"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// What a table read asks and gets back, independent of where the rows come
// from: package chain reads them from a nodeos chain API or from the state
// service at any past block, and a test can serve them from memory. The
// generated Table values read through TableReader.

// TableReader reads a contract table's rows. Rows are the binary row bytes:
// the generated row type decodes them, never the node.
type TableReader interface {
	// TableRows returns the rows q selects, in index order (reversed with
	// q.Reverse), paging through the source as needed: no row is lost or
	// repeated. The sequence stops at the first error, or when the caller
	// stops ranging, with no request left behind.
	TableRows(ctx context.Context, q TableQuery) iter.Seq2[TableRow, error]
}

// TableQuery selects rows of one table in one scope.
type TableQuery struct {
	Code  Name // the contract
	Scope Name // the scope: an account, or any 64-bit value (a symbol code as Name(code))
	Table Name // the table
	// Index is the index position: 0 or 1 the primary key, 2 the first
	// secondary index, 3 the second… (the order of the contract's
	// multi_index indexes).
	Index int
	// Lower and Upper bound the index key, both inclusive; the zero
	// TableKey leaves that end open. When both are set they must be of the
	// same KeyType, which is the index's.
	Lower, Upper TableKey
	// KeyType is the index's key type when no bound says it (a secondary
	// index needs one); the primary key is always IndexI64.
	KeyType IndexKeyType
	Reverse bool // highest key first
	// Limit is the most rows to return in all; 0 returns every row.
	Limit int
	// PageSize is how many rows one request asks for; 0 lets the reader
	// choose. Nodes may return fewer (they stop at a time limit).
	PageSize int
	// Key, when set, reads a row's key in the index read (its primary key
	// for the primary index) from the row's bytes. A paging reader then
	// checks that every row a node returns lies within the bounds asked
	// for and in index order — a broken or hostile node's stray rows are
	// an error, not data — and recognises a primary-index row by its key,
	// so that a row updated between two pages is not returned twice.
	// Without it, rows are recognised by their bytes, and which rows lie
	// within the bounds is the node's word.
	Key func(row []byte) (TableKey, error)
}

// TableRow is one row: its bytes, and the account that pays for its RAM.
type TableRow struct {
	Data  []byte // the packed row; rows of one page may share a buffer: copy to keep past the page
	Payer Name   // the RAM payer
}

// IndexKeyType is a key type of nodeos's get_table_rows.
type IndexKeyType string

// The key types of table indexes.
const (
	IndexI64       IndexKeyType = "i64"       // uint64 and name keys (the primary key; idx64)
	IndexI128      IndexKeyType = "i128"      // idx128
	IndexI256      IndexKeyType = "i256"      // idx256 read as a 256-bit number
	IndexSHA256    IndexKeyType = "sha256"    // idx256 holding a checksum256
	IndexRipemd160 IndexKeyType = "ripemd160" // idx256 holding a checksum160
	IndexFloat64   IndexKeyType = "float64"   // idx_double
	IndexFloat128  IndexKeyType = "float128"  // idx_long_double
)

// TableKey is a typed index key, for bounds. The zero TableKey is no bound.
type TableKey struct {
	typ IndexKeyType
	b   [32]byte // the value: big-endian for integers and checksums, IEEE bits for floats
}

// KeyUint64 is a 64-bit key: a primary key, or an idx64 secondary key.
func KeyUint64(v uint64) TableKey {
	k := TableKey{typ: IndexI64}
	binary.BigEndian.PutUint64(k.b[24:], v)
	return k
}

// KeyName is a name key (a 64-bit key).
func KeyName(n Name) TableKey { return KeyUint64(uint64(n)) }

// KeyUint128 is an idx128 key.
func KeyUint128(v Uint128) TableKey {
	k := TableKey{typ: IndexI128}
	binary.BigEndian.PutUint64(k.b[16:], v.Hi)
	binary.BigEndian.PutUint64(k.b[24:], v.Lo)
	return k
}

// KeyFloat64 is an idx_double key. NaN is not a key.
func KeyFloat64(v float64) TableKey {
	k := TableKey{typ: IndexFloat64}
	binary.BigEndian.PutUint64(k.b[24:], math.Float64bits(v))
	return k
}

// KeyFloat128 is an idx_long_double key, its 16 bytes as stored.
func KeyFloat128(v Float128) TableKey {
	k := TableKey{typ: IndexFloat128}
	copy(k.b[16:], v[:])
	return k
}

// KeySHA256 is an idx256 key holding a checksum256, as CDT stores one.
func KeySHA256(c Checksum256) TableKey { return TableKey{typ: IndexSHA256, b: c} }

// KeyI256 is an idx256 key read as a number: be is its 32 bytes,
// big-endian.
func KeyI256(be Checksum256) TableKey { return TableKey{typ: IndexI256, b: be} }

// KeyRipemd160 is an idx256 key holding a checksum160.
func KeyRipemd160(c Checksum160) TableKey {
	k := TableKey{typ: IndexRipemd160}
	copy(k.b[:20], c[:])
	return k
}

// IsZero reports whether k is no bound.
func (k TableKey) IsZero() bool { return k.typ == "" }

// Type is the key's type; "" for no bound.
func (k TableKey) Type() IndexKeyType { return k.typ }

// Uint64 returns a 64-bit key's value.
func (k TableKey) Uint64() uint64 { return binary.BigEndian.Uint64(k.b[24:]) }

// Float64 returns an idx_double key's value.
func (k TableKey) Float64() float64 { return math.Float64frombits(binary.BigEndian.Uint64(k.b[24:])) }

// Compare orders two keys of one index as nodeos's indexes do: integers
// and checksums by their big-endian bytes, floats by value (-0 equals 0).
// It returns -1, 0 or +1; keys of different types compare by type first.
func (k TableKey) Compare(o TableKey) int {
	if k.typ != o.typ {
		return strings.Compare(string(k.typ), string(o.typ))
	}
	switch k.typ {
	case IndexFloat64:
		return cmp.Compare(k.Float64(), o.Float64()) // -0 == 0; keys are never NaN
	case IndexFloat128:
		return compareFloat128(k.b, o.b)
	}
	return bytes.Compare(k.b[:], o.b[:])
}

// compareFloat128 orders binary128 values (bytes 16… little-endian): sign
// and magnitude.
func compareFloat128(a, b [32]byte) int {
	hiA, loA := binary.LittleEndian.Uint64(a[24:]), binary.LittleEndian.Uint64(a[16:])
	hiB, loB := binary.LittleEndian.Uint64(b[24:]), binary.LittleEndian.Uint64(b[16:])
	negA, negB := hiA>>63 == 1, hiB>>63 == 1
	hiA, hiB = hiA&^(1<<63), hiB&^(1<<63)
	if hiA == 0 && loA == 0 && hiB == 0 && loB == 0 {
		return 0 // -0 == +0
	}
	mag := cmp.Compare(hiA, hiB)
	if mag == 0 {
		mag = cmp.Compare(loA, loB)
	}
	switch {
	case negA && !negB:
		return -1
	case !negA && negB:
		return 1
	case negA:
		return -mag
	}
	return mag
}

// Bytes returns the key's value as 32 bytes: integers and checksums
// big-endian (a checksum160 left-aligned), floats as their bits.
func (k TableKey) Bytes() [32]byte { return k.b }

// String is the key's text, as nodeos takes it in a bound (see Bound).
func (k TableKey) String() string {
	if k.typ == "" {
		return "(none)"
	}
	s, _ := k.Bound()
	return string(k.typ) + ":" + s
}

// Bound returns the lower_bound/upper_bound text nodeos parses to exactly
// this key with key_type k.Type() (and the encode_type it returns): a
// decimal for i64 and i128 (nodeos reads a name there too, and a numeric
// name like "12345" as the number, so a name is sent as its value), the
// shortest exact decimal for float64, the checksum's hex for sha256 and
// ripemd160, "0x" and 64 hex digits for i256, and for float128 "0x" and
// the 16 bytes as a little-endian 128-bit number, read with encode_type
// hex as the key's exact bits.
func (k TableKey) Bound() (text, encodeType string) {
	switch k.typ {
	case IndexI64:
		return strconv.FormatUint(k.Uint64(), 10), "dec"
	case IndexI128:
		return new(big.Int).SetBytes(k.b[16:]).String(), "dec"
	case IndexFloat64:
		return strconv.FormatFloat(k.Float64(), 'g', -1, 64), "dec"
	case IndexFloat128:
		var be [16]byte // the stored little-endian bytes, most significant first
		for i := range be {
			be[i] = k.b[31-i]
		}
		return "0x" + string(appendHex(nil, be[:])), "hex"
	case IndexSHA256:
		return string(appendHex(nil, k.b[:])), "hex"
	case IndexI256:
		return "0x" + string(appendHex(nil, k.b[:])), "dec"
	case IndexRipemd160:
		return string(appendHex(nil, k.b[:20])), "hex"
	}
	return "", ""
}

// ParseNextKey reads get_table_rows's next_key for key type t: what nodeos
// prints there (a decimal for i64, i128 and names, a double for float64 and
// float128, hex for checksums, "0x" hex for i256).
func ParseNextKey(t IndexKeyType, s string) (TableKey, error) {
	bad := func(why string) (TableKey, error) {
		return TableKey{}, valueErr("next_key", s, why+" for key type "+string(t))
	}
	switch t {
	case IndexI64, "name":
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return bad("not a uint64")
		}
		return KeyUint64(v), nil
	case IndexI128:
		n, ok := new(big.Int).SetString(s, 10)
		if !ok || n.Sign() < 0 || n.BitLen() > 128 {
			return bad("not a uint128")
		}
		var be [16]byte
		n.FillBytes(be[:])
		return KeyUint128(Uint128{Hi: binary.BigEndian.Uint64(be[:8]), Lo: binary.BigEndian.Uint64(be[8:])}), nil
	case IndexFloat64, IndexFloat128:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) {
			return bad("not a number")
		}
		if t == IndexFloat64 {
			return KeyFloat64(v), nil
		}
		return KeyFloat128(Float128FromFloat64(v)), nil
	case IndexSHA256, IndexI256:
		h := strings.TrimPrefix(s, "0x")
		var c Checksum256
		if len(h) != 64 {
			return bad("not 64 hex digits")
		}
		if _, err := decodeHex("next_key", []byte(h), c[:0]); err != nil {
			return bad("not hex")
		}
		if t == IndexSHA256 {
			return KeySHA256(c), nil
		}
		return KeyI256(c), nil
	case IndexRipemd160:
		var c Checksum160
		if len(s) != 40 {
			return bad("not 40 hex digits")
		}
		if _, err := decodeHex("next_key", []byte(s), c[:0]); err != nil {
			return bad("not hex")
		}
		return KeyRipemd160(c), nil
	}
	return bad("unknown key type")
}

// Float128FromFloat64 converts a float64 exactly to the IEEE binary128
// bytes (little-endian) that a float128 field or key holds.
func Float128FromFloat64(v float64) Float128 {
	bits := math.Float64bits(v)
	sign := bits >> 63
	exp := int((bits >> 52) & 0x7ff)
	frac := bits & (1<<52 - 1)
	var hi, lo uint64 // binary128: 1 sign, 15 exponent, 112 fraction bits
	switch {
	case exp == 0x7ff: // inf, NaN
		hi = 0x7fff<<48 | frac>>4
		lo = frac << 60
	case exp == 0 && frac == 0:
	case exp == 0: // subnormal: normalize
		shift := 0
		for frac&(1<<52) == 0 {
			frac <<= 1
			shift++
		}
		frac &= 1<<52 - 1
		e := uint64(1 - 1023 - shift + 16383)
		hi = e<<48 | frac>>4
		lo = frac << 60
	default:
		e := uint64(exp - 1023 + 16383)
		hi = e<<48 | frac>>4
		lo = frac << 60
	}
	hi |= sign << 63
	var f Float128
	for i := range 8 {
		f[i] = byte(lo >> (8 * i))
		f[8+i] = byte(hi >> (8 * i))
	}
	return f
}

// Float64 rounds f to the nearest float64 (ties to even), as nodeos's
// f128_to_f64 does when it prints a float128 key; NaN stays NaN and values
// beyond float64's range become ±Inf. It inverts Float128FromFloat64.
func (f Float128) Float64() float64 {
	lo, hi := binary.LittleEndian.Uint64(f[:8]), binary.LittleEndian.Uint64(f[8:])
	neg := hi>>63 == 1
	exp := int((hi >> 48) & 0x7fff)
	var v float64
	switch {
	case exp == 0x7fff && hi&(1<<48-1) == 0 && lo == 0:
		v = math.Inf(1)
	case exp == 0x7fff:
		return math.NaN()
	default:
		// The 113-bit significand fits a big.Float exactly; Float64 then
		// rounds once, subnormals included.
		m := new(big.Int).SetUint64(hi & (1<<48 - 1))
		m.Lsh(m, 64).Or(m, new(big.Int).SetUint64(lo))
		e := 1 - 16383 - 112 // subnormal binary128
		if exp != 0 {
			m.SetBit(m, 112, 1)
			e = exp - 16383 - 112
		}
		x := new(big.Float).SetPrec(113).SetInt(m)
		v, _ = x.SetMantExp(x, e).Float64()
	}
	if neg {
		v = -v
	}
	return v
}
