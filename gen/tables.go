package gen

import (
	"strings"

	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// indexOption is a typed range over a secondary index, from the ABI's
// key_names and key_types.
type indexOption struct {
	name     string // the generated function
	position int    // index position (2: first secondary)
	key      string // the key name in the ABI
	typ      indexKeyType
}

// indexKeyType maps an ABI key type to its index and Go forms.
type indexKeyType struct {
	index  string // antelope.Index… constant
	goType func() *jen.Statement
	key    string // antelope.Key… constructor
}

var indexKeyTypes = map[string]indexKeyType{
	"uint64":      {"IndexI64", func() *jen.Statement { return jen.Uint64() }, "KeyUint64"},
	"name":        {"IndexI64", func() *jen.Statement { return jen.Qual(rt, "Name") }, "KeyName"},
	"uint128":     {"IndexI128", func() *jen.Statement { return jen.Qual(rt, "Uint128") }, "KeyUint128"},
	"float64":     {"IndexFloat64", func() *jen.Statement { return jen.Float64() }, "KeyFloat64"},
	"float128":    {"IndexFloat128", func() *jen.Statement { return jen.Qual(rt, "Float128") }, "KeyFloat128"},
	"checksum256": {"IndexSHA256", func() *jen.Statement { return jen.Qual(rt, "Checksum256") }, "KeySHA256"},
	"checksum160": {"IndexRipemd160", func() *jen.Statement { return jen.Qual(rt, "Checksum160") }, "KeyRipemd160"},
}

// tableOf is antelope.TableOf[Row, *Row] for t.
func (g *generator) tableOf(t *model.Table) *jen.Statement {
	row := g.payloadType(t.Type, g.tableValues[t])
	return jen.Qual(rt, "TableOf").Types(row, jen.Op("*").Add(g.payloadType(t.Type, g.tableValues[t])))
}

func (g *generator) tablesFile() *jen.File {
	f := g.newFile()
	var vars, list []jen.Code
	for _, t := range g.m.Tables {
		strs := func(l []string) *jen.Statement {
			if len(l) == 0 {
				return jen.Nil()
			}
			var items []jen.Code
			for _, s := range l {
				items = append(items, jen.Lit(s))
			}
			return jen.Index().String().Values(items...)
		}
		fields := jen.Dict{jen.Id("Table"): jen.Qual(rt, "Table").Values(jen.Dict{
			jen.Id("Name"):      jen.Lit(t.Name),
			jen.Id("IndexType"): jen.Lit(t.IndexType),
			jen.Id("KeyNames"):  strs(t.KeyNames),
			jen.Id("KeyTypes"):  strs(t.KeyTypes),
			jen.Id("Type"):      jen.Lit(t.Type.Name),
		})}
		doc := g.tableVars[t] + " is the table " + commentText(t.Name, 80) + ", whose rows are " + g.rowTypeName(t) + "."
		if g.hasAccount {
			fields[jen.Id("Code")] = jen.Id("DefaultAccount")
			doc += "\nIt reads the contract at DefaultAccount; Contract{Account: …}." + g.tableMethods[t] + "()\nreads another deployment."
		} else {
			doc += "\nThe ABI named no account: read it through Contract{Account: …}." + g.tableMethods[t] + "()."
		}
		for _, line := range strings.Split(doc, "\n") {
			vars = append(vars, jen.Comment(line))
		}
		vars = append(vars, jen.Id(g.tableVars[t]).Op("=").Add(g.tableOf(t)).Values(fields))
		list = append(list, jen.Id(g.tableVars[t]).Dot("Table"))
	}
	if len(vars) > 0 {
		f.Var().Defs(vars...)
	}
	docComment(f, "Tables lists the contract's tables in ABI order.")
	f.Var().Id("Tables").Op("=").Index().Qual(rt, "Table").Values(list...)

	for _, t := range g.m.Tables {
		docComment(f, g.tableMethods[t]+" is the table "+commentText(t.Name, 80)+" of the contract at c.Account.")
		f.Func().Params(jen.Id("c").Id("Contract")).Id(g.tableMethods[t]).Params().Add(g.tableOf(t)).Block(
			jen.Return(jen.Id(g.tableVars[t]).Dot("In").Call(jen.Id("c").Dot("Account"))))
	}
	for _, t := range g.m.Tables {
		// The example read must work: without an account the Table
		// variable has none, and only a Contract's table method reads.
		table := g.tableVars[t]
		if !g.hasAccount {
			table = "(Contract{Account: account})." + g.tableMethods[t] + "()"
		}
		for _, o := range g.indexOptions[t] {
			docComment(f, o.name+" reads the table "+commentText(t.Name, 80)+" through its index on "+commentText(o.key, 80)+
				"\n(position "+itoa(o.position)+"), from lower to upper inclusive:\n\n\tfor row, err := range "+table+".Rows(ctx, reader, scope, "+o.name+"(lower, upper)) {…}")
			f.Func().Id(o.name).Params(jen.List(jen.Id("lower"), jen.Id("upper")).Add(o.typ.goType())).Qual(rt, "QueryOption").Block(
				jen.Return(jen.Qual(rt, "IndexRange").Call(jen.Lit(o.position), jen.Qual(rt, o.typ.index),
					jen.Qual(rt, o.typ.key).Call(jen.Id("lower")), jen.Qual(rt, o.typ.key).Call(jen.Id("upper")))))
		}
	}

	var cases []jen.Code
	for _, t := range g.m.Tables {
		cases = append(cases, jen.Case(jen.Lit(t.Name)).Block(
			jen.Return(jen.Qual(rt, "Decoded").Call(jen.New(g.payloadType(t.Type, g.tableValues[t])), jen.Id("data")))))
	}
	docComment(f, "DecodeTableRow decodes a row of the table called table. The result is a\npointer to the table's row type.")
	f.Func().Id("DecodeTableRow").Params(jen.Id("table").String(), jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
		jen.Switch(jen.Id("table")).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(g.opts.Package+": unknown table %q"), jen.Id("table"))))
	return f
}

// rowTypeName is the Go name of t's row type, for comments.
func (g *generator) rowTypeName(t *model.Table) string {
	if v := g.tableValues[t]; v != "" {
		return v
	}
	return jen.Null().Add(g.payloadType(t.Type, "")).GoString()
}

// resultMethods writes Contract.<Action>Result for each action result.
func (g *generator) resultMethodsCode(f *jen.File) {
	for _, r := range g.m.ActionResults {
		a := g.resultActions[r]
		if a == nil {
			continue
		}
		typ := g.payloadType(r.Type, g.resultValues[r])
		docComment(f, g.resultMethods[r]+" decodes the value action "+commentText(a.Name, 80)+" of c.Account returned in a\ntransaction's results (chain.TransactResult is an antelope.ActionResults).")
		f.Func().Params(jen.Id("c").Id("Contract")).Id(g.resultMethods[r]).Params(jen.Id("r").Qual(rt, "ActionResults")).
			Params(jen.Id("v").Add(typ), jen.Err().Error()).Block(
			jen.Err().Op("=").Qual(rt, "DecodeResult").Call(jen.Id("r"), jen.Id("c").Dot("Account"), jen.Id(g.actionConsts[a]), jen.Op("&").Id("v")),
			jen.Return())
	}
}
