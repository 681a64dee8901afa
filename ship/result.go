package ship

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// Position is a block: its number and id. A chain's blocks are named by
// both, since a fork gives one number several ids.
type Position struct {
	Num uint32               // the block number
	ID  antelope.Checksum256 // the block id
}

// String is "#num (first 16 hex digits of the id)".
func (p Position) String() string { return fmt.Sprintf("#%d (%s)", p.Num, p.ID.String()[:16]) }

// Status is what the node reports about its state history. The ranges are
// [begin, end): the blocks whose traces, deltas or finality data it serves.
type Status struct {
	Head, LastIrreversible             Position             // the node's head and last irreversible blocks
	TraceBegin, TraceEnd               uint32               // the blocks whose traces it serves
	ChainStateBegin, ChainStateEnd     uint32               // the blocks whose deltas it serves
	ChainID                            antelope.Checksum256 // zero when the node does not send it (EOSIO 2.0)
	FinalityDataBegin, FinalityDataEnd uint32               // 0, 0 before spring's v1 status
	Protocol                           string               // the result the node answered with: "get_status_result_v1", …
}

// blocksResult is a get_blocks_result_v0/v1, in place.
type blocksResult struct {
	head, lib              Position
	this, prev             Position
	hasThis, hasPrev       bool
	block, traces, deltas  []byte
	hasBlock, hasTraces    bool
	hasDeltas, hasFinality bool
	finality               []byte
}

// resultKind reads the variant index of a result and maps it by name.
func (p *protocolMap) resultKind(msg []byte) (string, *wire, error) {
	w := &wire{data: msg, what: "result"}
	i := w.varu32()
	if w.err != nil {
		return "", nil, w.err
	}
	name := member(p.results, i)
	if name == "" {
		return "", nil, fmt.Errorf("ship: the node sent result %d, which its ABI names %q: a result this client does not know or that the node defines differently from spring's; please report it with the node's version", i, nameAt(p, i))
	}
	return name, w, nil
}

func nameAt(p *protocolMap, i uint32) string {
	if uint64(i) < uint64(len(p.results)) && p.results[i] != "" {
		return p.results[i]
	}
	return "(not in its ABI, or defined differently)"
}

// parseBlocks reads a get_blocks_result_v0 or v1 body.
func parseBlocks(w *wire, v1 bool) (r blocksResult, err error) {
	r.head = w.position()
	r.lib = w.position()
	if r.hasThis = w.boolean(); r.hasThis {
		r.this = w.position()
	}
	if r.hasPrev = w.boolean(); r.hasPrev {
		r.prev = w.position()
	}
	if r.hasBlock = w.boolean(); r.hasBlock {
		r.block = w.bytes()
	}
	if r.hasTraces = w.boolean(); r.hasTraces {
		r.traces = w.bigBytes()
	}
	if r.hasDeltas = w.boolean(); r.hasDeltas {
		r.deltas = w.bigBytes()
	}
	if v1 {
		if r.hasFinality = w.boolean(); r.hasFinality {
			r.finality = w.bigBytes()
		}
	}
	return r, w.end()
}

// parseStatus decodes a status result body with the generated types.
func parseStatus(name string, body []byte) (Status, error) {
	d := antelope.NewDecoder(body)
	var v protocol.GetStatusResultV1
	var err error
	switch name {
	case "get_status_result_v0":
		var v0 protocol.GetStatusResultV0
		err = v0.DecodeBinary(d)
		v = protocol.GetStatusResultV1{Head: v0.Head, LastIrreversible: v0.LastIrreversible, TraceBeginBlock: v0.TraceBeginBlock,
			TraceEndBlock: v0.TraceEndBlock, ChainStateBeginBlock: v0.ChainStateBeginBlock, ChainStateEndBlock: v0.ChainStateEndBlock,
			ChainID: v0.ChainID.Value}
	case "get_status_result_v1":
		err = v.DecodeBinary(d)
	default:
		return Status{}, fmt.Errorf("ship: expected a status result, got %s", name)
	}
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		return Status{}, fmt.Errorf("ship: malformed %s: %w", name, err)
	}
	return Status{Protocol: name, Head: Position{v.Head.BlockNum, v.Head.BlockID},
		LastIrreversible: Position{v.LastIrreversible.BlockNum, v.LastIrreversible.BlockID},
		TraceBegin:       v.TraceBeginBlock, TraceEnd: v.TraceEndBlock, ChainStateBegin: v.ChainStateBeginBlock,
		ChainStateEnd: v.ChainStateEndBlock, ChainID: v.ChainID, FinalityDataBegin: v.FinalityDataBeginBlock,
		FinalityDataEnd: v.FinalityDataEndBlock}, nil
}
