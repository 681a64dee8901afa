package bench

import (
	"github.com/antelopego/abigen/antelope"
)

// Hand-written codecs, written against the runtime the way a careful person
// would write them without a generator: the baseline for generated code.

// handJobsA is orng.wax's jobs_a row.
type handJobsA struct {
	ID, AssocID, SigningValue uint64
	Caller                    antelope.Name
}

func (j *handJobsA) appendBinary(b []byte) []byte {
	b = antelope.AppendUint64(b, j.ID)
	b = antelope.AppendUint64(b, j.AssocID)
	b = antelope.AppendUint64(b, j.SigningValue)
	return antelope.AppendUint64(b, uint64(j.Caller))
}

func (j *handJobsA) decodeBinary(d *antelope.Decoder) (err error) {
	if j.ID, err = d.Uint64(); err != nil {
		return antelope.AtField(err, "id")
	}
	if j.AssocID, err = d.Uint64(); err != nil {
		return antelope.AtField(err, "assoc_id")
	}
	if j.SigningValue, err = d.Uint64(); err != nil {
		return antelope.AtField(err, "signing_value")
	}
	return antelope.AtField(j.Caller.DecodeBinary(d), "caller")
}

// handTransfer is eosio.token's transfer.
type handTransfer struct {
	From, To antelope.Name
	Quantity antelope.Asset
	Memo     string
}

func (t *handTransfer) appendBinary(b []byte) ([]byte, error) {
	b = antelope.AppendUint64(b, uint64(t.From))
	b = antelope.AppendUint64(b, uint64(t.To))
	b, err := t.Quantity.AppendBinary(b)
	if err != nil {
		return b, antelope.AtField(err, "quantity")
	}
	b, err = antelope.AppendString(b, t.Memo)
	return b, antelope.AtField(err, "memo")
}

func (t *handTransfer) decodeBinary(d *antelope.Decoder) (err error) {
	if err = t.From.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "from")
	}
	if err = t.To.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "to")
	}
	if err = t.Quantity.DecodeBinary(d); err != nil {
		return antelope.AtField(err, "quantity")
	}
	t.Memo, err = d.String()
	return antelope.AtField(err, "memo")
}

// handParams is eosio.system's blockchain_parameters_v1: sixteen integers
// and a binary extension.
type handParams struct {
	MaxBlockNetUsage                                                               uint64
	TargetBlockNetUsagePct, MaxTransactionNetUsage, BasePerTransactionNetUsage     uint32
	NetUsageLeeway, ContextFreeDiscountNetUsageNum, ContextFreeDiscountNetUsageDen uint32
	MaxBlockCPUUsage, TargetBlockCPUUsagePct, MaxTransactionCPUUsage               uint32
	MinTransactionCPUUsage, MaxTransactionLifetime, DeferredTrxExpirationWindow    uint32
	MaxTransactionDelay, MaxInlineActionSize                                       uint32
	MaxInlineActionDepth, MaxAuthorityDepth                                        uint16
	MaxActionReturnValueSize                                                       uint32
	HasMaxActionReturnValueSize                                                    bool
}

func (p *handParams) appendBinary(b []byte) []byte {
	b = antelope.AppendUint64(b, p.MaxBlockNetUsage)
	for _, v := range [...]uint32{p.TargetBlockNetUsagePct, p.MaxTransactionNetUsage, p.BasePerTransactionNetUsage,
		p.NetUsageLeeway, p.ContextFreeDiscountNetUsageNum, p.ContextFreeDiscountNetUsageDen, p.MaxBlockCPUUsage,
		p.TargetBlockCPUUsagePct, p.MaxTransactionCPUUsage, p.MinTransactionCPUUsage, p.MaxTransactionLifetime,
		p.DeferredTrxExpirationWindow, p.MaxTransactionDelay, p.MaxInlineActionSize} {
		b = antelope.AppendUint32(b, v)
	}
	b = antelope.AppendUint16(b, p.MaxInlineActionDepth)
	b = antelope.AppendUint16(b, p.MaxAuthorityDepth)
	if p.HasMaxActionReturnValueSize {
		b = antelope.AppendUint32(b, p.MaxActionReturnValueSize)
	}
	return b
}

func (p *handParams) decodeBinary(d *antelope.Decoder) (err error) {
	if p.MaxBlockNetUsage, err = d.Uint64(); err != nil {
		return err
	}
	for _, f := range [...]*uint32{&p.TargetBlockNetUsagePct, &p.MaxTransactionNetUsage, &p.BasePerTransactionNetUsage,
		&p.NetUsageLeeway, &p.ContextFreeDiscountNetUsageNum, &p.ContextFreeDiscountNetUsageDen, &p.MaxBlockCPUUsage,
		&p.TargetBlockCPUUsagePct, &p.MaxTransactionCPUUsage, &p.MinTransactionCPUUsage, &p.MaxTransactionLifetime,
		&p.DeferredTrxExpirationWindow, &p.MaxTransactionDelay, &p.MaxInlineActionSize} {
		if *f, err = d.Uint32(); err != nil {
			return err
		}
	}
	if p.MaxInlineActionDepth, err = d.Uint16(); err != nil {
		return err
	}
	if p.MaxAuthorityDepth, err = d.Uint16(); err != nil {
		return err
	}
	p.HasMaxActionReturnValueSize = d.Remaining() > 0
	if p.HasMaxActionReturnValueSize {
		p.MaxActionReturnValueSize, err = d.Uint32()
	}
	return err
}
