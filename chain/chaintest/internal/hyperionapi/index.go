package hyperionapi

import (
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/antelopego/abigen/abicodec"
	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// What a Hyperion indexer makes of the chain's blocks: one document per
// action (its notifications' receipts merged into it, as Hyperion 4.0.7's
// regroupActions leaves them), one per contract row change, with the data
// deserialized by the ABI the contract had in that block, or kept as hex
// when it could not be, and Hyperion's rewrites applied
// (rewrite.go). The documents are rebuilt from the blocks of the
// current branch, so a fork's undone items disappear.

// hyAction is an action document as get_actions answers it.
type hyAction struct {
	Timestamp            string          `json:"@timestamp"`
	Timestamp2           string          `json:"timestamp"`
	BlockNum             uint32          `json:"block_num"`
	BlockID              string          `json:"block_id"`
	TrxID                string          `json:"trx_id"`
	Act                  hyAct           `json:"act"`
	Receipts             []hyReceipt     `json:"receipts"`
	CPUUsageUs           uint32          `json:"cpu_usage_us"`
	NetUsageWords        uint32          `json:"net_usage_words"`
	AccountRAMDeltas     []hyRAMDelta    `json:"account_ram_deltas,omitempty"`
	GlobalSequence       uint64          `json:"global_sequence"`
	Producer             string          `json:"producer"`
	ActionOrdinal        uint32          `json:"action_ordinal"`
	CreatorActionOrdinal uint32          `json:"creator_action_ordinal"`
	Signatures           []string        `json:"signatures,omitempty"`
	notified             []antelope.Name // receivers, for account=
	actors               []antelope.Name
}

type hyAct struct {
	Account       string          `json:"account"`
	Name          string          `json:"name"`
	Authorization []hyPermission  `json:"authorization"`
	Data          json.RawMessage `json:"data"`
}

type hyPermission struct {
	Actor      string `json:"actor"`
	Permission string `json:"permission"`
}

type hyReceipt struct {
	Receiver       string           `json:"receiver"`
	GlobalSequence uint64           `json:"global_sequence"`
	RecvSequence   uint64           `json:"recv_sequence"`
	AuthSequence   []hyAuthSequence `json:"auth_sequence"`
}

type hyAuthSequence struct {
	Account  string `json:"account"`
	Sequence uint64 `json:"sequence"`
}

type hyRAMDelta struct {
	Account string `json:"account"`
	Delta   int64  `json:"delta"`
}

// hyDelta is a contract row document as get_deltas answers it.
type hyDelta struct {
	Timestamp  string          `json:"timestamp"`
	Present    int             `json:"present"`
	Code       string          `json:"code"`
	Scope      string          `json:"scope"`
	Table      string          `json:"table"`
	PrimaryKey string          `json:"primary_key"`
	Payer      string          `json:"payer"`
	BlockNum   uint32          `json:"block_num"`
	BlockID    string          `json:"block_id"`
	Data       json.RawMessage `json:"data,omitempty"`
	Value      string          `json:"value,omitempty"`
	key        [4]uint64
}

// hyBlock is one block's documents, with the ABIs it set.
type hyBlock struct {
	id      antelope.Checksum256
	time    time.Time
	actions []hyAction
	deltas  []hyDelta
	abis    map[antelope.Name][]byte // packed; empty: removed
}

// hyTime is Hyperion's @timestamp: ISO 8601, milliseconds, no zone.
func hyTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }

// indexBlock makes block b's documents, with abis the ABIs in force
// before it (which it updates).
func indexBlock(b shiptest.Block, abis map[antelope.Name]*abicodec.Codec, v4 bool) hyBlock {
	out := hyBlock{id: b.ID, time: b.Timestamp.Time(), abis: map[antelope.Name][]byte{}}
	ts := hyTime(out.time)
	id := hex.EncodeToString(b.ID[:])
	deltas := decodeList[protocol.TableDelta](b.Deltas)
	for _, td := range deltas {
		d, ok := td.Value.(*protocol.TableDeltaV0)
		if !ok || d.Name != "account" {
			continue
		}
		for _, row := range d.Rows {
			var a protocol.Account
			if !row.Present || antelope.UnmarshalBinary(row.Data, &a) != nil {
				continue
			}
			if v, ok := a.Value.(*protocol.AccountV0); ok {
				out.abis[v.Name] = v.ABI
				if c, err := abicodec.New(v.ABI); err == nil && len(v.ABI) > 0 {
					abis[v.Name] = c
				} else {
					delete(abis, v.Name)
				}
			}
		}
	}
	for _, tt := range decodeList[protocol.TransactionTrace](b.Traces) {
		tx, ok := tt.Value.(*protocol.TransactionTraceV0)
		if !ok || tx.Status != 0 {
			continue // Hyperion indexes executed transactions
		}
		out.actions = append(out.actions, indexTransaction(tx, abis, b.Num, ts, id, b.Producer)...)
	}
	for _, td := range deltas {
		d, ok := td.Value.(*protocol.TableDeltaV0)
		if !ok || d.Name != "contract_row" {
			continue
		}
		for _, row := range d.Rows {
			var cr protocol.ContractRow
			if antelope.UnmarshalBinary(row.Data, &cr) != nil {
				continue
			}
			r, ok := cr.Value.(*protocol.ContractRowV0)
			if !ok || !row.Present && v4 {
				continue // Hyperion 4 indexes no removal
			}
			doc := hyDelta{Timestamp: ts, Code: r.Code.String(), Scope: r.Scope.String(), Table: r.Table.String(),
				PrimaryKey: uintText(r.PrimaryKey), Payer: r.Payer.String(), BlockNum: b.Num, BlockID: id,
				key: [4]uint64{uint64(r.Code), uint64(r.Scope), uint64(r.Table), r.PrimaryKey}}
			if row.Present {
				doc.Present = 1
			}
			if c := abis[r.Code]; c != nil {
				if j, err := c.TableJSON(r.Table, r.Value); err == nil {
					doc.Data = rewriteRow(r.Table, j)
				}
			}
			if doc.Data == nil {
				doc.Value = hex.EncodeToString(r.Value)
			}
			out.deltas = append(out.deltas, doc)
		}
	}
	return out
}

// indexTransaction makes the documents of a transaction's actions.
func indexTransaction(tx *protocol.TransactionTraceV0, abis map[antelope.Name]*abicodec.Codec, num uint32, ts, blockID string, producer antelope.Name) []hyAction {
	var docs []hyAction
	byOrdinal := map[uint32]int{} // action ordinal → its document
	traces := map[uint32]*protocol.ActionTraceV1{}
	for _, at := range tx.ActionTraces {
		t := actionTraceV1(at)
		if t == nil || t.Receipt == nil {
			continue
		}
		traces[uint32(t.ActionOrdinal)] = t
		r, ok := t.Receipt.Value.(*protocol.ActionReceiptV0)
		if !ok {
			continue
		}
		receipt := hyReceipt{Receiver: r.Receiver.String(), GlobalSequence: r.GlobalSequence, RecvSequence: r.RecvSequence, AuthSequence: []hyAuthSequence{}}
		for _, s := range r.AuthSequence {
			receipt.AuthSequence = append(receipt.AuthSequence, hyAuthSequence{Account: s.Account.String(), Sequence: s.Sequence})
		}
		if t.Receiver != t.Act.Account {
			// A notification: its receipt joins the action it copies.
			root := uint32(t.CreatorActionOrdinal)
			for n := 0; n < len(tx.ActionTraces); n++ {
				p := traces[root]
				if p == nil || p.Receiver == p.Act.Account {
					break
				}
				root = uint32(p.CreatorActionOrdinal)
			}
			if i, ok := byOrdinal[root]; ok {
				docs[i].Receipts = append(docs[i].Receipts, receipt)
				docs[i].notified = append(docs[i].notified, t.Receiver)
				byOrdinal[uint32(t.ActionOrdinal)] = i
				continue
			}
		}
		doc := hyAction{Timestamp: ts, Timestamp2: ts, BlockNum: num, BlockID: blockID, TrxID: hex.EncodeToString(tx.ID[:]),
			Act:      hyAct{Account: t.Act.Account.String(), Name: t.Act.Name.String(), Authorization: []hyPermission{}},
			Receipts: []hyReceipt{receipt}, CPUUsageUs: tx.CPUUsageUs, NetUsageWords: uint32(tx.NetUsageWords),
			GlobalSequence: r.GlobalSequence, Producer: producer.String(), ActionOrdinal: uint32(t.ActionOrdinal),
			CreatorActionOrdinal: uint32(t.CreatorActionOrdinal), notified: []antelope.Name{t.Receiver}}
		for _, p := range t.Act.Authorization {
			doc.Act.Authorization = append(doc.Act.Authorization, hyPermission{Actor: p.Actor.String(), Permission: p.Permission.String()})
			doc.actors = append(doc.actors, p.Actor)
		}
		for _, d := range t.AccountRAMDeltas {
			doc.AccountRAMDeltas = append(doc.AccountRAMDeltas, hyRAMDelta{Account: d.Account.String(), Delta: d.Delta})
		}
		doc.Act.Data = actionJSON(abis[t.Act.Account], t.Act.Account, t.Act.Name, t.Act.Data)
		byOrdinal[uint32(t.ActionOrdinal)] = len(docs)
		docs = append(docs, doc)
	}
	return docs
}

// actionJSON is an action's data as Hyperion stores it: deserialized and
// rewritten, or hex when the contract's ABI does not deserialize it.
func actionJSON(c *abicodec.Codec, contract, name antelope.Name, data []byte) json.RawMessage {
	if c != nil {
		if j, err := c.ActionJSON(name, data); err == nil {
			return rewriteAction(contract, name, j)
		}
	}
	j, _ := json.Marshal(hex.EncodeToString(data))
	return j
}

func actionTraceV1(at protocol.ActionTrace) *protocol.ActionTraceV1 {
	switch t := at.Value.(type) {
	case *protocol.ActionTraceV1:
		return t
	case *protocol.ActionTraceV0:
		return &protocol.ActionTraceV1{ActionOrdinal: t.ActionOrdinal, CreatorActionOrdinal: t.CreatorActionOrdinal, Receipt: t.Receipt,
			Receiver: t.Receiver, Act: t.Act, AccountRAMDeltas: t.AccountRAMDeltas}
	}
	return nil
}

// decodeList decodes a packed list, or as much of it as decodes.
func decodeList[T any, P interface {
	*T
	antelope.BinaryDecodable
}](bin []byte) []T {
	if len(bin) == 0 {
		return nil
	}
	d := antelope.NewDecoder(bin)
	n, err := d.Length("list", 1)
	if err != nil {
		return nil
	}
	out := make([]T, 0, n)
	for range n {
		var v T
		if P(&v).DecodeBinary(d) != nil {
			break
		}
		out = append(out, v)
	}
	return out
}
