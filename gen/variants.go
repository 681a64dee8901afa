package gen

import (
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// A variant becomes a struct holding a sealed interface:
//
//	type V1 struct{ Value V1Value }
//	type V1Value interface{ isV1() }
//
// Struct and variant members implement the interface themselves, through
// their pointer (*S1); every other member gets a defined type named after
// the variant and the member (V1Int8 int8), which implements it by value.

// memberIsPointer reports whether a member is a struct or variant, used
// through its pointer; other members get a wrapper type.
func (g *generator) memberIsPointer(t *model.Type) bool {
	return t.Kind == model.StructKind || t.Kind == model.VariantKind
}

// isBoxed reports whether a wrapper for t must be a struct {Value T}: Go
// allows no methods on a defined pointer type, which an optional would be.
func isBoxed(t *model.Type) bool { return t.Resolved().Kind == model.Optional }

func (g *generator) emitVariant(f *jen.File, v *model.Variant) {
	name := g.variantNames[v]
	iface := g.variantIfaces[v]
	marker := "is" + name
	var list string
	for i, m := range v.Members {
		if i > 0 {
			list += ", "
		}
		list += commentText(m.Name, 60)
	}
	docCommentf(f, "%s is the ABI variant %s: one of %s. Value holds the\nalternative; a nil Value cannot be encoded.", name, commentText(v.Name, 80), list)
	f.Type().Id(name).Struct(jen.Id("Value").Id(iface).Comment("the alternative held; nil holds none"))
	docCommentf(f, "%s is implemented by the alternatives of %s.", iface, name)
	f.Type().Id(iface).Interface(jen.Id(marker).Params())

	for i, m := range v.Members {
		if g.memberIsPointer(m) {
			f.Func().Params(jen.Op("*").Add(g.goType(m))).Id(marker).Params().Block()
			continue
		}
		w := g.memberNames[v][i]
		docCommentf(f, "%s is the %s alternative of %s.", w, commentText(m.Name, 80), name)
		if isBoxed(m) {
			f.Type().Id(w).Struct(jen.Id("Value").Add(g.goType(m)).Comment("the alternative's value"))
		} else {
			f.Type().Id(w).Add(g.goType(m))
		}
		f.Func().Params(jen.Id(w)).Id(marker).Params().Block()
	}

	recv := func() *jen.Statement { return jen.Id("v").Op("*").Id(name) }
	// member returns, for alternative i inside a type switch on x, the
	// expression of its value as the member's own Go type.
	member := func(i int) (expr, []jen.Code) {
		m := v.Members[i]
		switch {
		case g.memberIsPointer(m):
			return id("x").deref(), nil
		case isBoxed(m):
			return id("y"), []jen.Code{jen.Id("y").Op(":=").Id("x").Dot("Value")}
		}
		return id("y"), []jen.Code{jen.Id("y").Op(":=").Parens(g.goType(m)).Call(jen.Id("x"))}
	}
	// wrap returns the wrapper value of member i holding y.
	wrap := func(i int) *jen.Statement {
		if isBoxed(v.Members[i]) {
			return jen.Id(g.memberNames[v][i]).Values(jen.Dict{jen.Id("Value"): jen.Id("y")})
		}
		return jen.Id(g.memberNames[v][i]).Call(jen.Id("y"))
	}

	// Binary.
	var encCases, decCases []jen.Code
	for i, m := range v.Members {
		x, prep := member(i)
		typ := jen.Id(g.memberNames[v][i])
		if g.memberIsPointer(m) {
			typ = jen.Op("*").Add(g.goType(m))
		}
		body := []jen.Code{jen.Id("b").Op("=").Qual(rt, "AppendVarUint32").Call(jen.Id("b"), jen.Lit(i))}
		if g.memberIsPointer(m) {
			body = append(body, jen.If(jen.Id("x").Op("==").Nil()).Block(
				jen.Return(jen.Id("b"), jen.Qual(rt, "ErrNoVariantValue").Call(jen.Lit(v.Name)))))
		}
		body = append(body, prep...)
		body = append(body, g.encBin(m, x, v.ExtensionTail, returnB(atField("<"+m.Name+">")))...)
		encCases = append(encCases, jen.Case(typ).Block(body...))

		dbody := []jen.Code{}
		if g.memberIsPointer(m) {
			dbody = append(dbody, jen.Id("x").Op(":=").New(g.goType(m)))
			dbody = append(dbody, g.decBin(m, id("x").deref(), v.ExtensionTail, returnErr(atField("<"+m.Name+">")))...)
			dbody = append(dbody, jen.Id("v").Dot("Value").Op("=").Id("x"))
		} else {
			dbody = append(dbody, jen.Var().Id("y").Add(g.goType(m)))
			dbody = append(dbody, g.decBin(m, id("y"), v.ExtensionTail, returnErr(atField("<"+m.Name+">")))...)
			dbody = append(dbody, jen.Id("v").Dot("Value").Op("=").Add(wrap(i)))
		}
		decCases = append(decCases, jen.Case(jen.Lit(i)).Block(dbody...))
	}
	encCases = append(encCases, jen.Default().Block(jen.Return(jen.Id("b"), jen.Qual(rt, "ErrNoVariantValue").Call(jen.Lit(v.Name)))))
	encBody := []jen.Code{
		jen.Switch(jen.Id("x").Op(":=").Id("v").Dot("Value").Assert(jen.Type())).Block(encCases...),
		jen.Return(jen.Id("b"), jen.Nil())}
	decBody := append(g.depthGuard(v, "d", jen.Lit(v.Name)),
		jen.List(jen.Id("i"), jen.Err()).Op(":=").Id("d").Dot("VariantIndex").Call(jen.Lit(v.Name), jen.Lit(len(v.Members))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Switch(jen.Id("i")).Block(decCases...),
		jen.Return(jen.Nil()))
	g.emitBinaryMethods(f, name, v.ExtensionTail, encBody, decBody,
		"AppendBinary appends the variant index, then the value.",
		"AppendBinary appends the variant index, then the value. Binary-extension\nfields of the value that are absent are left out at the end.")
	g.emitStandardMethods(f, name, v.Name)

	// JSON: ["type name as listed", value].
	var jencCases, jdecCases []jen.Code
	for i, m := range v.Members {
		x, prep := member(i)
		typ := jen.Id(g.memberNames[v][i])
		if g.memberIsPointer(m) {
			typ = jen.Op("*").Add(g.goType(m))
		}
		body := []jen.Code{appendLit("[" + jsonString(m.Name) + ",")}
		if g.memberIsPointer(m) {
			body = append(body, jen.If(jen.Id("x").Op("==").Nil()).Block(
				jen.Return(jen.Id("b"), jen.Qual(rt, "ErrNoVariantValue").Call(jen.Lit(v.Name)))))
		}
		body = append(body, prep...)
		body = append(body, g.encJSON(m, x, returnB(atField("<"+m.Name+">")))...)
		jencCases = append(jencCases, jen.Case(typ).Block(body...))

		dbody := []jen.Code{}
		if g.memberIsPointer(m) {
			dbody = append(dbody, jen.Id("x").Op(":=").New(g.goType(m)))
			dbody = append(dbody, g.decJSON(m, id("x").deref(), returnErr(atField("<"+m.Name+">")))...)
			dbody = append(dbody, jen.Id("v").Dot("Value").Op("=").Id("x"))
		} else {
			dbody = append(dbody, jen.Var().Id("y").Add(g.goType(m)))
			dbody = append(dbody, g.decJSON(m, id("y"), returnErr(atField("<"+m.Name+">")))...)
			dbody = append(dbody, jen.Id("v").Dot("Value").Op("=").Add(wrap(i)))
		}
		jdecCases = append(jdecCases, jen.Case(jen.Lit(m.Name)).Block(dbody...))
	}
	jencCases = append(jencCases, jen.Default().Block(jen.Return(jen.Id("b"), jen.Qual(rt, "ErrNoVariantValue").Call(jen.Lit(v.Name)))))
	jdecCases = append(jdecCases, jen.Default().Block(
		jen.Return(jen.Id("r").Dot("UnknownVariantType").Call(jen.Lit(v.Name), jen.String().Call(jen.Id("name"))))))
	docComment(f, "AppendJSON appends [\"type\", value].")
	f.Func().Params(recv()).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(
		jen.Switch(jen.Id("x").Op(":=").Id("v").Dot("Value").Assert(jen.Type())).Block(jencCases...),
		jen.Return(jen.Append(jen.Id("b"), jen.LitRune(']')), jen.Nil()))
	docComment(f, "DecodeJSON decodes v from [\"type\", value].")
	jdecBody := append(g.depthGuard(v, "r"),
		jen.List(jen.Id("name"), jen.Err()).Op(":=").Id("r").Dot("BeginVariant").Call(jen.Lit(v.Name)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Switch(jen.String().Call(jen.Id("name"))).Block(jdecCases...),
		jen.Return(jen.Id("r").Dot("EndVariant").Call(jen.Lit(v.Name))))
	f.Func().Params(recv()).Id("DecodeJSON").Params(jen.Id("r").Op("*").Qual(rt, "JSONReader")).Params(jen.Err().Error()).Block(jdecBody...)
}

// emitValueType writes a defined type with the full codec for an action,
// table or action-result type that is neither a struct nor a variant
// (action_results often return a bare int32 or bytes).
func (g *generator) emitValueType(f *jen.File, name string, t *model.Type, what string) {
	docCommentf(f, "%s is %s, of ABI type %s.", name, what, commentText(t.Name, 80))
	recv := func() *jen.Statement { return jen.Id("v").Op("*").Id(name) }
	x := id("x").deref()
	conv := jen.Id("x").Op(":=").Parens(jen.Op("*").Add(g.goType(t))).Call(jen.Id("v"))
	if isBoxed(t) {
		f.Type().Id(name).Struct(jen.Id("Value").Add(g.goType(t)).Comment("the value"))
		x = id("v").field("Value")
		conv = jen.Null()
	} else {
		f.Type().Id(name).Add(g.goType(t))
	}
	docComment(f, "AppendBinary appends the binary encoding of v to b.")
	f.Func().Params(recv()).Id("AppendBinary").Params(jen.Id("b").Index().Byte()).Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(
		append(append([]jen.Code{conv.Clone()}, g.encBin(t, x, false, returnB(nil))...), jen.Return(jen.Id("b"), jen.Nil()))...)
	docComment(f, "DecodeBinary decodes v from d.")
	f.Func().Params(recv()).Id("DecodeBinary").Params(jen.Id("d").Op("*").Qual(rt, "Decoder")).Params(jen.Err().Error()).Block(
		append(append([]jen.Code{conv.Clone()}, g.decBin(t, x, false, returnErr(nil))...), jen.Return(jen.Nil()))...)
	g.emitStandardMethods(f, name, t.Name)
	docComment(f, "AppendJSON appends the JSON form of v to b.")
	f.Func().Params(recv()).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(
		append(append([]jen.Code{conv.Clone()}, g.encJSON(t, x, returnB(nil))...), jen.Return(jen.Id("b"), jen.Nil()))...)
	docComment(f, "DecodeJSON decodes v from r.")
	f.Func().Params(recv()).Id("DecodeJSON").Params(jen.Id("r").Op("*").Qual(rt, "JSONReader")).Params(jen.Err().Error()).Block(
		append(append([]jen.Code{conv.Clone()}, g.decJSON(t, x, returnErr(nil))...), jen.Return(jen.Nil()))...)
}
