package gen

import (
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// codecMethods are the methods every generated named type has; a field or
// member whose Go name is one of them gets a trailing underscore.
var codecMethods = []string{"AppendBinary", "MarshalBinary", "UnmarshalBinary", "DecodeBinary",
	"AppendJSON", "MarshalJSON", "UnmarshalJSON", "DecodeJSON"}

func (g *generator) emitAlias(f *jen.File, a *model.Alias) {
	name := g.aliasNames[a]
	docCommentf(f, "%s is the ABI typedef %s = %s.", name, commentText(a.Name, 80), commentText(a.Target.Name, 80))
	f.Type().Id(name).Op("=").Add(g.goType(a.Target))
}

// structField is a field as the codecs see it: base fields first, each with
// the Go expression that reaches it from v.
type structField struct {
	f    *model.Field
	x    expr
	base bool // declared in a base struct
}

func (g *generator) flatFields(s *model.Struct, x expr) []structField {
	var out []structField
	if s.Base != nil {
		for _, bf := range g.flatFields(s.Base, x.field(g.structNames[s.Base])) {
			bf.base = true
			out = append(out, bf)
		}
	}
	for _, f := range s.Fields {
		out = append(out, structField{f: f, x: x.field(g.fieldNames[f])})
	}
	return out
}

func (g *generator) fieldGoType(f *model.Field) *jen.Statement {
	if f.Extension {
		return jen.Qual(rt, "Ext").Types(g.goType(f.Type))
	}
	return g.goType(f.Type)
}

// structCodec is what the emitters of one struct's declaration and methods
// share.
type structCodec struct {
	s    *model.Struct
	name string         // the Go name
	all  []structField  // every field, the bases' first, reached from v
	exts []*model.Field // the struct's own binary-extension fields
}

// recv is the receiver of the struct's methods, v *Name.
func (c structCodec) recv() *jen.Statement { return jen.Id("v").Op("*").Id(c.name) }

// emitStruct writes a struct: its declaration, binary codec, standard
// methods, JSON codec (and nodeos's array form where it has no base), and
// the check of its binary extensions' order.
func (g *generator) emitStruct(f *jen.File, s *model.Struct) {
	c := structCodec{s: s, name: g.structNames[s], all: g.flatFields(s, id("v")), exts: extFields(s)}
	g.emitStructDecl(f, c)
	g.emitBinaryMethods(f, c.name, s.ExtensionTail, g.structBinaryEncoder(c), g.structBinaryDecoder(c),
		"AppendBinary appends the binary encoding of v to b.",
		"AppendBinary appends the binary encoding of v to b. Binary-extension fields\nthat are absent are left out at the end.")
	g.emitStandardMethods(f, c.name, s.Name)
	g.emitStructJSONEncoder(f, c)
	g.emitStructJSONDecoder(f, c)
	if s.Base == nil {
		g.emitStructJSONArrayDecoder(f, c)
	}
	if len(c.exts) > 0 {
		g.emitCheckExtensions(f, c)
	}
}

// emitStructDecl writes the type declaration and its doc comment.
func (g *generator) emitStructDecl(f *jen.File, c structCodec) {
	s, name := c.s, c.name
	var fields []jen.Code
	if s.Base != nil {
		fields = append(fields, jen.Id(g.structNames[s.Base]).Comment("base "+commentText(s.Base.Name, 80)))
	}
	for _, fl := range s.Fields {
		comment := commentText(fl.Name, 80) + " " + commentText(fl.Type.Name, 80)
		if fl.Extension {
			comment += "$ (binary extension)"
		}
		fields = append(fields, jen.Id(g.fieldNames[fl]).Add(g.fieldGoType(fl)).Comment(comment))
	}
	doc := name + " is the ABI struct " + commentText(s.Name, 80) + "."
	if ds := g.docs[s]; ds != "" {
		doc += "\n\n" + ds
	}
	docComment(f, doc)
	f.Type().Id(name).Struct(fields...)
}

// structBinaryEncoder is the body of AppendBinary (or appendBinary).
func (g *generator) structBinaryEncoder(c structCodec) []jen.Code {
	s, all, exts := c.s, c.all, c.exts
	var enc []jen.Code
	if len(exts) > 0 {
		enc = append(enc, jen.If(jen.Err().Op("=").Id("v").Dot("checkExtensions").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("b"), jen.Err())))
	}
	for i, sf := range all {
		last := i == len(all)-1 && !sf.base
		fail := returnB(atField(sf.f.Name))
		switch {
		case sf.f.Extension && !sf.base:
			enc = append(enc, jen.If(jen.Op("!").Add(sf.x.field("Present").c())).Block(
				jen.If(jen.Op("!").Id("tail")).Block(jen.Return(jen.Id("b"), jen.Qual(rt, "ErrExtensionRequired").Call(jen.Lit(sf.f.Name)))),
				jen.Return(jen.Id("b"), jen.Nil())))
			enc = append(enc, g.encBin(sf.f.Type, sf.x.field("Value"), last, fail)...)
		case sf.f.Extension: // a base's extension field: bases never end early
			enc = append(enc, jen.If(jen.Op("!").Add(sf.x.field("Present").c())).Block(
				jen.Return(jen.Id("b"), jen.Qual(rt, "ErrExtensionRequired").Call(jen.Lit(sf.f.Name)))))
			enc = append(enc, g.encBin(sf.f.Type, sf.x.field("Value"), false, fail)...)
		default:
			enc = append(enc, g.encBin(sf.f.Type, sf.x, last && s.ExtensionTail, fail)...)
		}
	}
	return append(enc, jen.Return(jen.Id("b"), jen.Nil()))
}

// structBinaryDecoder is the body of DecodeBinary (or decodeBinary).
func (g *generator) structBinaryDecoder(c structCodec) []jen.Code {
	s, name, all := c.s, c.name, c.all
	dec := append(g.depthGuard(s, "d", jen.Lit(s.Name)), jen.Op("*").Id("v").Op("=").Id(name).Values())
	for i, sf := range all {
		last := i == len(all)-1 && !sf.base
		fail := returnErr(atField(sf.f.Name))
		if sf.f.Extension {
			if !sf.base {
				dec = append(dec, jen.If(jen.Id("tail").Op("&&").Id("d").Dot("Remaining").Call().Op("==").Lit(0)).Block(jen.Return(jen.Nil())))
			}
			dec = append(dec, g.decBin(sf.f.Type, sf.x.field("Value"), last && !sf.base, fail)...)
			dec = append(dec, sf.x.field("Present").c().Op("=").True())
			continue
		}
		dec = append(dec, g.decBin(sf.f.Type, sf.x, last && s.ExtensionTail, fail)...)
	}
	return append(dec, jen.Return(jen.Nil()))
}

// emitCheckExtensions writes checkExtensions: a present binary extension
// after an absent one cannot be encoded.
func (g *generator) emitCheckExtensions(f *jen.File, c structCodec) {
	exts, recv := c.exts, c.recv()
	var checks []jen.Code
	for i := 0; i+1 < len(exts); i++ {
		a, b := exts[i], exts[i+1]
		checks = append(checks, jen.If(jen.Op("!").Id("v").Dot(g.fieldNames[a]).Dot("Present").Op("&&").Id("v").Dot(g.fieldNames[b]).Dot("Present")).Block(
			jen.Return(jen.Qual(rt, "ErrExtensionOrder").Call(jen.Lit(b.Name), jen.Lit(a.Name)))))
	}
	checks = append(checks, jen.Return(jen.Nil()))
	docComment(f, "checkExtensions reports a binary-extension field present after an absent one.")
	f.Func().Params(recv.Clone()).Id("checkExtensions").Params().Error().Block(checks...)
}

// emitBinaryMethods writes AppendBinary and DecodeBinary around the bodies
// enc and dec. A type whose encoding may end early (tail) gets them as
// wrappers over appendBinary and decodeBinary, which take the tail flag.
func (g *generator) emitBinaryMethods(f *jen.File, name string, tail bool, enc, dec []jen.Code, appendDoc, tailAppendDoc string) {
	recv := func() *jen.Statement { return jen.Id("v").Op("*").Id(name) }
	decoder := func() *jen.Statement { return jen.Id("d").Op("*").Qual(rt, "Decoder") }
	if !tail {
		docComment(f, appendDoc)
		f.Func().Params(recv()).Id("AppendBinary").Params(jen.Id("b").Index().Byte()).
			Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(enc...)
		docComment(f, "DecodeBinary decodes v from d.")
		f.Func().Params(recv()).Id("DecodeBinary").Params(decoder()).Params(jen.Err().Error()).Block(dec...)
		return
	}
	docComment(f, tailAppendDoc)
	f.Func().Params(recv()).Id("AppendBinary").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("appendBinary").Call(jen.Id("b"), jen.True())))
	docComment(f, "appendBinary encodes v; tail says whether v ends the encoded value, the only\nplace where binary extensions may be left out.")
	f.Func().Params(recv()).Id("appendBinary").Params(jen.Id("b").Index().Byte(), jen.Id("tail").Bool()).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(enc...)
	docComment(f, "DecodeBinary decodes v from d; binary-extension fields absent at the end of\nthe input are left absent.")
	f.Func().Params(recv()).Id("DecodeBinary").Params(decoder()).Error().Block(
		jen.Return(jen.Id("v").Dot("decodeBinary").Call(jen.Id("d"), jen.True())))
	f.Func().Params(recv()).Id("decodeBinary").Params(decoder(), jen.Id("tail").Bool()).Params(jen.Err().Error()).Block(dec...)
}

// extFields lists a struct's own binary-extension fields.
func extFields(s *model.Struct) []*model.Field {
	var out []*model.Field
	for _, f := range s.Fields {
		if f.Extension {
			out = append(out, f)
		}
	}
	return out
}

// emitStandardMethods writes MarshalBinary, UnmarshalBinary, MarshalJSON and
// UnmarshalJSON on top of the Append/Decode methods. Errors from the
// Unmarshal methods start with the ABI type name.
func (g *generator) emitStandardMethods(f *jen.File, name, abiName string) {
	recv := func() *jen.Statement { return jen.Id("v").Op("*").Id(name) }
	docComment(f, "MarshalBinary returns the binary encoding of v.")
	f.Func().Params(recv()).Id("MarshalBinary").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("AppendBinary").Call(jen.Nil())))
	// The Decoder lives on the stack: passed through antelope.UnmarshalBinary's
	// interface parameter it would escape, one allocation per call.
	docComment(f, "UnmarshalBinary decodes data, which must hold exactly one value, into v.")
	f.Func().Params(recv()).Id("UnmarshalBinary").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Var().Id("d").Qual(rt, "Decoder"),
		jen.Id("d").Dot("Reset").Call(jen.Id("data")),
		jen.Id("err").Op(":=").Id("v").Dot("DecodeBinary").Call(jen.Op("&").Id("d")),
		jen.If(jen.Id("err").Op("==").Nil()).Block(jen.Id("err").Op("=").Id("d").Dot("Finish").Call()),
		jen.Return(jen.Qual(rt, "AtField").Call(jen.Id("err"), jen.Lit(abiName))))
	docComment(f, "MarshalJSON returns the JSON form of v.")
	f.Func().Params(recv()).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("AppendJSON").Call(jen.Nil())))
	// The JSONReader lives on the stack too.
	docComment(f, "UnmarshalJSON decodes one JSON value into v.")
	f.Func().Params(recv()).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Var().Id("r").Qual(rt, "JSONReader"),
		jen.Id("r").Dot("Reset").Call(jen.Id("data")),
		jen.Id("err").Op(":=").Id("v").Dot("DecodeJSON").Call(jen.Op("&").Id("r")),
		jen.If(jen.Id("err").Op("==").Nil()).Block(jen.Id("err").Op("=").Id("r").Dot("Finish").Call()),
		jen.Return(jen.Qual(rt, "AtField").Call(jen.Id("err"), jen.Lit(abiName))))
}
