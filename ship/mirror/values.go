package mirror

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// shape is how a row type's bytes become column values: one entry per
// top-level field of the row's struct (its bases' first).
type shape struct {
	strct   *model.Struct // nil: the row type is not a struct, one JSON column "value"
	fields  []fieldShape
	dialect Dialect
	// trailing accepts bytes after the last field: an action's data, which
	// the contract (CDT's dispatcher) reads field by field and whose rest
	// it ignores, so such an action takes effect.
	trailing bool
}

type fieldShape struct {
	name      string
	typ       *model.Type // resolved
	builtin   string      // the built-in type, decoded into typed columns; "" for JSON
	extension bool
	parts     []part
}

// part is one column of a field: assets take two (amount, symbol),
// extended assets three.
type part struct {
	suffix string
	class  class
}

// builtinParts gives the columns of each built-in type; a type not listed
// is kept as its JSON text.
var builtinParts = map[string][]part{
	"bool": {{"", cBool}},
	"int8": {{"", cInt}}, "uint8": {{"", cInt}}, "int16": {{"", cInt}}, "uint16": {{"", cInt}},
	"int32": {{"", cInt}}, "uint32": {{"", cInt}}, "int64": {{"", cInt}}, "varint32": {{"", cInt}}, "varuint32": {{"", cInt}},
	"uint64": {{"", cUint64}}, "int128": {{"", cInt128}}, "uint128": {{"", cInt128}},
	"float32": {{"", cFloat32}}, "float64": {{"", cFloat64}}, "float128": {{"", cText}},
	// Times are microseconds since 1970-01-01 UTC, whatever the ABI type:
	// exact (nodeos's JSON truncates time_point to milliseconds) and one
	// unit to compare.
	"time_point": {{"", cInt}}, "time_point_sec": {{"", cInt}}, "block_timestamp_type": {{"", cInt}},
	"name": {{"", cText}}, "string": {{"", cText}}, "bytes": {{"", cBytes}},
	"checksum160": {{"", cText}}, "checksum256": {{"", cText}}, "checksum512": {{"", cText}},
	"public_key": {{"", cText}}, "private_key": {{"", cText}}, "signature": {{"", cText}},
	"symbol": {{"", cText}}, "symbol_code": {{"", cText}}, "bitset": {{"", cText}},
	"asset":          {{"amount", cInt}, {"symbol", cText}},
	"extended_asset": {{"amount", cInt}, {"symbol", cText}, {"contract", cText}},
}

func newShape(row *model.Type, d Dialect) shape {
	r := row.Resolved()
	if r.Kind != model.StructKind {
		return shape{dialect: d, fields: []fieldShape{{name: "value", typ: row, parts: []part{{"", cJSON}}}}}
	}
	s := shape{strct: r.Struct, dialect: d}
	for _, f := range r.Struct.AllFields() {
		fs := fieldShape{name: f.Name, typ: f.Type, extension: f.Extension}
		if ft := f.Type.Resolved(); ft.Kind == model.Builtin {
			if p, ok := builtinParts[ft.Name]; ok {
				fs.builtin, fs.parts = ft.Name, p
			}
		}
		if fs.parts == nil {
			fs.parts = []part{{"", cJSON}}
		}
		s.fields = append(s.fields, fs)
	}
	return s
}

// decode reads one packed value (a row, an action's data) into the field
// columns' values, vals: exactly the whole of data (an action's: its
// fields, and the rest ignored as the contract ignores it), or an error.
// Absent binary extensions are NULL.
func (s *shape) decode(data []byte, vals []any) error {
	d := antelope.NewDecoder(data)
	if s.strct != nil {
		if err := d.Enter(s.strct.Name); err != nil {
			return err
		}
		defer d.Leave()
	}
	i := 0
	for n, f := range s.fields {
		if f.extension && d.Remaining() == 0 {
			for ; i < len(vals); i++ {
				vals[i] = nil
			}
			break
		}
		if err := s.field(d, &f, vals[i:i+len(f.parts)], n == len(s.fields)-1); err != nil {
			return antelope.AtField(err, f.name)
		}
		i += len(f.parts)
	}
	if s.trailing {
		return nil // _raw keeps the data whole
	}
	return d.Finish()
}

func (s *shape) field(d *antelope.Decoder, f *fieldShape, out []any, last bool) error {
	var err error
	switch f.builtin {
	case "":
		var b []byte
		b, err = abicodec.AppendValue(d, f.typ, nil, last)
		if string(b) == "null" {
			out[0] = nil // an absent optional: SQL NULL, as IS NULL expects
		} else {
			out[0] = s.text(string(b))
		}
	case "bool":
		out[0], err = d.Bool()
	case "int8":
		out[0], err = intOf(d.Int8())
	case "uint8":
		out[0], err = intOf(d.Uint8())
	case "int16":
		out[0], err = intOf(d.Int16())
	case "uint16":
		out[0], err = intOf(d.Uint16())
	case "int32":
		out[0], err = intOf(d.Int32())
	case "uint32":
		out[0], err = intOf(d.Uint32())
	case "int64":
		out[0], err = d.Int64()
	case "varint32":
		out[0], err = intOf(d.VarInt32())
	case "varuint32":
		out[0], err = intOf(d.VarUint32())
	case "uint64":
		var v uint64
		v, err = d.Uint64()
		out[0] = strconv.FormatUint(v, 10)
	case "float32":
		var v float32
		v, err = d.Float32()
		if s.dialect == Postgres {
			// pgx writes a float32 to REAL bit for bit; through a float64
			// a signaling NaN would come back quieted.
			out[0] = v
		} else {
			out[0] = float64(v) // SQLite holds doubles (and no NaN)
		}
	case "float64":
		out[0], err = d.Float64()
	case "time_point":
		var v antelope.TimePoint
		err = v.DecodeBinary(d)
		out[0] = int64(v)
	case "time_point_sec":
		var v antelope.TimePointSec
		err = v.DecodeBinary(d)
		out[0] = int64(v) * 1e6
	case "block_timestamp_type":
		var v antelope.BlockTimestamp
		err = v.DecodeBinary(d)
		out[0] = int64(v)*500_000 + 946684800*1e6 // slots are half-seconds since 2000
	case "string":
		var v []byte
		v, err = d.ByteSlice("string")
		out[0] = s.text(string(v))
	case "bytes":
		var v []byte
		v, err = d.ByteSlice("bytes")
		out[0] = append([]byte{}, v...) // not nil: empty bytes are not NULL
	case "asset":
		var v antelope.Asset
		err = v.DecodeBinary(d)
		out[0], out[1] = v.Amount, v.Symbol.String()
	case "extended_asset":
		var v antelope.ExtendedAsset
		err = v.DecodeBinary(d)
		out[0], out[1], out[2] = v.Quantity.Amount, v.Quantity.Symbol.String(), v.Contract.String()
	default:
		// Types whose nodeos JSON is a string (names, keys, checksums,
		// symbols, 128-bit integers…): the string is the column.
		var b []byte
		b, err = abicodec.AppendValue(d, f.typ, nil, last)
		if err == nil {
			var str string
			if err = json.Unmarshal(b, &str); err == nil {
				out[0] = str
			}
		}
	}
	return err
}

func intOf[T int8 | uint8 | int16 | uint16 | int32 | uint32](v T, err error) (any, error) {
	return int64(v), err
}

// text is a string as the database can hold it. PostgreSQL's text holds
// neither NUL nor invalid UTF-8: there they become U+FFFD (the exact bytes
// are in _raw).
func (s *shape) text(v string) string {
	if s.dialect == Postgres && (!utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0) {
		return strings.ReplaceAll(strings.ToValidUTF8(v, "\uFFFD"), "\x00", "\uFFFD")
	}
	return v
}
