package antelope

import (
	"fmt"
	"strings"
)

// The tests drive every built-in through one interface, so that a vector's
// type string ("asset?", "string[][]") picks its codec. Plain Go types are
// wrapped; named types are used as they are.

type codecValue interface {
	BinaryAppender
	BinaryDecodable
	JSONAppender
	JSONDecodable
}

type plain[T any] struct {
	v    T
	enc  func([]byte, T) []byte
	dec  func(*Decoder) (T, error)
	encJ func([]byte, T) []byte
	decJ func(*JSONReader) (T, error)
}

func (p *plain[T]) AppendBinary(b []byte) ([]byte, error) { return p.enc(b, p.v), nil }
func (p *plain[T]) DecodeBinary(d *Decoder) (err error)   { p.v, err = p.dec(d); return }
func (p *plain[T]) AppendJSON(b []byte) ([]byte, error)   { return p.encJ(b, p.v), nil }
func (p *plain[T]) DecodeJSON(r *JSONReader) (err error)  { p.v, err = p.decJ(r); return }

func mk[T any](enc func([]byte, T) []byte, dec func(*Decoder) (T, error), encJ func([]byte, T) []byte, decJ func(*JSONReader) (T, error)) func() codecValue {
	return func() codecValue { return &plain[T]{enc: enc, dec: dec, encJ: encJ, decJ: decJ} }
}

func intJ[T ~int8 | ~int16 | ~int32](b []byte, v T) []byte     { return AppendIntJSON(b, int64(v)) }
func uintJ[T ~uint8 | ~uint16 | ~uint32](b []byte, v T) []byte { return AppendUintJSON(b, uint64(v)) }

func stringEnc(b []byte, s string) []byte { b, _ = AppendString(b, s); return b }
func bytesEnc(b []byte, v []byte) []byte  { b, _ = AppendBytes(b, v); return b }

// builtins maps every ABI built-in type name to a constructor of its codec.
var builtins = map[string]func() codecValue{
	"bool":    mk(AppendBool, (*Decoder).Bool, AppendBoolJSON, (*JSONReader).Bool),
	"int8":    mk(AppendInt8, (*Decoder).Int8, intJ[int8], (*JSONReader).Int8),
	"uint8":   mk(AppendUint8, (*Decoder).Uint8, uintJ[uint8], (*JSONReader).Uint8),
	"int16":   mk(AppendInt16, (*Decoder).Int16, intJ[int16], (*JSONReader).Int16),
	"uint16":  mk(AppendUint16, (*Decoder).Uint16, uintJ[uint16], (*JSONReader).Uint16),
	"int32":   mk(AppendInt32, (*Decoder).Int32, intJ[int32], (*JSONReader).Int32),
	"uint32":  mk(AppendUint32, (*Decoder).Uint32, uintJ[uint32], (*JSONReader).Uint32),
	"int64":   mk(AppendInt64, (*Decoder).Int64, AppendInt64JSON, (*JSONReader).Int64),
	"uint64":  mk(AppendUint64, (*Decoder).Uint64, AppendUint64JSON, (*JSONReader).Uint64),
	"float32": mk(AppendFloat32, (*Decoder).Float32, AppendFloat32JSON, (*JSONReader).Float32),
	"float64": mk(AppendFloat64, (*Decoder).Float64, AppendFloat64JSON, (*JSONReader).Float64),
	"string":  mk(stringEnc, (*Decoder).String, AppendStringJSON, (*JSONReader).String),
	"bytes":   mk(bytesEnc, (*Decoder).Bytes, AppendHexJSON, (*JSONReader).Bytes),

	"int128":               func() codecValue { return new(Int128) },
	"uint128":              func() codecValue { return new(Uint128) },
	"varint32":             func() codecValue { return new(VarInt32) },
	"varuint32":            func() codecValue { return new(VarUint32) },
	"float128":             func() codecValue { return new(Float128) },
	"time_point":           func() codecValue { return new(TimePoint) },
	"time_point_sec":       func() codecValue { return new(TimePointSec) },
	"block_timestamp_type": func() codecValue { return new(BlockTimestamp) },
	"name":                 func() codecValue { return new(Name) },
	"checksum160":          func() codecValue { return new(Checksum160) },
	"checksum256":          func() codecValue { return new(Checksum256) },
	"checksum512":          func() codecValue { return new(Checksum512) },
	"public_key":           func() codecValue { return new(PublicKey) },
	"private_key":          func() codecValue { return new(PrivateKey) },
	"signature":            func() codecValue { return new(Signature) },
	"symbol":               func() codecValue { return new(Symbol) },
	"symbol_code":          func() codecValue { return new(SymbolCode) },
	"asset":                func() codecValue { return new(Asset) },
	"extended_asset":       func() codecValue { return new(ExtendedAsset) },
	"bitset":               func() codecValue { return new(Bitset) },
}

// builtinNames lists the built-ins in a fixed order, for fuzz selectors.
var builtinNames = func() []string {
	names := []string{"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
		"int128", "uint128", "varint32", "varuint32", "float32", "float64", "float128",
		"time_point", "time_point_sec", "block_timestamp_type", "name", "bytes", "string",
		"checksum160", "checksum256", "checksum512", "public_key", "private_key", "signature",
		"symbol", "symbol_code", "asset", "extended_asset", "bitset"}
	if len(names) != len(builtins) {
		panic("builtinNames and builtins differ")
	}
	return names
}()

// arrayValue and optionalValue compose codecs as T[] and T? do.
type arrayValue struct {
	elem  func() codecValue
	items []codecValue
}

func (a *arrayValue) AppendBinary(b []byte) ([]byte, error) {
	b, err := AppendLength(b, len(a.items))
	for i, it := range a.items {
		if err != nil {
			return b, err
		}
		b, err = it.AppendBinary(b)
		err = AtIndex(err, i)
	}
	return b, err
}

func (a *arrayValue) DecodeBinary(d *Decoder) error {
	n, err := d.Length("array", 1)
	if err != nil {
		return err
	}
	a.items = make([]codecValue, n)
	for i := range a.items {
		a.items[i] = a.elem()
		if err := a.items[i].DecodeBinary(d); err != nil {
			return AtIndex(err, i)
		}
	}
	return nil
}

func (a *arrayValue) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	for i, it := range a.items {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = it.AppendJSON(b); err != nil {
			return b, AtIndex(err, i)
		}
	}
	return append(b, ']'), nil
}

func (a *arrayValue) DecodeJSON(r *JSONReader) error {
	if err := r.BeginArray(); err != nil {
		return err
	}
	a.items = nil
	for {
		ok, err := r.NextElement()
		if err != nil || !ok {
			return err
		}
		v := a.elem()
		if err := v.DecodeJSON(r); err != nil {
			return AtIndex(err, len(a.items))
		}
		a.items = append(a.items, v)
	}
}

type optionalValue struct {
	elem func() codecValue
	v    codecValue // nil when absent
}

func (o *optionalValue) AppendBinary(b []byte) ([]byte, error) {
	if o.v == nil {
		return append(b, 0), nil
	}
	return o.v.AppendBinary(append(b, 1))
}

func (o *optionalValue) DecodeBinary(d *Decoder) error {
	present, err := d.OptionalFlag()
	if err != nil || !present {
		o.v = nil
		return err
	}
	o.v = o.elem()
	return o.v.DecodeBinary(d)
}

func (o *optionalValue) AppendJSON(b []byte) ([]byte, error) {
	if o.v == nil {
		return append(b, "null"...), nil
	}
	return o.v.AppendJSON(b)
}

func (o *optionalValue) DecodeJSON(r *JSONReader) error {
	if r.Null() {
		o.v = nil
		return nil
	}
	o.v = o.elem()
	return o.v.DecodeJSON(r)
}

// codecFor returns a constructor for a built-in type with any nesting of []
// and ? suffixes, or an error for anything else.
func codecFor(typ string) (func() codecValue, error) {
	switch {
	case strings.HasSuffix(typ, "[]"):
		elem, err := codecFor(strings.TrimSuffix(typ, "[]"))
		if err != nil {
			return nil, err
		}
		return func() codecValue { return &arrayValue{elem: elem} }, nil
	case strings.HasSuffix(typ, "?"):
		elem, err := codecFor(strings.TrimSuffix(typ, "?"))
		if err != nil {
			return nil, err
		}
		return func() codecValue { return &optionalValue{elem: elem} }, nil
	}
	if f, ok := builtins[typ]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("not a built-in type: %q", typ)
}
