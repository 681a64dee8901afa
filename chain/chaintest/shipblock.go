package chaintest

import (
	"cmp"
	"slices"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/blocklog"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// Blocks as state history serves them: the signed block and the traces,
// encoded with ship/protocol's types (generated from the state-history
// ABI) in the shapes spring writes them; the deltas are internal/blocklog's (deltas.go).

// shipBlock is block num as state history serves it, made on first
// request and kept (c.mu held).
func (c *Chain) shipBlock(num uint32) shiptest.Block {
	i := c.index(num)
	r := &c.blocklog.Records[i]
	if r.Encoded == nil {
		b := c.blocks[i]
		out := shiptest.Block{Num: b.Num, ID: b.ID, Previous: b.Previous, Timestamp: blocklog.Timestamp(b.Time), Producer: exec.NameEosio}
		out.SignedBlock = blocklog.MustMarshal(c.signedBlock(b, r))
		out.Traces = blocklog.EncodeList(shipTraces(r))
		out.Deltas = blocklog.EncodeList(c.shipDeltas(num, r))
		r.Encoded = &out
	}
	return *r.Encoded
}

// signedBlock is the block's signed_block: its header (producer eosio, no
// merkle roots, schedule version 0, as get_block reports it), a K1
// signature of zeros, and its transaction as sent.
func (c *Chain) signedBlock(b Block, r *blockRecord) *protocol.SignedBlock {
	sb := &protocol.SignedBlock{SignedBlockHeader: protocol.SignedBlockHeader{
		BlockHeader: protocol.BlockHeader{Timestamp: blocklog.Timestamp(b.Time), Producer: exec.NameEosio, Previous: b.Previous,
			HeaderExtensions: []protocol.Extension{}},
		ProducerSignature: antelope.Signature{Type: antelope.KeyK1, Data: make([]byte, 65)}},
		Transactions: []protocol.TransactionReceipt{}, BlockExtensions: []protocol.Extension{}}
	for _, tx := range r.Txs {
		cpu, net, _ := tx.trx.Usage()
		p := tx.packed
		sb.Transactions = append(sb.Transactions, protocol.TransactionReceipt{
			TransactionReceiptHeader: protocol.TransactionReceiptHeader{CPUUsageUs: cpu, NetUsageWords: antelope.VarUint32(net)},
			Trx: protocol.TransactionVariant{Value: &protocol.PackedTransaction{Signatures: blocklog.NonNil(p.Signatures),
				Compression: uint8(p.Compression), PackedContextFreeData: blocklog.NonNil(p.PackedContextFreeData), PackedTrx: p.PackedTrx}}})
	}
	return sb
}

// shipTraces is the block's transaction_trace[]: each transaction as
// spring's trace converter writes it (transaction_trace_v0 with its
// partial transaction; action_trace_v1 by action ordinal), in debug mode
// (elapsed times and console kept).
func shipTraces(r *blockRecord) []*protocol.TransactionTrace {
	out := make([]*protocol.TransactionTrace, 0, len(r.Txs))
	for _, tx := range r.Txs {
		t := tx.trx
		cpu, net, elapsed := t.Usage()
		acts := make([]protocol.ActionTrace, 0, len(t.Traces))
		for _, tr := range t.Traces {
			acts = append(acts, protocol.ActionTrace{Value: shipActionTrace(tr)})
		}
		signed := t.Tx
		cfd := make([][]byte, len(signed.ContextFreeData))
		copy(cfd, signed.ContextFreeData)
		exts := make([]protocol.Extension, 0, len(signed.Extensions))
		for _, e := range signed.Extensions {
			exts = append(exts, protocol.Extension{Type: e.Type, Data: e.Data})
		}
		partial := &protocol.PartialTransactionV0{Expiration: signed.Expiration, RefBlockNum: signed.RefBlockNum,
			RefBlockPrefix: signed.RefBlockPrefix, MaxNetUsageWords: antelope.VarUint32(signed.MaxNetUsageWords),
			MaxCPUUsageMs: signed.MaxCPUUsageMS, DelaySec: antelope.VarUint32(signed.DelaySec), TransactionExtensions: exts,
			Signatures: blocklog.NonNil(signed.Signatures), ContextFreeData: cfd}
		out = append(out, &protocol.TransactionTrace{Value: &protocol.TransactionTraceV0{ID: t.ID, CPUUsageUs: cpu,
			NetUsageWords: antelope.VarUint32(net), Elapsed: elapsed, NetUsage: uint64(net) * 8, ActionTraces: acts,
			Partial: &protocol.PartialTransaction{Value: partial}}})
	}
	return out
}

func shipActionTrace(tr *exec.ActionTrace) *protocol.ActionTraceV1 {
	auth := make([]protocol.PermissionLevel, 0, len(tr.Action.Authorization))
	for _, l := range tr.Action.Authorization {
		auth = append(auth, protocol.PermissionLevel{Actor: l.Actor, Permission: l.Permission})
	}
	ram := make([]protocol.AccountDelta, 0, len(tr.RAMDeltas))
	for n, d := range tr.RAMDeltas {
		if d != 0 {
			ram = append(ram, protocol.AccountDelta{Account: n, Delta: d})
		}
	}
	slices.SortFunc(ram, func(a, b protocol.AccountDelta) int { return cmp.Compare(a.Account, b.Account) })
	out := &protocol.ActionTraceV1{ActionOrdinal: antelope.VarUint32(tr.Ordinal), CreatorActionOrdinal: antelope.VarUint32(tr.Creator),
		Receiver: tr.Receiver, Act: protocol.Action{Account: tr.Action.Account, Name: tr.Action.Name, Authorization: auth,
			Data: blocklog.NonNil(tr.Action.Data)},
		ContextFree: tr.ContextFree, Elapsed: tr.Elapsed.Microseconds(), Console: tr.Console.String(), AccountRAMDeltas: ram,
		ReturnValue: blocklog.NonNil(tr.ReturnValue)}
	if tr.GlobalSeq != 0 {
		seqs := make([]protocol.AccountAuthSequence, 0, len(tr.Seq.Auth))
		for _, a := range tr.Seq.Auth {
			seqs = append(seqs, protocol.AccountAuthSequence{Account: a.Account, Sequence: a.Seq})
		}
		out.Receipt = &protocol.ActionReceipt{Value: &protocol.ActionReceiptV0{Receiver: tr.Receiver,
			ActDigest: tr.Seq.Digest, GlobalSequence: tr.GlobalSeq, RecvSequence: tr.Seq.Recv, AuthSequence: seqs,
			CodeSequence: antelope.VarUint32(tr.Seq.Code), ABISequence: antelope.VarUint32(tr.Seq.ABI)}}
	}
	return out
}

// shipDeltas is block num's table_delta[] (the chain's first block: the
// whole state, but for a fork).
func (c *Chain) shipDeltas(num uint32, r *blockRecord) []*protocol.TableDelta {
	i := c.index(num)
	before := store.New()
	if i > 0 {
		before = c.history[i-1]
	}
	after := c.history[i]
	if i == 0 && c.fork != nil {
		// A fork's first block changes nothing: the live chain's state it
		// starts from is fetched as it is touched, and is not its to send.
		before = after
	}
	return blocklog.Deltas(before, after, r.Accounts)
}
