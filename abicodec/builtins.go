package abicodec

import (
	"github.com/antelopego/abigen/antelope"
)

// builtin appends the JSON of a built-in type, as the generated code
// prints it.
func builtin(d *antelope.Decoder, name string, b []byte) ([]byte, error) {
	switch name {
	case "bool":
		v, err := d.Bool()
		return antelope.AppendBoolJSON(b, v), err
	case "int8":
		v, err := d.Int8()
		return antelope.AppendIntJSON(b, int64(v)), err
	case "uint8":
		v, err := d.Uint8()
		return antelope.AppendUintJSON(b, uint64(v)), err
	case "int16":
		v, err := d.Int16()
		return antelope.AppendIntJSON(b, int64(v)), err
	case "uint16":
		v, err := d.Uint16()
		return antelope.AppendUintJSON(b, uint64(v)), err
	case "int32":
		v, err := d.Int32()
		return antelope.AppendIntJSON(b, int64(v)), err
	case "uint32":
		v, err := d.Uint32()
		return antelope.AppendUintJSON(b, uint64(v)), err
	case "int64":
		v, err := d.Int64()
		return antelope.AppendInt64JSON(b, v), err
	case "uint64":
		v, err := d.Uint64()
		return antelope.AppendUint64JSON(b, v), err
	case "float32":
		v, err := d.Float32()
		if err != nil {
			return b, err
		}
		return antelope.AppendFloat32JSON(b, v), nil
	case "float64":
		v, err := d.Float64()
		if err != nil {
			return b, err
		}
		return antelope.AppendFloat64JSON(b, v), nil
	case "string":
		v, err := d.ByteSlice("string")
		return antelope.AppendStringJSON(b, string(v)), err
	case "bytes":
		v, err := d.ByteSlice("bytes")
		return antelope.AppendHexJSON(b, v), err
	case "name":
		return named[antelope.Name](d, b)
	case "time_point":
		return named[antelope.TimePoint](d, b)
	case "time_point_sec":
		return named[antelope.TimePointSec](d, b)
	case "block_timestamp_type":
		return named[antelope.BlockTimestamp](d, b)
	case "varuint32":
		return named[antelope.VarUint32](d, b)
	case "varint32":
		return named[antelope.VarInt32](d, b)
	case "int128":
		return named[antelope.Int128](d, b)
	case "uint128":
		return named[antelope.Uint128](d, b)
	case "float128":
		return named[antelope.Float128](d, b)
	case "checksum160":
		return named[antelope.Checksum160](d, b)
	case "checksum256":
		return named[antelope.Checksum256](d, b)
	case "checksum512":
		return named[antelope.Checksum512](d, b)
	case "public_key":
		return named[antelope.PublicKey](d, b)
	case "private_key":
		return named[antelope.PrivateKey](d, b)
	case "signature":
		return named[antelope.Signature](d, b)
	case "symbol":
		return named[antelope.Symbol](d, b)
	case "symbol_code":
		return named[antelope.SymbolCode](d, b)
	case "asset":
		return named[antelope.Asset](d, b)
	case "extended_asset":
		return named[antelope.ExtendedAsset](d, b)
	case "bitset":
		return named[antelope.Bitset](d, b)
	}
	return b, d.Error(name, "not a built-in type")
}

func named[T any, P interface {
	*T
	antelope.BinaryDecodable
	AppendJSON([]byte) ([]byte, error)
}](d *antelope.Decoder, b []byte) ([]byte, error) {
	var v T
	if err := P(&v).DecodeBinary(d); err != nil {
		return b, err
	}
	return P(&v).AppendJSON(b)
}
