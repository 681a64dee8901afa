package gen

import (
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// helper is the set of four functions generated for one composite shape
// (array, fixed array or optional): binAppend<Name>, binDecode<Name>,
// jsonAppend<Name>, jsonDecode<Name>. Each takes a pointer to the value.
type helper struct {
	name string
	t    *model.Type
}

// helperFor returns the helper name for a composite type, creating it on
// first use. Shapes that differ only by typedef names share one helper.
func (g *generator) helperFor(t *model.Type) string {
	key := g.structuralKey(t)
	if h := g.helpers[key]; h != nil {
		return h.name
	}
	name := g.shapeName(t.Resolved())
	for g.helperNames[name] {
		name += "_"
	}
	g.helperNames[name] = true
	h := &helper{name: name, t: t.Resolved()}
	g.helpers[key] = h
	g.helperOrder = append(g.helperOrder, h)
	return name
}

// emitHelpers writes every helper requested so far, including those that
// helpers themselves request while being written.
func (g *generator) emitHelpers(f *jen.File) {
	for i := 0; i < len(g.helperOrder); i++ {
		h := g.helperOrder[i]
		switch h.t.Kind {
		case model.Array:
			g.emitArrayHelper(f, h)
		case model.FixedArray:
			g.emitFixedHelper(f, h)
		case model.Optional:
			g.emitOptionalHelper(f, h)
		}
	}
}

func (g *generator) emitArrayHelper(f *jen.File, h *helper) {
	t, elem := h.t, h.t.Elem
	ptr := jen.Op("*").Add(g.goType(t))
	x := id("x").deref()
	el := x.index("i")
	label := t.Name

	f.Func().Id("binAppend"+h.name).Params(jen.Id("b").Index().Byte(), jen.Id("x").Add(ptr)).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(
		jen.List(jen.Id("b"), jen.Err()).Op("=").Qual(rt, "AppendLength").Call(jen.Id("b"), jen.Len(x.c())),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err())),
		jen.For(jen.Id("i").Op(":=").Range().Add(x.c())).Block(g.encBin(elem, el, false, returnB(atIndex("i")))...),
		jen.Return(jen.Id("b"), jen.Nil()),
	)
	f.Func().Id("binDecode"+h.name).Params(jen.Id("d").Op("*").Qual(rt, "Decoder"), jen.Id("x").Add(ptr)).Params(jen.Err().Error()).Block(
		jen.List(jen.Id("n"), jen.Err()).Op(":=").Id("d").Dot("Length").Call(jen.Lit(label), jen.Lit(model.MinSize(elem))),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		x.c().Op("=").Make(g.goType(t), jen.Id("n")),
		jen.For(jen.Id("i").Op(":=").Range().Add(x.c())).Block(g.decBin(elem, el, false, returnErr(atIndex("i")))...),
		jen.Return(jen.Nil()),
	)
	g.emitJSONAppendArray(f, h, ptr, x)
	// The slice is sized once, by counting the elements ahead.
	f.Func().Id("jsonDecode"+h.name).Params(jen.Id("r").Op("*").Qual(rt, "JSONReader"), jen.Id("x").Add(ptr)).Params(jen.Err().Error()).Block(
		jen.Id("n").Op(":=").Id("r").Dot("ArrayLen").Call(),
		jen.If(jen.Err().Op(":=").Id("r").Dot("BeginArray").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		x.c().Op("=").Make(g.goType(t), jen.Lit(0), jen.Id("n")),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(append([]jen.Code{
			jen.List(jen.Id("ok"), jen.Err()).Op(":=").Id("r").Dot("NextElement").Call(),
			jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Id("ok")).Block(jen.Return(jen.Err())),
			jen.If(jen.Id("i").Op(">=").Qual(rt, "MaxArrayElements")).Block(
				jen.Return(jen.Id("r").Dot("Errorf").Call(jen.Lit(label + ": more elements than the limit")))),
			// Decoded in place: a local element would be moved to the heap
			// where the element type contains itself.
			jen.Var().Id("e").Add(g.goType(elem)),
			x.c().Op("=").Append(x.c(), jen.Id("e")),
		}, g.decJSON(elem, el, returnErr(atIndex("i")))...)...),
	)
}

func (g *generator) emitFixedHelper(f *jen.File, h *helper) {
	t, elem := h.t, h.t.Elem
	ptr := jen.Op("*").Add(g.goType(t))
	x := id("x").deref()
	el := x.index("i")
	label := t.Name

	f.Func().Id("binAppend"+h.name).Params(jen.Id("b").Index().Byte(), jen.Id("x").Add(ptr)).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(
		jen.For(jen.Id("i").Op(":=").Range().Add(x.c())).Block(g.encBin(elem, el, false, returnB(atIndex("i")))...),
		jen.Return(jen.Id("b"), jen.Err()),
	)
	f.Func().Id("binDecode"+h.name).Params(jen.Id("d").Op("*").Qual(rt, "Decoder"), jen.Id("x").Add(ptr)).Params(jen.Err().Error()).Block(
		jen.For(jen.Id("i").Op(":=").Range().Add(x.c())).Block(g.decBin(elem, el, false, returnErr(atIndex("i")))...),
		jen.Return(jen.Err()),
	)
	g.emitJSONAppendArray(f, h, ptr, x)
	f.Func().Id("jsonDecode"+h.name).Params(jen.Id("r").Op("*").Qual(rt, "JSONReader"), jen.Id("x").Add(ptr)).Params(jen.Err().Error()).Block(
		jen.If(jen.Err().Op(":=").Id("r").Dot("BeginArray").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(append([]jen.Code{
			jen.List(jen.Id("ok"), jen.Err()).Op(":=").Id("r").Dot("NextElement").Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.If(jen.Op("!").Id("ok")).Block(
				jen.If(jen.Id("i").Op("!=").Lit(t.Len)).Block(
					jen.Return(jen.Id("r").Dot("Errorf").Call(jen.Lit(label+": expected exactly "+itoa(t.Len)+" elements")))),
				jen.Return(jen.Nil())),
			jen.If(jen.Id("i").Op(">=").Lit(t.Len)).Block(
				jen.Return(jen.Id("r").Dot("Errorf").Call(jen.Lit(label + ": expected exactly " + itoa(t.Len) + " elements")))),
		}, g.decJSON(elem, el, returnErr(atIndex("i")))...)...),
	)
}

func (g *generator) emitOptionalHelper(f *jen.File, h *helper) {
	t, elem := h.t, h.t.Elem
	ptr := jen.Op("*").Add(g.goType(t))
	x := id("x").deref()
	val := x.deref()

	f.Func().Id("binAppend"+h.name).Params(jen.Id("b").Index().Byte(), jen.Id("x").Add(ptr)).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(append([]jen.Code{
		jen.If(x.c().Op("==").Nil()).Block(jen.Return(jen.Append(jen.Id("b"), jen.Lit(0)), jen.Nil())),
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(1)),
	}, append(g.encBin(elem, val, false, returnB(nil)), jen.Return(jen.Id("b"), jen.Nil()))...)...)
	f.Func().Id("binDecode"+h.name).Params(jen.Id("d").Op("*").Qual(rt, "Decoder"), jen.Id("x").Add(ptr)).Params(jen.Err().Error()).Block(append([]jen.Code{
		jen.List(jen.Id("present"), jen.Err()).Op(":=").Id("d").Dot("OptionalFlag").Call(),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Op("!").Id("present")).Block(x.c().Op("=").Nil(), jen.Return(jen.Err())),
		x.c().Op("=").New(g.goType(elem)),
	}, append(g.decBin(elem, val, false, returnErr(nil)), jen.Return(jen.Nil()))...)...)
	f.Func().Id("jsonAppend"+h.name).Params(jen.Id("b").Index().Byte(), jen.Id("x").Add(ptr)).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(append([]jen.Code{
		jen.If(x.c().Op("==").Nil()).Block(jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("...")), jen.Nil())),
	}, append(g.encJSON(elem, val, returnB(nil)), jen.Return(jen.Id("b"), jen.Nil()))...)...)
	f.Func().Id("jsonDecode"+h.name).Params(jen.Id("r").Op("*").Qual(rt, "JSONReader"), jen.Id("x").Add(ptr)).Params(jen.Err().Error()).Block(append([]jen.Code{
		jen.If(jen.Id("r").Dot("Null").Call()).Block(x.c().Op("=").Nil(), jen.Return(jen.Nil())),
		x.c().Op("=").New(g.goType(elem)),
	}, append(g.decJSON(elem, val, returnErr(nil)), jen.Return(jen.Nil()))...)...)
}

// emitJSONAppendArray writes jsonAppend for arrays and fixed arrays alike:
// both print a JSON array of their elements.
func (g *generator) emitJSONAppendArray(f *jen.File, h *helper, ptr *jen.Statement, x expr) {
	f.Func().Id("jsonAppend"+h.name).Params(jen.Id("b").Index().Byte(), jen.Id("x").Add(ptr)).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('[')),
		jen.For(jen.Id("i").Op(":=").Range().Add(x.c())).Block(append([]jen.Code{
			jen.If(jen.Id("i").Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(','))),
		}, g.encJSON(h.t.Elem, x.index("i"), returnB(atIndex("i")))...)...),
		jen.Return(jen.Append(jen.Id("b"), jen.LitRune(']')), jen.Nil()),
	)
}
