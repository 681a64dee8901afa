package shiptest

import (
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// Action is an action to put in a block's traces.
type Action struct {
	Contract antelope.Name // act.account
	Name     antelope.Name // the action

	Receiver      antelope.Name              // 0: Contract (a notification has another receiver)
	Authorization []antelope.PermissionLevel // act.authorization
	Data          []byte                     // the packed action data
	ReturnValue   []byte                     // its return value (action_trace_v1)
	Console       []byte                     // what it printed
	NoReceipt     bool                       // the action did not execute
}

// Transaction is a transaction trace: its actions, in execution order.
type Transaction struct {
	ID      antelope.Checksum256 // zero: derived from the block and position
	Status  uint8                // 0: executed
	Actions []Action             // in execution order
}

// Row is a change to a contract table row, for a block's deltas.
type Row struct {
	Removed    bool          // the row was erased (Value is its old value)
	Code       antelope.Name // the contract
	Scope      antelope.Name // the scope
	Table      antelope.Name // the table
	PrimaryKey uint64        // the primary key
	Payer      antelope.Name // the RAM payer
	Value      []byte        // the packed row
}

// ABIChange is a setabi's effect on an account, for a block's deltas (an
// account delta).
type ABIChange struct {
	Account antelope.Name // the account whose ABI changed

	ABI []byte // packed, as on chain
}

// EncodeTraces returns the transaction_trace[] of txs, as nodeos writes it
// (action_trace_v1), with global sequences counting from firstSequence.
// Transaction ids that are zero are filled from salt and position.
func EncodeTraces(firstSequence uint64, salt uint32, txs ...Transaction) []byte {
	out := make([]protocol.TransactionTrace, len(txs))
	seq := firstSequence
	for i, tx := range txs {
		id := tx.ID
		if id == (antelope.Checksum256{}) {
			id = antelope.Checksum256{byte(salt >> 24), byte(salt >> 16), byte(salt >> 8), byte(salt), byte(i)}
			id[31] = 0x7f
		}
		acts := make([]protocol.ActionTrace, len(tx.Actions))
		for j, a := range tx.Actions {
			recv := a.Receiver
			if recv == 0 {
				recv = a.Contract
			}
			auth := make([]protocol.PermissionLevel, len(a.Authorization))
			for k, p := range a.Authorization {
				auth[k] = protocol.PermissionLevel{Actor: p.Actor, Permission: p.Permission}
			}
			tr := &protocol.ActionTraceV1{ActionOrdinal: antelope.VarUint32(j + 1), Receiver: recv,
				Act:     protocol.Action{Account: a.Contract, Name: a.Name, Authorization: auth, Data: nonNil(a.Data)},
				Console: string(a.Console), AccountRAMDeltas: []protocol.AccountDelta{}, ReturnValue: nonNil(a.ReturnValue)}
			if j > 0 {
				tr.CreatorActionOrdinal = 1
			}
			if !a.NoReceipt {
				seq++
				tr.Receipt = &protocol.ActionReceipt{Value: &protocol.ActionReceiptV0{Receiver: recv, GlobalSequence: seq,
					RecvSequence: seq, AuthSequence: []protocol.AccountAuthSequence{}}}
			}
			acts[j] = protocol.ActionTrace{Value: tr}
		}
		out[i] = protocol.TransactionTrace{Value: &protocol.TransactionTraceV0{ID: id, Status: tx.Status, ActionTraces: acts}}
	}
	b := antelope.AppendVarUint32(nil, uint32(len(out)))
	for i := range out {
		b, _ = out[i].AppendBinary(b)
	}
	return b
}

// EncodeDeltas returns the table_delta[] of the given contract-row changes
// and ABI changes, grouped by table as nodeos groups them.
func EncodeDeltas(rows []Row, abis []ABIChange) []byte {
	var deltas []protocol.TableDelta
	if len(abis) > 0 {
		d := &protocol.TableDeltaV0{Name: "account"}
		for _, a := range abis {
			v := protocol.Account{Value: &protocol.AccountV0{Name: a.Account, ABI: nonNil(a.ABI)}}
			data, _ := v.MarshalBinary()
			d.Rows = append(d.Rows, protocol.Row{Present: true, Data: data})
		}
		deltas = append(deltas, protocol.TableDelta{Value: d})
	}
	if len(rows) > 0 {
		d := &protocol.TableDeltaV0{Name: "contract_row"}
		for _, r := range rows {
			v := protocol.ContractRow{Value: &protocol.ContractRowV0{Code: r.Code, Scope: r.Scope, Table: r.Table,
				PrimaryKey: r.PrimaryKey, Payer: r.Payer, Value: nonNil(r.Value)}}
			data, _ := v.MarshalBinary()
			d.Rows = append(d.Rows, protocol.Row{Present: !r.Removed, Data: data})
		}
		deltas = append(deltas, protocol.TableDelta{Value: d})
	}
	b := antelope.AppendVarUint32(nil, uint32(len(deltas)))
	for i := range deltas {
		b, _ = deltas[i].AppendBinary(b)
	}
	return b
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
