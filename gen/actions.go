package gen

import (
	"fmt"
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// payloadType is the Go type a DecodeAction/DecodeTableRow case allocates:
// the struct or variant itself, or the value type generated for it.
func (g *generator) payloadType(t *model.Type, valueName string) *jen.Statement {
	if valueName != "" {
		return jen.Id(valueName)
	}
	return g.goType(t.Resolved())
}

func (g *generator) actionsFile() *jen.File {
	f := g.newFile()
	if len(g.m.Actions) > 0 {
		var consts []jen.Code
		for _, a := range g.m.Actions {
			n, _ := antelope.ParseName(a.Name) // validated by model
			consts = append(consts, jen.Comment(g.actionConsts[a]+" is the name of the action "+a.Name+"."),
				jen.Id(g.actionConsts[a]).Qual(rt, "Name").Op("=").Add(hexLit(uint64(n))).Comment(a.Name))
		}
		docComment(f, "Action names.")
		f.Const().Defs(consts...)
	}
	g.actionDescriptors(f)

	if g.hasAccount {
		acct, _ := antelope.ParseName(g.src.Account)
		docCommentf(f, "DefaultAccount is the account the ABI was read from, %s.", g.src.Account)
		f.Const().Id("DefaultAccount").Qual(rt, "Name").Op("=").Add(hexLit(uint64(acct))).Comment(g.src.Account)
	}
	docComment(f, "Contract builds the contract's actions for one account: an ABI is often\ndeployed under many accounts, so the account is chosen here.")
	f.Type().Id("Contract").Struct(jen.Id("Account").Qual(rt, "Name").Comment("the account the contract is deployed at"))
	if g.hasAccount {
		docComment(f, "Default is the contract at DefaultAccount.")
		f.Var().Id("Default").Op("=").Id("Contract").Values(jen.Dict{jen.Id("Account"): jen.Id("DefaultAccount")})
	}
	for _, a := range g.m.Actions {
		doc := g.contractMethods[a] + " returns the action " + a.Name + " of c.Account, with data as its\npayload and the given authorization."
		if title, summary := ricardianSummary(a.Ricardian); title != "" || summary != "" {
			doc += "\n\n" + joinNonEmpty(title, summary)
		}
		docComment(f, doc)
		f.Func().Params(jen.Id("c").Id("Contract")).Id(g.contractMethods[a]).
			Params(jen.Id("data").Add(g.payloadType(a.Type, g.actionValues[a])), jen.Id("auth").Op("...").Qual(rt, "PermissionLevel")).
			Params(jen.Qual(rt, "Action"), jen.Error()).Block(
			jen.Return(jen.Qual(rt, "NewAction").Call(jen.Id("c").Dot("Account"), jen.Id(g.actionConsts[a]), jen.Op("&").Id("data"), jen.Id("auth"))))
	}

	var cases []jen.Code
	for _, a := range g.m.Actions {
		cases = append(cases, jen.Case(jen.Lit(a.Name)).Block(
			jen.Return(jen.Qual(rt, "Decoded").Call(jen.New(g.payloadType(a.Type, g.actionValues[a])), jen.Id("data")))))
	}
	docComment(f, "DecodeAction decodes the data of the action called name. The result is a\npointer to the action's payload type.")
	f.Func().Id("DecodeAction").Params(jen.Id("name").String(), jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
		jen.Switch(jen.Id("name")).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(g.opts.Package+": unknown action %q"), jen.Id("name"))))

	g.resultMethodsCode(f)
	if len(g.m.ActionResults) > 0 {
		var rcases []jen.Code
		for _, ar := range g.m.ActionResults {
			rcases = append(rcases, jen.Case(jen.Lit(ar.Name)).Block(
				jen.Return(jen.Qual(rt, "Decoded").Call(jen.New(g.payloadType(ar.Type, g.resultValues[ar])), jen.Id("data")))))
		}
		docComment(f, "DecodeActionResult decodes the value returned by the action called name.")
		f.Func().Id("DecodeActionResult").Params(jen.Id("name").String(), jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
			jen.Switch(jen.Id("name")).Block(rcases...),
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(g.opts.Package+": no result type for action %q"), jen.Id("name"))))
	}
	return f
}

// hexLit and decLit write untyped integer constants, which jen.Lit cannot
// (it wraps a uint64 in a conversion).
func hexLit(v uint64) *jen.Statement { return jen.Op(fmt.Sprintf("0x%016x", v)) }
func decLit(v uint64) *jen.Statement { return jen.Op(strconv.FormatUint(v, 10)) }

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ": " + b
}

func (g *generator) abiFile() *jen.File {
	f := g.newFile()
	f.Anon("embed")
	docComment(f, "ABIJSON is the exact ABI this package was generated from.")
	docComment(f, "")
	docComment(f, "//go:embed abi.json")
	f.Var().Id("ABIJSON").Index().Byte()
	docComment(f, "ABISHA256 is the lowercase hex sha256 of ABIJSON.")
	f.Const().Id("ABISHA256").Op("=").Lit(g.src.SHA256())
	docComment(f, "ABIVersion is the ABI's version string.")
	f.Const().Id("ABIVersion").Op("=").Lit(g.m.Version)

	if len(g.m.ErrorMessages) > 0 {
		var consts []jen.Code
		var cases []jen.Code
		for _, em := range g.m.ErrorMessages {
			n := g.errorConsts[uint64(em.Code)]
			consts = append(consts, jen.Comment(n+": "+commentText(em.Message, 160)),
				jen.Id(n).Uint64().Op("=").Add(decLit(uint64(em.Code))))
			cases = append(cases, jen.Case(decLit(uint64(em.Code))).Block(jen.Return(jen.Lit(em.Message), jen.True())))
		}
		docComment(f, "Error codes of the contract's error_messages.")
		f.Const().Defs(consts...)
		docComment(f, "ErrorMessage returns the message the ABI gives for an error code.")
		f.Func().Id("ErrorMessage").Params(jen.Id("code").Uint64()).Params(jen.String(), jen.Bool()).Block(
			jen.Switch(jen.Id("code")).Block(cases...),
			jen.Return(jen.Lit(""), jen.False()))
	}
	return f
}
