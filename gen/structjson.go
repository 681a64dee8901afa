package gen

import (
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// jsonKey is the Go source of the JSON text `"name":`, escaped as the
// runtime escapes strings, with a leading comma unless first.
func jsonKey(name string, first bool) string {
	k := jsonString(name) + ":"
	if !first {
		k = "," + k
	}
	return k
}

// jsonString is name as a JSON string, escaped as the runtime escapes it.
func jsonString(name string) string { return string(antelope.AppendStringJSON(nil, name)) }

func appendLit(s string) jen.Code {
	return jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(s).Op("..."))
}

// emitStructJSONEncoder writes AppendJSON.
func (g *generator) emitStructJSONEncoder(f *jen.File, c structCodec) {
	all, exts, recv := c.all, c.exts, c.recv()
	jenc := []jen.Code{}
	if len(exts) > 0 {
		jenc = append(jenc, jen.If(jen.Err().Op("=").Id("v").Dot("checkExtensions").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("b"), jen.Err())))
	}
	jenc = append(jenc, jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('{')))
	for i, sf := range all {
		fail := returnB(atField(sf.f.Name))
		if sf.f.Extension {
			jenc = append(jenc, jen.If(sf.x.field("Present").c()).Block(append([]jen.Code{appendLit(jsonKey(sf.f.Name, i == 0))},
				g.encJSON(sf.f.Type, sf.x.field("Value"), fail)...)...))
			continue
		}
		jenc = append(jenc, appendLit(jsonKey(sf.f.Name, i == 0)))
		jenc = append(jenc, g.encJSON(sf.f.Type, sf.x, fail)...)
	}
	jenc = append(jenc, jen.Return(jen.Append(jen.Id("b"), jen.LitRune('}')), jen.Nil()))
	docComment(f, "AppendJSON appends the JSON form of v to b.")
	f.Func().Params(recv.Clone()).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).
		Params(jen.Id("_").Index().Byte(), jen.Err().Error()).Block(jenc...)
}

// emitStructJSONDecoder writes DecodeJSON: an object, its keys in any order.
func (g *generator) emitStructJSONDecoder(f *jen.File, c structCodec) {
	s, name, all, exts, recv := c.s, c.name, c.all, c.exts, c.recv()
	jdec := g.depthGuard(s, "r")
	if s.Base == nil {
		// nodeos also reads a struct without a base as the array of its
		// field values, which may stop before binary extensions.
		jdec = append(jdec, jen.If(jen.Id("r").Dot("Peek").Call().Op("==").Qual(rt, "JSONArray")).Block(
			jen.Return(jen.Id("v").Dot("decodeJSONArray").Call(jen.Id("r")))))
	}
	jdec = append(jdec,
		jen.If(jen.Err().Op("=").Id("r").Dot("BeginObject").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id(name).Values(),
	)
	if len(all) > 0 {
		jdec = append(jdec, jen.Var().Id("seen").Index(jen.Lit(len(all))).Bool())
	}
	// Chain APIs print the fields in order: each key read names the one
	// expected next, which NextKeyOr takes without scanning it.
	keys := "jsonKeys" + name
	nextKey := jen.Id("r").Dot("NextKey").Call()
	if len(all) > 0 {
		likely := make([]jen.Code, 0, len(all)+1)
		for _, sf := range all {
			likely = append(likely, jen.Qual(rt, "NewJSONKey").Call(jen.Lit(sf.f.Name)))
		}
		likely = append(likely, jen.Values())
		f.Commentf("%s[i] is the key chain APIs print after the first i fields.", keys)
		f.Var().Id(keys).Op("=").Index(jen.Lit(len(all)+1)).Qual(rt, "JSONKey").Values(likely...)
		jdec = append(jdec, jen.Id("next").Op(":=").Lit(0))
		nextKey = jen.Id("r").Dot("NextKeyOr").Call(jen.Id(keys).Index(jen.Id("next")))
	}
	var cases []jen.Code
	for i, sf := range all {
		fail := returnErr(atField(sf.f.Name))
		body := []jen.Code{
			jen.If(jen.Id("seen").Index(jen.Lit(i))).Block(jen.Return(jen.Id("r").Dot("DuplicateField").Call(jen.Lit(sf.f.Name)))),
			jen.Id("seen").Index(jen.Lit(i)).Op("=").True(),
			jen.Id("next").Op("=").Lit(i + 1),
		}
		switch {
		case sf.f.Extension && sf.f.Type.Resolved().Kind != model.Optional:
			// @wharfkit/antelope prints an absent extension as null.
			present := append(g.decJSON(sf.f.Type, sf.x.field("Value"), fail), sf.x.field("Present").c().Op("=").True())
			body = append(body, jen.If(jen.Op("!").Id("r").Dot("Null").Call()).Block(present...))
		case sf.f.Extension:
			body = append(body, g.decJSON(sf.f.Type, sf.x.field("Value"), fail)...)
			body = append(body, sf.x.field("Present").c().Op("=").True())
		default:
			body = append(body, g.decJSON(sf.f.Type, sf.x, fail)...)
		}
		cases = append(cases, jen.Case(jen.Lit(sf.f.Name)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(
		jen.If(jen.Err().Op("=").Id("r").Dot("Skip").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))))
	jdec = append(jdec, jen.For().Block(
		jen.List(jen.Id("key"), jen.Id("ok"), jen.Err()).Op(":=").Add(nextKey),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
		jen.Switch(jen.String().Call(jen.Id("key"))).Block(cases...),
	))
	for i, sf := range all {
		// Missing optionals are null and missing extensions absent, as nodeos
		// reads them; every other field is required.
		if sf.f.Extension || sf.f.Type.Resolved().Kind == model.Optional {
			continue
		}
		jdec = append(jdec, jen.If(jen.Op("!").Id("seen").Index(jen.Lit(i))).Block(
			jen.Return(jen.Id("r").Dot("MissingField").Call(jen.Lit(sf.f.Name)))))
	}
	if len(exts) > 0 {
		jdec = append(jdec, jen.Return(jen.Id("v").Dot("checkExtensions").Call()))
	} else {
		jdec = append(jdec, jen.Return(jen.Nil()))
	}
	docComment(f, "DecodeJSON decodes v from the JSON object at r. Unknown keys are ignored; a\nmissing optional field is null and a missing binary extension is absent.")
	f.Func().Params(recv.Clone()).Id("DecodeJSON").Params(jen.Id("r").Op("*").Qual(rt, "JSONReader")).
		Params(jen.Err().Error()).Block(jdec...)
}

// emitStructJSONArrayDecoder writes decodeJSONArray, for nodeos's form of a
// struct without a base as the array of its field values.
func (g *generator) emitStructJSONArrayDecoder(f *jen.File, c structCodec) {
	s, name, all, recv := c.s, c.name, c.all, c.recv()
	arr := []jen.Code{
		jen.If(jen.Err().Op("=").Id("r").Dot("BeginArray").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("v").Op("=").Id(name).Values(),
		jen.Var().Id("ok").Bool(),
	}
	for _, sf := range all {
		fail := returnErr(atField(sf.f.Name))
		var end jen.Code = jen.Return(jen.Id("r").Dot("Errorf").Call(jen.Lit("early end of the array of " + s.Name + " fields: missing " + strconv.Quote(sf.f.Name))))
		if sf.f.Extension {
			end = jen.Return(jen.Nil())
		}
		arr = append(arr,
			jen.If(jen.List(jen.Id("ok"), jen.Err()).Op("=").Id("r").Dot("NextElement").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.If(jen.Op("!").Id("ok")).Block(end))
		if sf.f.Extension {
			arr = append(arr, g.decJSON(sf.f.Type, sf.x.field("Value"), fail)...)
			arr = append(arr, sf.x.field("Present").c().Op("=").True())
		} else {
			arr = append(arr, g.decJSON(sf.f.Type, sf.x, fail)...)
		}
	}
	arr = append(arr,
		jen.If(jen.List(jen.Id("ok"), jen.Err()).Op("=").Id("r").Dot("NextElement").Call(), jen.Err().Op("!=").Nil().Op("||").Id("ok")).Block(
			jen.Return(jen.Qual(rt, "OrErr").Call(jen.Err(), jen.Id("r").Dot("Errorf").Call(jen.Lit("more values than "+s.Name+" has fields"))))),
		jen.Return(jen.Nil()))
	docComment(f, "decodeJSONArray decodes v from the array of its field values, a form nodeos\naccepts for structs without a base.")
	f.Func().Params(recv.Clone()).Id("decodeJSONArray").Params(jen.Id("r").Op("*").Qual(rt, "JSONReader")).
		Params(jen.Err().Error()).Block(arr...)
}
