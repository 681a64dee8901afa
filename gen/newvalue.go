package gen

import (
	"sort"

	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// emitNewValue writes NewValue, which maps an ABI type name to a new value
// of its Go type: every struct and variant, every typedef of one, and the
// value types of action data, table rows and action results. Decoding by
// type name is what indexers, the differential tests and the fuzz targets
// need.
func (g *generator) emitNewValue(f *jen.File) {
	byName := map[string]*jen.Statement{}
	add := func(name string, c *jen.Statement) {
		if _, ok := byName[name]; !ok {
			byName[name] = c
		}
	}
	for _, s := range g.m.Structs {
		add(s.Name, jen.Id(g.structNames[s]))
	}
	for _, v := range g.m.Variants {
		add(v.Name, jen.Id(g.variantNames[v]))
	}
	for _, a := range g.m.Aliases {
		if r := a.Target.Resolved(); r.Kind == model.StructKind || r.Kind == model.VariantKind {
			add(a.Name, g.goType(r))
		}
	}
	for _, a := range g.m.Actions {
		if n := g.actionValues[a]; n != "" {
			add(a.Type.Name, jen.Id(n))
		}
	}
	for _, t := range g.m.Tables {
		if n := g.tableValues[t]; n != "" {
			add(t.Type.Name, jen.Id(n))
		}
	}
	for _, r := range g.m.ActionResults {
		if n := g.resultValues[r]; n != "" {
			add(r.Type.Name, jen.Id(n))
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var cases []jen.Code
	for _, n := range names {
		cases = append(cases, jen.Case(jen.Lit(n)).Block(jen.Return(jen.New(byName[n]))))
	}
	docComment(f, "NewValue returns a new zero value of the ABI type called abiType: a struct,\na variant, a typedef of one, or the data type of an action, table or action\nresult. It returns nil for any other name.")
	body := []jen.Code{jen.Return(jen.Nil())}
	if len(cases) > 0 {
		body = []jen.Code{jen.Switch(jen.Id("abiType")).Block(cases...), jen.Return(jen.Nil())}
	}
	f.Func().Id("NewValue").Params(jen.Id("abiType").String()).Qual(rt, "Value").Block(body...)
	f.Line()
}
