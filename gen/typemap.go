package gen

import (
	"fmt"
	"strconv"

	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

const rt = "github.com/antelopego/abigen/antelope"

// builtin says how generated code handles one built-in type.
type builtin struct {
	goType  func() *jen.Statement
	plain   bool   // a Go basic type: package-level functions, not methods
	bin     string // plain: the Append function; named: a fast path through it, if any
	binConv string // named fast path: the conversion to its argument type, e.g. "uint64"
	binErr  bool   // plain: the Append function can fail (string, bytes)
	dec     string // plain: the Decoder method
	decConv string // named fast path: Decoder method result converted to the type
	json    string // plain: the JSON append function
	jsonArg string // plain: conversion for the JSON function's argument
	jdec    string // plain: the JSONReader method
}

func basic(name string) func() *jen.Statement { return func() *jen.Statement { return jen.Id(name) } }
func named(name string) func() *jen.Statement {
	return func() *jen.Statement { return jen.Qual(rt, name) }
}

var builtins = map[string]builtin{
	"bool":    {goType: basic("bool"), plain: true, bin: "AppendBool", dec: "Bool", json: "AppendBoolJSON", jdec: "Bool"},
	"int8":    {goType: basic("int8"), plain: true, bin: "AppendInt8", dec: "Int8", json: "AppendIntJSON", jsonArg: "int64", jdec: "Int8"},
	"uint8":   {goType: basic("uint8"), plain: true, bin: "AppendUint8", dec: "Uint8", json: "AppendUintJSON", jsonArg: "uint64", jdec: "Uint8"},
	"int16":   {goType: basic("int16"), plain: true, bin: "AppendInt16", dec: "Int16", json: "AppendIntJSON", jsonArg: "int64", jdec: "Int16"},
	"uint16":  {goType: basic("uint16"), plain: true, bin: "AppendUint16", dec: "Uint16", json: "AppendUintJSON", jsonArg: "uint64", jdec: "Uint16"},
	"int32":   {goType: basic("int32"), plain: true, bin: "AppendInt32", dec: "Int32", json: "AppendIntJSON", jsonArg: "int64", jdec: "Int32"},
	"uint32":  {goType: basic("uint32"), plain: true, bin: "AppendUint32", dec: "Uint32", json: "AppendUintJSON", jsonArg: "uint64", jdec: "Uint32"},
	"int64":   {goType: basic("int64"), plain: true, bin: "AppendInt64", dec: "Int64", json: "AppendInt64JSON", jdec: "Int64"},
	"uint64":  {goType: basic("uint64"), plain: true, bin: "AppendUint64", dec: "Uint64", json: "AppendUint64JSON", jdec: "Uint64"},
	"float32": {goType: basic("float32"), plain: true, bin: "AppendFloat32", dec: "Float32", json: "AppendFloat32JSON", jdec: "Float32"},
	"float64": {goType: basic("float64"), plain: true, bin: "AppendFloat64", dec: "Float64", json: "AppendFloat64JSON", jdec: "Float64"},
	"string":  {goType: basic("string"), plain: true, bin: "AppendString", binErr: true, dec: "String", json: "AppendStringJSON", jdec: "String"},
	"bytes": {goType: func() *jen.Statement { return jen.Index().Byte() }, plain: true, bin: "AppendBytes", binErr: true, dec: "Bytes",
		json: "AppendHexJSON", jdec: "Bytes"},

	"name":                 {goType: named("Name"), bin: "AppendUint64", binConv: "uint64", decConv: "Uint64"},
	"time_point":           {goType: named("TimePoint"), bin: "AppendInt64", binConv: "int64", decConv: "Int64"},
	"time_point_sec":       {goType: named("TimePointSec"), bin: "AppendUint32", binConv: "uint32", decConv: "Uint32"},
	"block_timestamp_type": {goType: named("BlockTimestamp"), bin: "AppendUint32", binConv: "uint32", decConv: "Uint32"},
	"varuint32":            {goType: named("VarUint32"), bin: "AppendVarUint32", binConv: "uint32", decConv: "VarUint32"},
	"varint32":             {goType: named("VarInt32"), bin: "AppendVarInt32", binConv: "int32", decConv: "VarInt32"},
	"int128":               {goType: named("Int128")},
	"uint128":              {goType: named("Uint128")},
	"float128":             {goType: named("Float128")},
	"checksum160":          {goType: named("Checksum160")},
	"checksum256":          {goType: named("Checksum256")},
	"checksum512":          {goType: named("Checksum512")},
	"public_key":           {goType: named("PublicKey")},
	"private_key":          {goType: named("PrivateKey")},
	"signature":            {goType: named("Signature")},
	"symbol":               {goType: named("Symbol")},
	"symbol_code":          {goType: named("SymbolCode")},
	"asset":                {goType: named("Asset")},
	"extended_asset":       {goType: named("ExtendedAsset")},
	"bitset":               {goType: named("Bitset")},
}

// checkBuiltins makes sure every built-in type m uses has a mapping above,
// so that a type the model knows and gen does not yet is an error naming
// it, never a nil function called.
func checkBuiltins(m *model.Model) error {
	seen := map[*model.Type]bool{}
	var walk func(t *model.Type) error
	walk = func(t *model.Type) error {
		if t == nil || seen[t] {
			return nil
		}
		seen[t] = true
		if _, ok := builtins[t.Name]; t.Kind == model.Builtin && !ok {
			return fmt.Errorf("built-in type %q has no Go mapping in this abigen (gen/typemap.go); please report it with the ABI", t.Name)
		}
		return walk(t.Elem)
	}
	var types []*model.Type
	for _, s := range m.Structs {
		for _, f := range s.Fields {
			types = append(types, f.Type)
		}
	}
	for _, v := range m.Variants {
		types = append(types, v.Members...)
	}
	for _, a := range m.Aliases {
		types = append(types, a.Target)
	}
	for _, a := range m.Actions {
		types = append(types, a.Type)
	}
	for _, t := range m.Tables {
		types = append(types, t.Type)
	}
	for _, r := range m.ActionResults {
		types = append(types, r.Type)
	}
	for _, t := range types {
		if err := walk(t); err != nil {
			return err
		}
	}
	return nil
}

// goType is the Go type generated code uses for t.
func (g *generator) goType(t *model.Type) *jen.Statement {
	switch t.Kind {
	case model.Builtin:
		return builtins[t.Name].goType()
	case model.StructKind:
		return jen.Id(g.structNames[t.Struct])
	case model.VariantKind:
		return jen.Id(g.variantNames[t.Variant])
	case model.AliasKind:
		return jen.Id(g.aliasNames[t.Alias])
	case model.Array:
		return jen.Index().Add(g.goType(t.Elem))
	case model.FixedArray:
		return jen.Index(jen.Lit(t.Len)).Add(g.goType(t.Elem))
	case model.Optional:
		return jen.Op("*").Add(g.goType(t.Elem))
	}
	panic("gen: unknown kind " + strconv.Itoa(int(t.Kind))) // unreachable: model resolves every type
}

// structuralKey names the shape of a composite type, looking through
// typedefs, so that "vec_uint16[]" and "uint16[][]" share helpers.
func (g *generator) structuralKey(t *model.Type) string {
	t = t.Resolved()
	switch t.Kind {
	case model.Builtin:
		return t.Name
	case model.StructKind:
		return "struct " + t.Struct.Name
	case model.VariantKind:
		return "variant " + t.Variant.Name
	case model.Array:
		return "(" + g.structuralKey(t.Elem) + ")[]"
	case model.FixedArray:
		return "(" + g.structuralKey(t.Elem) + ")[" + strconv.Itoa(t.Len) + "]"
	case model.Optional:
		return "(" + g.structuralKey(t.Elem) + ")?"
	}
	return ""
}

// shapeName is the Go-ish name of a type's shape, for helper and wrapper
// names: Uint64, JobsA, Uint16ArrayArray, OptAsset, Int8Array2.
func (g *generator) shapeName(t *model.Type) string {
	switch t.Kind {
	case model.Builtin:
		return GoName(t.Name)
	case model.StructKind:
		return g.structNames[t.Struct]
	case model.VariantKind:
		return g.variantNames[t.Variant]
	case model.AliasKind:
		return g.aliasNames[t.Alias]
	case model.Array:
		return g.shapeName(t.Elem) + "Array"
	case model.FixedArray:
		return g.shapeName(t.Elem) + "Array" + strconv.Itoa(t.Len)
	case model.Optional:
		return "Opt" + g.shapeName(t.Elem)
	}
	return ""
}
