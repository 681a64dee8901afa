package gen

import (
	"github.com/dave/jennifer/jen"
)

// actionDescriptors writes Actions: one antelope.ActionOf per action, the
// typed counterpart of the Action… name constants (which stay constants, so
// that code switching on an action name keeps compiling), beside the
// TableOf variables of tables. A stream picks and decodes a contract's
// actions with them: ship.Actions(stream, pkg.Actions.Transfer).
func (g *generator) actionDescriptors(f *jen.File) {
	if g.actionsVar == "" {
		return
	}
	var fields []jen.Code
	values := jen.Dict{}
	for _, a := range g.m.Actions {
		typ := jen.Qual(rt, "ActionOf").Types(g.payloadType(a.Type, g.actionValues[a]), jen.Op("*").Add(g.payloadType(a.Type, g.actionValues[a])))
		field := g.contractMethods[a]
		fields = append(fields, jen.Id(field).Add(typ).Comment(commentText(a.Name, 20)))
		v := jen.Dict{jen.Id("Name"): jen.Id(g.actionConsts[a]), jen.Id("Type"): jen.Lit(a.Type.Name)}
		if g.hasAccount {
			v[jen.Id("Account")] = jen.Id("DefaultAccount")
		}
		values[jen.Id(field)] = jen.Add(typ).Values(v)
	}
	doc := g.actionsVar + " describes each action with the Go type of its data, as the Table…\nvariables describe tables: the typed form of the Action… names, for\nstreams of the contract's actions (package ship):\n\n\tfor ev, err := range ship.Actions(stream, " + g.opts.Package + "." + g.actionsVar + "." + g.contractMethods[g.m.Actions[0]] + ") {…}\n\n"
	if g.hasAccount {
		doc += "Each names the contract at DefaultAccount; In(account) names another\ndeployment."
	} else {
		doc += "The ABI named no account: give one with In(account)."
	}
	docComment(f, doc)
	f.Var().Id(g.actionsVar).Op("=").Struct(fields...).Values(values)
}
