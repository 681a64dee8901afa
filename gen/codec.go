package gen

import (
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// The emitters below return the statements that encode or decode one value.
// They run inside generated functions that have these variables:
//
//	binary encode: b []byte, err error    binary decode: d *antelope.Decoder, err error
//	JSON encode:   b []byte, err error    JSON decode:   r *antelope.JSONReader, err error
//
// x yields a fresh copy of an addressable expression of the value (jennifer
// statements are mutable, so each use needs its own); fail builds what runs
// when err != nil, so each caller decides how the error is wrapped.

type expr struct {
	build func() *jen.Statement
	ptr   *expr // set when the expression is (*ptr), so that &x can be ptr
}

type onErr func(err *jen.Statement) jen.Code

// c returns a fresh copy of the expression's code.
func (x expr) c() *jen.Statement { return x.build() }

func id(name string) expr { return expr{build: func() *jen.Statement { return jen.Id(name) }} }

// field returns the expression x.name.
func (x expr) field(name string) expr {
	return expr{build: func() *jen.Statement { return x.c().Dot(name) }}
}

// index returns (x)[i].
func (x expr) index(i string) expr {
	return expr{build: func() *jen.Statement { return jen.Parens(x.c()).Index(jen.Id(i)) }}
}

// deref returns (*x).
func (x expr) deref() expr {
	inner := x
	return expr{build: func() *jen.Statement { return jen.Parens(jen.Op("*").Add(inner.c())) }, ptr: &inner}
}

// addr returns &x, or p itself when x is (*p).
func (x expr) addr() *jen.Statement {
	if x.ptr != nil {
		return x.ptr.c()
	}
	return jen.Op("&").Add(x.c())
}

// check wraps call (which sets err) in "if call; err != nil { fail }".
func check(call *jen.Statement, fail onErr) jen.Code {
	return jen.If(call, jen.Err().Op("!=").Nil()).Block(fail(jen.Err()))
}

func appendTo(call *jen.Statement) *jen.Statement {
	return jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call)
}

// tailArg is the tail argument passed to a nested struct: the enclosing
// function's own tail when the value ends it (passThrough), else false.
func tailArg(passThrough bool) *jen.Statement {
	if passThrough {
		return jen.Id("tail")
	}
	return jen.False()
}

// encBin appends the binary form of x. tail says whether x ends the
// enclosing struct that may itself end early.
func (g *generator) encBin(t *model.Type, x expr, tail bool, fail onErr) []jen.Code {
	switch t.Kind {
	case model.AliasKind:
		return g.encBin(t.Elem, x, tail, fail)
	case model.Builtin:
		bi := builtins[t.Name]
		switch {
		case bi.plain && bi.binErr:
			return []jen.Code{check(appendTo(jen.Qual(rt, bi.bin).Call(jen.Id("b"), x.c())), fail)}
		case bi.plain:
			return []jen.Code{jen.Id("b").Op("=").Qual(rt, bi.bin).Call(jen.Id("b"), x.c())}
		case bi.bin != "":
			return []jen.Code{jen.Id("b").Op("=").Qual(rt, bi.bin).Call(jen.Id("b"), jen.Id(bi.binConv).Call(x.c()))}
		}
		return []jen.Code{check(appendTo(x.c().Dot("AppendBinary").Call(jen.Id("b"))), fail)}
	case model.StructKind:
		if t.Struct.ExtensionTail {
			return []jen.Code{check(appendTo(x.c().Dot("appendBinary").Call(jen.Id("b"), tailArg(tail))), fail)}
		}
		return []jen.Code{check(appendTo(x.c().Dot("AppendBinary").Call(jen.Id("b"))), fail)}
	case model.VariantKind:
		if t.Variant.ExtensionTail {
			return []jen.Code{check(appendTo(x.c().Dot("appendBinary").Call(jen.Id("b"), tailArg(tail))), fail)}
		}
		return []jen.Code{check(appendTo(x.c().Dot("AppendBinary").Call(jen.Id("b"))), fail)}
	}
	h := g.helperFor(t)
	return []jen.Code{check(appendTo(jen.Id("binAppend"+h).Call(jen.Id("b"), x.addr())), fail)}
}

// decBin decodes the binary form into x.
func (g *generator) decBin(t *model.Type, x expr, tail bool, fail onErr) []jen.Code {
	switch t.Kind {
	case model.AliasKind:
		return g.decBin(t.Elem, x, tail, fail)
	case model.Builtin:
		bi := builtins[t.Name]
		switch {
		case bi.plain:
			return []jen.Code{check(jen.List(x.c(), jen.Err()).Op("=").Id("d").Dot(bi.dec).Call(), fail)}
		case bi.decConv != "":
			// v, err := d.Uint64(); x = antelope.Name(v)
			return []jen.Code{jen.Block(
				jen.List(jen.Id("u"), jen.Err()).Op(":=").Id("d").Dot(bi.decConv).Call(),
				jen.If(jen.Err().Op("!=").Nil()).Block(fail(jen.Err())),
				x.c().Op("=").Add(bi.goType()).Call(jen.Id("u")),
			)}
		}
		return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("DecodeBinary").Call(jen.Id("d")), fail)}
	case model.StructKind:
		if t.Struct.ExtensionTail {
			return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("decodeBinary").Call(jen.Id("d"), tailArg(tail)), fail)}
		}
		return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("DecodeBinary").Call(jen.Id("d")), fail)}
	case model.VariantKind:
		if t.Variant.ExtensionTail {
			return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("decodeBinary").Call(jen.Id("d"), tailArg(tail)), fail)}
		}
		return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("DecodeBinary").Call(jen.Id("d")), fail)}
	}
	h := g.helperFor(t)
	return []jen.Code{check(jen.Err().Op("=").Id("binDecode"+h).Call(jen.Id("d"), x.addr()), fail)}
}

// encJSON appends the JSON form of x.
func (g *generator) encJSON(t *model.Type, x expr, fail onErr) []jen.Code {
	switch t.Kind {
	case model.AliasKind:
		return g.encJSON(t.Elem, x, fail)
	case model.Builtin:
		bi := builtins[t.Name]
		if bi.plain {
			arg := x.c()
			if bi.jsonArg != "" {
				arg = jen.Id(bi.jsonArg).Call(x.c())
			}
			return []jen.Code{jen.Id("b").Op("=").Qual(rt, bi.json).Call(jen.Id("b"), arg)}
		}
		return []jen.Code{check(appendTo(x.c().Dot("AppendJSON").Call(jen.Id("b"))), fail)}
	case model.StructKind, model.VariantKind:
		return []jen.Code{check(appendTo(x.c().Dot("AppendJSON").Call(jen.Id("b"))), fail)}
	}
	h := g.helperFor(t)
	return []jen.Code{check(appendTo(jen.Id("jsonAppend"+h).Call(jen.Id("b"), x.addr())), fail)}
}

// decJSON decodes the JSON form into x.
func (g *generator) decJSON(t *model.Type, x expr, fail onErr) []jen.Code {
	switch t.Kind {
	case model.AliasKind:
		return g.decJSON(t.Elem, x, fail)
	case model.Builtin:
		bi := builtins[t.Name]
		if bi.plain {
			return []jen.Code{check(jen.List(x.c(), jen.Err()).Op("=").Id("r").Dot(bi.jdec).Call(), fail)}
		}
		return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("DecodeJSON").Call(jen.Id("r")), fail)}
	case model.StructKind, model.VariantKind:
		return []jen.Code{check(jen.Err().Op("=").Add(x.c()).Dot("DecodeJSON").Call(jen.Id("r")), fail)}
	}
	h := g.helperFor(t)
	return []jen.Code{check(jen.Err().Op("=").Id("jsonDecode"+h).Call(jen.Id("r"), x.addr()), fail)}
}

// Error wrappers.

func atField(name string) func(err *jen.Statement) *jen.Statement {
	return func(err *jen.Statement) *jen.Statement { return jen.Qual(rt, "AtField").Call(err, jen.Lit(name)) }
}

func atIndex(i string) func(err *jen.Statement) *jen.Statement {
	return func(err *jen.Statement) *jen.Statement { return jen.Qual(rt, "AtIndex").Call(err, jen.Id(i)) }
}

// returnB makes "return b, wrap(err)"; returnErr makes "return wrap(err)".
func returnB(wrap func(*jen.Statement) *jen.Statement) onErr {
	return func(err *jen.Statement) jen.Code { return jen.Return(jen.Id("b"), wrapOrPlain(wrap, err)) }
}

func returnErr(wrap func(*jen.Statement) *jen.Statement) onErr {
	return func(err *jen.Statement) jen.Code { return jen.Return(wrapOrPlain(wrap, err)) }
}

func wrapOrPlain(wrap func(*jen.Statement) *jen.Statement, err *jen.Statement) *jen.Statement {
	if wrap == nil {
		return err
	}
	return wrap(err)
}
