package bench

import eos "github.com/eoscanada/eos-go"

// The same types for eos-go, which encodes them by reflection. eos-go cannot
// express the atomicassets ATOMIC_ATTRIBUTE variant without hand-written
// code, so that case has no eos-go column.

type eosgoJobsA struct {
	ID           uint64
	AssocID      uint64
	SigningValue uint64
	Caller       eos.Name
}

type eosgoTransfer struct {
	From     eos.AccountName
	To       eos.AccountName
	Quantity eos.Asset
	Memo     string
}

type eosgoParams struct {
	MaxBlockNetUsage               uint64
	TargetBlockNetUsagePct         uint32
	MaxTransactionNetUsage         uint32
	BasePerTransactionNetUsage     uint32
	NetUsageLeeway                 uint32
	ContextFreeDiscountNetUsageNum uint32
	ContextFreeDiscountNetUsageDen uint32
	MaxBlockCPUUsage               uint32
	TargetBlockCPUUsagePct         uint32
	MaxTransactionCPUUsage         uint32
	MinTransactionCPUUsage         uint32
	MaxTransactionLifetime         uint32
	DeferredTrxExpirationWindow    uint32
	MaxTransactionDelay            uint32
	MaxInlineActionSize            uint32
	MaxInlineActionDepth           uint16
	MaxAuthorityDepth              uint16
	MaxActionReturnValueSize       uint32 `eos:"binary_extension"`
}
