package chaintest

import (
	"encoding/json"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
)

// chainView is the chain as the chain API's read handlers read it
// (nodeosapi.Chain): its blocks, accounts and contracts, and execution's
// authority check for get_required_keys. The sends are not here: they are
// sendapi.go's, executed by internal/exec.
type chainView struct{ tablesView }

func (v chainView) ChainID() antelope.Checksum256 { return v.c.engine.ChainID }
func (v chainView) FirstBlock() uint32            { return v.c.opts.firstBlock }
func (v chainView) Head() nodeosapi.Block         { return apiBlock(&v.c.blocks[len(v.c.blocks)-1]) }
func (v chainView) Irreversible() nodeosapi.Block { return apiBlock(v.c.block(v.c.lastIrreversible())) }

func (v chainView) Block(num uint32) (nodeosapi.Block, bool) {
	b := v.c.block(num)
	if b == nil {
		return nodeosapi.Block{}, false
	}
	return apiBlock(b), true
}

func (v chainView) BlockByID(id antelope.Checksum256) (nodeosapi.Block, bool) {
	var b *Block
	for i := range v.c.blocks {
		if v.c.blocks[i].ID == id {
			b = &v.c.blocks[i]
		}
	}
	if b == nil {
		return nodeosapi.Block{}, false
	}
	return apiBlock(b), true
}

func apiBlock(b *Block) nodeosapi.Block {
	return nodeosapi.Block{Num: b.Num, ID: b.ID, Previous: b.Previous, Time: b.Time}
}

func (v chainView) BlockTransactions(num uint32) []any {
	txs := []any{}
	for _, tx := range v.c.blocklog.Records[v.c.index(num)].Txs {
		cpu, net, _ := tx.trx.Usage()
		txs = append(txs, map[string]any{"status": "executed", "cpu_usage_us": cpu, "net_usage_words": net, "trx": receiptTrx(tx)})
	}
	return txs
}

func (v chainView) AccountExists(n antelope.Name) bool { return v.c.engine.Account(n) != nil }

func (v chainView) Account(n antelope.Name) (nodeosapi.Account, bool) {
	a := v.c.engine.Account(n)
	if a == nil {
		return nodeosapi.Account{}, false
	}
	linked := a.LinkedActions()
	out := nodeosapi.Account{Name: a.Name, Privileged: a.Privileged, RAMQuota: a.RAMQuota, RAMUsage: a.RAMUsage,
		NetWeight: a.NETWeight, CPUWeight: a.CPUWeight,
		NetLimit: a.Res.NETLimit, NetUsed: a.Res.NETUsed, CPULimit: a.Res.CPULimit, CPUUsed: a.Res.CPUUsed,
		Created: a.Created, LastCodeUpdate: a.LastCodeUpdate, EosioAnyLinked: linked[exec.NameEosioAny]}
	for _, p := range a.Perms {
		out.Permissions = append(out.Permissions, nodeosapi.Permission{Name: p.Name, Parent: p.Parent, Auth: p.Auth, LinkedActions: linked[p.Name]})
	}
	return out, true
}

func (v chainView) Contract(n antelope.Name) (nodeosapi.Contract, bool) {
	ct := v.c.engine.Contract(n)
	if ct == nil {
		return nodeosapi.Contract{}, false
	}
	var abi json.RawMessage
	if ct.ABI != nil {
		abi = json.RawMessage(ct.ABI)
	}
	return nodeosapi.Contract{ABI: abi, PackedABI: ct.Packed(), Code: ct.Code, CodeHash: ct.CodeHash}, true
}

// RequiredKeys weighs the available keys against each action's declared
// authorizations, as nodeos's get_required_keys does.
func (v chainView) RequiredKeys(tx *antelope.Transaction, available []antelope.PublicKey) ([]antelope.PublicKey, int, any) {
	ac := &exec.AuthChecker{Engine: v.c.engine, Keys: available, Used: map[int]bool{}}
	for i, a := range tx.Actions {
		if err := v.c.engine.CheckDeclaredPermissions(&tx.Actions[i]); err != nil {
			if e, ok := err.(*exec.Exception); ok {
				status, out := e.Answer()
				return nil, status, out
			}
			status, out := badRequest(err.Error())
			return nil, status, out
		}
		for _, l := range a.Authorization {
			if !ac.Satisfied(l, 0) {
				status, out := exec.ErrUnsatisfied("transaction declares authority '" + exec.LevelText(l) + "', but does not have signatures for it.").Answer()
				return nil, status, out
			}
		}
	}
	out := []antelope.PublicKey{}
	for i, k := range available {
		if ac.Used[i] {
			out = append(out, k)
		}
	}
	return out, 0, nil
}

func (v chainView) TransactionBlock(id antelope.Checksum256) (uint32, bool) {
	num, ok := v.c.seen[id]
	return num, ok
}

func (v chainView) TransactionStatusEnabled() bool { return !v.c.opts.noStatus }

// receiptTrx is a block receipt's trx as nodeos's get_block prints an input
// transaction: the packed transaction with its id, and the transaction
// itself (action data as hex: nodeos decodes it with the contract's ABI
// where it can, adding hex_data).
func receiptTrx(tx *committedTx) map[string]any {
	p := &tx.packed
	out := map[string]any{
		"id": tx.trx.ID, "signatures": p.Signatures, "compression": p.Compression.String(),
		"packed_context_free_data": antelope.Bytes(p.PackedContextFreeData), "context_free_data": []any{},
		"packed_trx": antelope.Bytes(p.PackedTrx),
	}
	if st, err := p.Unpack(); err == nil {
		out["transaction"] = &st.Transaction
		cfd := make([]antelope.Bytes, len(st.ContextFreeData))
		for i, d := range st.ContextFreeData {
			cfd[i] = d
		}
		out["context_free_data"] = cfd
	}
	return out
}
