package bench

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/randcontract"
	"github.com/antelopego/abigen/golden/atomicassets"
	"github.com/antelopego/abigen/golden/eosio"
	"github.com/antelopego/abigen/golden/eosiotoken"
	eos "github.com/eoscanada/eos-go"
)

// The same values in every representation, so each benchmark compares like
// with like. TestSameBytes checks that all representations encode alike.

func mustAsset(s string) antelope.Asset {
	a, err := antelope.ParseAsset(s)
	if err != nil {
		panic(err)
	}
	return a
}

var (
	genJobs  = randcontract.JobsA{ID: 1234567, AssocID: 42, SigningValue: 0xdeadbeefcafe, Caller: antelope.MustName("orng.wax")}
	handJobs = handJobsA{ID: 1234567, AssocID: 42, SigningValue: 0xdeadbeefcafe, Caller: antelope.MustName("orng.wax")}
	eosJobs  = eosgoJobsA{ID: 1234567, AssocID: 42, SigningValue: 0xdeadbeefcafe, Caller: "orng.wax"}

	genTransfer = eosiotoken.Transfer{From: antelope.MustName("useraaaaaaaa"), To: antelope.MustName("useraaaaaaab"),
		Quantity: mustAsset("1.0000 EOS"), Memo: "benchmark memo"}
	handTransfer_ = handTransfer{From: antelope.MustName("useraaaaaaaa"), To: antelope.MustName("useraaaaaaab"),
		Quantity: mustAsset("1.0000 EOS"), Memo: "benchmark memo"}
	eosTransfer = eosgoTransfer{From: "useraaaaaaaa", To: "useraaaaaaab",
		Quantity: eos.Asset{Amount: 10000, Symbol: eos.Symbol{Precision: 4, Symbol: "EOS"}}, Memo: "benchmark memo"}
)

var paramsBase = eosio.BlockchainParameters{
	MaxBlockNetUsage: 1048576, TargetBlockNetUsagePct: 1000, MaxTransactionNetUsage: 524288,
	BasePerTransactionNetUsage: 12, NetUsageLeeway: 500, ContextFreeDiscountNetUsageNum: 20,
	ContextFreeDiscountNetUsageDen: 100, MaxBlockCPUUsage: 200000, TargetBlockCPUUsagePct: 1000,
	MaxTransactionCPUUsage: 150000, MinTransactionCPUUsage: 100, MaxTransactionLifetime: 3600,
	DeferredTrxExpirationWindow: 600, MaxTransactionDelay: 3888000, MaxInlineActionSize: 524288,
	MaxInlineActionDepth: 4, MaxAuthorityDepth: 6,
}

var (
	genParams   = eosio.BlockchainParametersV1{BlockchainParameters: paramsBase, MaxActionReturnValueSize: antelope.NewExt(uint32(256))}
	handParams_ = handParams{MaxBlockNetUsage: 1048576, TargetBlockNetUsagePct: 1000, MaxTransactionNetUsage: 524288,
		BasePerTransactionNetUsage: 12, NetUsageLeeway: 500, ContextFreeDiscountNetUsageNum: 20,
		ContextFreeDiscountNetUsageDen: 100, MaxBlockCPUUsage: 200000, TargetBlockCPUUsagePct: 1000,
		MaxTransactionCPUUsage: 150000, MinTransactionCPUUsage: 100, MaxTransactionLifetime: 3600,
		DeferredTrxExpirationWindow: 600, MaxTransactionDelay: 3888000, MaxInlineActionSize: 524288,
		MaxInlineActionDepth: 4, MaxAuthorityDepth: 6, MaxActionReturnValueSize: 256, HasMaxActionReturnValueSize: true}
	eosParams = eosgoParams{MaxBlockNetUsage: 1048576, TargetBlockNetUsagePct: 1000, MaxTransactionNetUsage: 524288,
		BasePerTransactionNetUsage: 12, NetUsageLeeway: 500, ContextFreeDiscountNetUsageNum: 20,
		ContextFreeDiscountNetUsageDen: 100, MaxBlockCPUUsage: 200000, TargetBlockCPUUsagePct: 1000,
		MaxTransactionCPUUsage: 150000, MinTransactionCPUUsage: 100, MaxTransactionLifetime: 3600,
		DeferredTrxExpirationWindow: 600, MaxTransactionDelay: 3888000, MaxInlineActionSize: 524288,
		MaxInlineActionDepth: 4, MaxAuthorityDepth: 6, MaxActionReturnValueSize: 256}
)

// The atomicassets variant's alternatives, by shorter names.
type (
	attrString    = atomicassets.VariantInt8Int16Int32Int64Uint8Uint16Uint32Uint64Float32Float64StringINT8VECINT16VECINT32VECINT64VECUINT8VECUINT16VECUINT32VECUINT64VECFLOATVECDOUBLEVECSTRINGVECString
	attrU64       = atomicassets.VariantInt8Int16Int32Int64Uint8Uint16Uint32Uint64Float32Float64StringINT8VECINT16VECINT32VECINT64VECUINT8VECUINT16VECUINT32VECUINT64VECFLOATVECDOUBLEVECSTRINGVECUint64
	attrF64       = atomicassets.VariantInt8Int16Int32Int64Uint8Uint16Uint32Uint64Float32Float64StringINT8VECINT16VECINT32VECINT64VECUINT8VECUINT16VECUINT32VECUINT64VECFLOATVECDOUBLEVECSTRINGVECFloat64
	attrStringVec = atomicassets.VariantInt8Int16Int32Int64Uint8Uint16Uint32Uint64Float32Float64StringINT8VECINT16VECINT32VECINT64VECUINT8VECUINT16VECUINT32VECUINT64VECFLOATVECDOUBLEVECSTRINGVECSTRINGVEC
)

func genAttr(k string, v atomicassets.VariantInt8Int16Int32Int64Uint8Uint16Uint32Uint64Float32Float64StringINT8VECINT16VECINT32VECINT64VECUINT8VECUINT16VECUINT32VECUINT64VECFLOATVECDOUBLEVECSTRINGVECValue) atomicassets.PairStringATOMICATTRIBUTE {
	return atomicassets.PairStringATOMICATTRIBUTE{First: k, Second: atomicassets.ATOMICATTRIBUTE{Value: v}}
}

var (
	genMint = atomicassets.Mintasset{
		AuthorizedMinter: antelope.MustName("minter.wam"), CollectionName: antelope.MustName("alien.worlds"),
		SchemaName: antelope.MustName("tool.worlds"), TemplateID: 19553, NewAssetOwner: antelope.MustName("abcde.wam"),
		ImmutableData: atomicassets.ATTRIBUTEMAP{
			genAttr("name", attrString("Standard Shovel")), genAttr("img", attrString("QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG")),
			genAttr("rarity", attrString("Abundant")), genAttr("level", attrU64(1)), genAttr("ease", attrF64(12.5)),
		},
		MutableData: atomicassets.ATTRIBUTEMAP{
			genAttr("xp", attrU64(1200)), genAttr("tags", attrStringVec{"mining", "tool"}),
		},
		TokensToBack: []antelope.Asset{mustAsset("1.0000 TLM")},
	}
	handMint_ = handMint{
		AuthorizedMinter: antelope.MustName("minter.wam"), CollectionName: antelope.MustName("alien.worlds"),
		SchemaName: antelope.MustName("tool.worlds"), TemplateID: 19553, NewAssetOwner: antelope.MustName("abcde.wam"),
		ImmutableData: []handAttr{
			{"name", "Standard Shovel"}, {"img", "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"},
			{"rarity", "Abundant"}, {"level", uint64(1)}, {"ease", 12.5},
		},
		MutableData:  []handAttr{{"xp", uint64(1200)}, {"tags", []string{"mining", "tool"}}},
		TokensToBack: []antelope.Asset{mustAsset("1.0000 TLM")},
	}
)
