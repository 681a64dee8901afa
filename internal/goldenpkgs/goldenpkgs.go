// Package goldenpkgs lists every generated package of the project that
// compiles (golden/* and generated/randcontract) with the entry points the
// tests that run all generated decoders need. gen's TestGoldenPackagesListed
// keeps the list complete.
package goldenpkgs

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/golden/abieoseosiotoken"
	"github.com/antelopego/abigen/golden/abieoseosiotokenhex"
	"github.com/antelopego/abigen/golden/abieospackedtransaction"
	"github.com/antelopego/abigen/golden/abieosstatehistoryplugin"
	"github.com/antelopego/abigen/golden/abieostest"
	"github.com/antelopego/abigen/golden/abieostesthex"
	"github.com/antelopego/abigen/golden/abieostesthexhex"
	"github.com/antelopego/abigen/golden/abieostestkv"
	"github.com/antelopego/abigen/golden/abieostransaction"
	"github.com/antelopego/abigen/golden/actionresults"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/atomicassetsalienworlds"
	"github.com/antelopego/abigen/golden/atomicmarket"
	"github.com/antelopego/abigen/golden/corecorecore"
	"github.com/antelopego/abigen/golden/corecorecoreraw"
	"github.com/antelopego/abigen/golden/delphioracle"
	"github.com/antelopego/abigen/golden/eosio"
	"github.com/antelopego/abigen/golden/eosiobios"
	"github.com/antelopego/abigen/golden/eosioevm"
	"github.com/antelopego/abigen/golden/eosiomsig"
	"github.com/antelopego/abigen/golden/eosiomsigabi12"
	"github.com/antelopego/abigen/golden/eosiomsigv121"
	"github.com/antelopego/abigen/golden/eosiosystem"
	"github.com/antelopego/abigen/golden/eosiosystemv121"
	"github.com/antelopego/abigen/golden/eosiotestdfuse"
	"github.com/antelopego/abigen/golden/eosiotestpacked"
	"github.com/antelopego/abigen/golden/eosiotoken"
	"github.com/antelopego/abigen/golden/eosiowrap"
	"github.com/antelopego/abigen/golden/gettabletest"
	"github.com/antelopego/abigen/golden/hazardcollisions"
	"github.com/antelopego/abigen/golden/hazarddeepnesting"
	"github.com/antelopego/abigen/golden/hazarddigitsunicode"
	"github.com/antelopego/abigen/golden/hazardgenerated"
	"github.com/antelopego/abigen/golden/hazardkeywords"
	"github.com/antelopego/abigen/golden/hazardrecursive"
	"github.com/antelopego/abigen/golden/hazardrenamepriority"
	"github.com/antelopego/abigen/golden/hazardrenames"
	"github.com/antelopego/abigen/golden/hazardricardian"
	"github.com/antelopego/abigen/golden/ibc"
	"github.com/antelopego/abigen/golden/nestedcontainermultiindex"
	"github.com/antelopego/abigen/golden/oraclelimits"
	"github.com/antelopego/abigen/golden/orngwax"
	"github.com/antelopego/abigen/golden/orngwaxstate"
	"github.com/antelopego/abigen/golden/orngwaxv2"
	"github.com/antelopego/abigen/golden/randreceiver"
	"github.com/antelopego/abigen/golden/rexresults"
	"github.com/antelopego/abigen/golden/springabiserializedetailederrormessages"
	"github.com/antelopego/abigen/golden/springabiserializeincompletejsonarray"
	"github.com/antelopego/abigen/golden/springabiserializeincompletejsonobject"
	"github.com/antelopego/abigen/golden/springabiserializejsonemptyname"
	"github.com/antelopego/abigen/golden/springabiserializejsonmismatchingtype"
	"github.com/antelopego/abigen/golden/springaliasedvariants"
	"github.com/antelopego/abigen/golden/springextendnos2"
	"github.com/antelopego/abigen/golden/springserializeoptionalstructtype"
	"github.com/antelopego/abigen/golden/springvariantofaliases"
	"github.com/antelopego/abigen/golden/springvariants"
	"github.com/antelopego/abigen/golden/tablekeys"
)

// Package is what the tests need of one generated package.
type Package struct {
	Name           string // the directory name under golden/, or "randcontract"
	ABIJSON        []byte
	NewValue       func(abiType string) antelope.Value
	DecodeAction   func(name string, data []byte) (any, error)
	DecodeTableRow func(table string, data []byte) (any, error)
}

// All lists the packages in directory order, generated/randcontract last.
var All = []Package{
	{"abieoseosiotoken", abieoseosiotoken.ABIJSON, abieoseosiotoken.NewValue, abieoseosiotoken.DecodeAction, abieoseosiotoken.DecodeTableRow},
	{"abieoseosiotokenhex", abieoseosiotokenhex.ABIJSON, abieoseosiotokenhex.NewValue, abieoseosiotokenhex.DecodeAction, abieoseosiotokenhex.DecodeTableRow},
	{"abieospackedtransaction", abieospackedtransaction.ABIJSON, abieospackedtransaction.NewValue, abieospackedtransaction.DecodeAction, abieospackedtransaction.DecodeTableRow},
	{"abieosstatehistoryplugin", abieosstatehistoryplugin.ABIJSON, abieosstatehistoryplugin.NewValue, abieosstatehistoryplugin.DecodeAction, abieosstatehistoryplugin.DecodeTableRow},
	{"abieostest", abieostest.ABIJSON, abieostest.NewValue, abieostest.DecodeAction, abieostest.DecodeTableRow},
	{"abieostesthex", abieostesthex.ABIJSON, abieostesthex.NewValue, abieostesthex.DecodeAction, abieostesthex.DecodeTableRow},
	{"abieostesthexhex", abieostesthexhex.ABIJSON, abieostesthexhex.NewValue, abieostesthexhex.DecodeAction, abieostesthexhex.DecodeTableRow},
	{"abieostestkv", abieostestkv.ABIJSON, abieostestkv.NewValue, abieostestkv.DecodeAction, abieostestkv.DecodeTableRow},
	{"abieostransaction", abieostransaction.ABIJSON, abieostransaction.NewValue, abieostransaction.DecodeAction, abieostransaction.DecodeTableRow},
	{"actionresults", actionresults.ABIJSON, actionresults.NewValue, actionresults.DecodeAction, actionresults.DecodeTableRow},
	{"atomicassets", atomicassets.ABIJSON, atomicassets.NewValue, atomicassets.DecodeAction, atomicassets.DecodeTableRow},
	{"atomicassetsalienworlds", atomicassetsalienworlds.ABIJSON, atomicassetsalienworlds.NewValue, atomicassetsalienworlds.DecodeAction, atomicassetsalienworlds.DecodeTableRow},
	{"atomicmarket", atomicmarket.ABIJSON, atomicmarket.NewValue, atomicmarket.DecodeAction, atomicmarket.DecodeTableRow},
	{"corecorecore", corecorecore.ABIJSON, corecorecore.NewValue, corecorecore.DecodeAction, corecorecore.DecodeTableRow},
	{"corecorecoreraw", corecorecoreraw.ABIJSON, corecorecoreraw.NewValue, corecorecoreraw.DecodeAction, corecorecoreraw.DecodeTableRow},
	{"delphioracle", delphioracle.ABIJSON, delphioracle.NewValue, delphioracle.DecodeAction, delphioracle.DecodeTableRow},
	{"eosio", eosio.ABIJSON, eosio.NewValue, eosio.DecodeAction, eosio.DecodeTableRow},
	{"eosiobios", eosiobios.ABIJSON, eosiobios.NewValue, eosiobios.DecodeAction, eosiobios.DecodeTableRow},
	{"eosioevm", eosioevm.ABIJSON, eosioevm.NewValue, eosioevm.DecodeAction, eosioevm.DecodeTableRow},
	{"eosiomsig", eosiomsig.ABIJSON, eosiomsig.NewValue, eosiomsig.DecodeAction, eosiomsig.DecodeTableRow},
	{"eosiomsigabi12", eosiomsigabi12.ABIJSON, eosiomsigabi12.NewValue, eosiomsigabi12.DecodeAction, eosiomsigabi12.DecodeTableRow},
	{"eosiomsigv121", eosiomsigv121.ABIJSON, eosiomsigv121.NewValue, eosiomsigv121.DecodeAction, eosiomsigv121.DecodeTableRow},
	{"eosiosystem", eosiosystem.ABIJSON, eosiosystem.NewValue, eosiosystem.DecodeAction, eosiosystem.DecodeTableRow},
	{"eosiosystemv121", eosiosystemv121.ABIJSON, eosiosystemv121.NewValue, eosiosystemv121.DecodeAction, eosiosystemv121.DecodeTableRow},
	{"eosiotestdfuse", eosiotestdfuse.ABIJSON, eosiotestdfuse.NewValue, eosiotestdfuse.DecodeAction, eosiotestdfuse.DecodeTableRow},
	{"eosiotestpacked", eosiotestpacked.ABIJSON, eosiotestpacked.NewValue, eosiotestpacked.DecodeAction, eosiotestpacked.DecodeTableRow},
	{"eosiotoken", eosiotoken.ABIJSON, eosiotoken.NewValue, eosiotoken.DecodeAction, eosiotoken.DecodeTableRow},
	{"eosiowrap", eosiowrap.ABIJSON, eosiowrap.NewValue, eosiowrap.DecodeAction, eosiowrap.DecodeTableRow},
	{"gettabletest", gettabletest.ABIJSON, gettabletest.NewValue, gettabletest.DecodeAction, gettabletest.DecodeTableRow},
	{"hazardcollisions", hazardcollisions.ABIJSON, hazardcollisions.NewValue, hazardcollisions.DecodeAction, hazardcollisions.DecodeTableRow},
	{"hazarddeepnesting", hazarddeepnesting.ABIJSON, hazarddeepnesting.NewValue, hazarddeepnesting.DecodeAction, hazarddeepnesting.DecodeTableRow},
	{"hazarddigitsunicode", hazarddigitsunicode.ABIJSON, hazarddigitsunicode.NewValue, hazarddigitsunicode.DecodeAction, hazarddigitsunicode.DecodeTableRow},
	{"hazardgenerated", hazardgenerated.ABIJSON, hazardgenerated.NewValue, hazardgenerated.DecodeAction, hazardgenerated.DecodeTableRow},
	{"hazardkeywords", hazardkeywords.ABIJSON, hazardkeywords.NewValue, hazardkeywords.DecodeAction, hazardkeywords.DecodeTableRow},
	{"hazardrecursive", hazardrecursive.ABIJSON, hazardrecursive.NewValue, hazardrecursive.DecodeAction, hazardrecursive.DecodeTableRow},
	{"hazardrenamepriority", hazardrenamepriority.ABIJSON, hazardrenamepriority.NewValue, hazardrenamepriority.DecodeAction, hazardrenamepriority.DecodeTableRow},
	{"hazardrenames", hazardrenames.ABIJSON, hazardrenames.NewValue, hazardrenames.DecodeAction, hazardrenames.DecodeTableRow},
	{"hazardricardian", hazardricardian.ABIJSON, hazardricardian.NewValue, hazardricardian.DecodeAction, hazardricardian.DecodeTableRow},
	{"ibc", ibc.ABIJSON, ibc.NewValue, ibc.DecodeAction, ibc.DecodeTableRow},
	{"nestedcontainermultiindex", nestedcontainermultiindex.ABIJSON, nestedcontainermultiindex.NewValue, nestedcontainermultiindex.DecodeAction, nestedcontainermultiindex.DecodeTableRow},
	{"oraclelimits", oraclelimits.ABIJSON, oraclelimits.NewValue, oraclelimits.DecodeAction, oraclelimits.DecodeTableRow},
	{"orngwax", orngwax.ABIJSON, orngwax.NewValue, orngwax.DecodeAction, orngwax.DecodeTableRow},
	{"orngwaxstate", orngwaxstate.ABIJSON, orngwaxstate.NewValue, orngwaxstate.DecodeAction, orngwaxstate.DecodeTableRow},
	{"orngwaxv2", orngwaxv2.ABIJSON, orngwaxv2.NewValue, orngwaxv2.DecodeAction, orngwaxv2.DecodeTableRow},
	{"randreceiver", randreceiver.ABIJSON, randreceiver.NewValue, randreceiver.DecodeAction, randreceiver.DecodeTableRow},
	{"rexresults", rexresults.ABIJSON, rexresults.NewValue, rexresults.DecodeAction, rexresults.DecodeTableRow},
	{"springabiserializedetailederrormessages", springabiserializedetailederrormessages.ABIJSON, springabiserializedetailederrormessages.NewValue, springabiserializedetailederrormessages.DecodeAction, springabiserializedetailederrormessages.DecodeTableRow},
	{"springabiserializeincompletejsonarray", springabiserializeincompletejsonarray.ABIJSON, springabiserializeincompletejsonarray.NewValue, springabiserializeincompletejsonarray.DecodeAction, springabiserializeincompletejsonarray.DecodeTableRow},
	{"springabiserializeincompletejsonobject", springabiserializeincompletejsonobject.ABIJSON, springabiserializeincompletejsonobject.NewValue, springabiserializeincompletejsonobject.DecodeAction, springabiserializeincompletejsonobject.DecodeTableRow},
	{"springabiserializejsonemptyname", springabiserializejsonemptyname.ABIJSON, springabiserializejsonemptyname.NewValue, springabiserializejsonemptyname.DecodeAction, springabiserializejsonemptyname.DecodeTableRow},
	{"springabiserializejsonmismatchingtype", springabiserializejsonmismatchingtype.ABIJSON, springabiserializejsonmismatchingtype.NewValue, springabiserializejsonmismatchingtype.DecodeAction, springabiserializejsonmismatchingtype.DecodeTableRow},
	{"springaliasedvariants", springaliasedvariants.ABIJSON, springaliasedvariants.NewValue, springaliasedvariants.DecodeAction, springaliasedvariants.DecodeTableRow},
	{"springextendnos2", springextendnos2.ABIJSON, springextendnos2.NewValue, springextendnos2.DecodeAction, springextendnos2.DecodeTableRow},
	{"springserializeoptionalstructtype", springserializeoptionalstructtype.ABIJSON, springserializeoptionalstructtype.NewValue, springserializeoptionalstructtype.DecodeAction, springserializeoptionalstructtype.DecodeTableRow},
	{"springvariantofaliases", springvariantofaliases.ABIJSON, springvariantofaliases.NewValue, springvariantofaliases.DecodeAction, springvariantofaliases.DecodeTableRow},
	{"springvariants", springvariants.ABIJSON, springvariants.NewValue, springvariants.DecodeAction, springvariants.DecodeTableRow},
	{"tablekeys", tablekeys.ABIJSON, tablekeys.NewValue, tablekeys.DecodeAction, tablekeys.DecodeTableRow},
	{"randcontract", randcontract.ABIJSON, randcontract.NewValue, randcontract.DecodeAction, randcontract.DecodeTableRow},
}

// ByName returns the package called name, or nil.
func ByName(name string) *Package {
	for i := range All {
		if All[i].Name == name {
			return &All[i]
		}
	}
	return nil
}
