package ship

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/antelopego/abigen/ship/protocol"
)

// The server's first message is its ABI, and variant indices mean what that
// ABI says: EOSIO 2.1 gave the indices Antelope uses for
// get_blocks_request_v1 and get_blocks_result_v1 other meanings. So nothing
// here hard-codes an index. Each variant the client reads or writes is
// mapped by member name, and a member is used only when the server's
// definition of it (fields, recursively) is the one this package knows —
// the one ship/protocol was generated from.

// abiDoc is the part of an ABI the negotiation reads.
type abiDoc struct {
	Types []struct {
		NewTypeName string `json:"new_type_name"`
		Type        string `json:"type"`
	} `json:"types"`
	Structs []struct {
		Name   string `json:"name"`
		Base   string `json:"base"`
		Fields []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"fields"`
	} `json:"structs"`
	Variants []struct {
		Name  string   `json:"name"`
		Types []string `json:"types"`
	} `json:"variants"`
}

// abiIndex is an ABI's declarations by name.
type abiIndex struct {
	typedefs map[string]string
	structs  map[string][]string // name → "base" then "field type" pairs, flattened
	variants map[string][]string
}

func indexABI(text []byte) (*abiIndex, error) {
	var doc abiDoc
	if err := json.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	ix := &abiIndex{typedefs: map[string]string{}, structs: map[string][]string{}, variants: map[string][]string{}}
	for _, t := range doc.Types {
		ix.typedefs[t.NewTypeName] = t.Type
	}
	for _, s := range doc.Structs {
		def := []string{"base " + s.Base}
		for _, f := range s.Fields {
			def = append(def, f.Name+" "+f.Type)
		}
		ix.structs[s.Name] = def
	}
	for _, v := range doc.Variants {
		ix.variants[v.Name] = v.Types
	}
	return ix, nil
}

// ours is the ABI ship/protocol was generated from.
var ours = sync.OnceValue(func() *abiIndex {
	ix, err := indexABI(protocol.ABIJSON)
	if err != nil {
		panic("ship: the embedded protocol ABI does not parse: " + err.Error()) // a build-time invariant
	}
	return ix
})

// sameType reports whether typ means the same encoding in both ABIs.
func sameType(a, b *abiIndex, typ string, seen map[string]bool) bool {
	base := strings.TrimRight(typ, "?$[]")
	if i := strings.IndexByte(base, '['); i >= 0 {
		base = base[:i]
	}
	if seen[base] {
		return true
	}
	seen[base] = true
	ta, tb := a.resolve(base), b.resolve(base)
	if ta != tb {
		return false
	}
	if ta != base {
		return sameType(a, b, ta, seen)
	}
	if sa, ok := a.structs[base]; ok {
		sb, ok := b.structs[base]
		if !ok || !slices.Equal(sa, sb) {
			return false
		}
		for _, f := range sa {
			_, t, _ := strings.Cut(f, " ")
			if t != "" && !sameType(a, b, t, seen) {
				return false
			}
		}
		return true
	}
	if _, ok := a.variants[base]; ok {
		// A variant inside a struct is read member by member, each mapped
		// by name where it is read (members): a member added or changed on
		// one side does not make the struct around it unreadable.
		_, ok := b.variants[base]
		return ok
	}
	_, sb := b.structs[base]
	_, vb := b.variants[base]
	return !sb && !vb // a built-in in both
}

func (ix *abiIndex) resolve(name string) string {
	for range 64 {
		t, ok := ix.typedefs[name]
		if !ok {
			return name
		}
		name = t
	}
	return name
}

// olderStruct reports whether the server's struct name is ours without
// some of our trailing binary extensions (EOSIO 2.0's
// get_status_result_v0, before chain_id$): the generated decoders read a
// missing extension as absent. Only a variant member itself qualifies: an
// extension is optional only at the end of the message.
func olderStruct(server *abiIndex, name string) bool {
	sa, ok := server.structs[name]
	sb := ours().structs[name]
	if !ok || len(sa) >= len(sb) || !slices.Equal(sa, sb[:len(sa)]) {
		return false
	}
	for _, f := range sb[len(sa):] {
		if !strings.HasSuffix(f, "$") {
			return false
		}
	}
	for _, f := range sa {
		if _, t, _ := strings.Cut(f, " "); t != "" && !sameType(server, ours(), t, map[string]bool{}) {
			return false
		}
	}
	return true
}

// members maps the server's indices of variant to this package's member
// names: "" for a member the server defines differently or this package
// does not know, which is an error only if it is ever sent.
func members(server *abiIndex, variant string) []string {
	var out []string
	for _, name := range server.variants[variant] {
		if slices.Contains(ours().variants[variant], name) && (sameType(server, ours(), name, map[string]bool{}) || olderStruct(server, name)) {
			out = append(out, name)
		} else {
			out = append(out, "")
		}
	}
	return out
}

// protocolMap is what a server's ABI says, for this client.
type protocolMap struct {
	requests map[string]uint32 // request member → index, for the members both sides define alike
	results  []string          // result index → member name ("" unusable)

	txTrace, actTrace, actReceipt, partialTx, tableDelta, contractRow, account []string
}

// lastNegotiated is the last ABI text negotiated and its map, which is
// read-only: a stream reconnecting to the same node (the usual case)
// skips parsing the ABI (35 KB of JSON) again.
var lastNegotiated atomic.Pointer[negotiated]

type negotiated struct {
	text []byte
	p    *protocolMap
}

// negotiate reads the server's ABI text.
func negotiate(text []byte) (*protocolMap, error) {
	if last := lastNegotiated.Load(); last != nil && bytes.Equal(last.text, text) {
		return last.p, nil
	}
	p, err := negotiateText(text)
	if err == nil {
		lastNegotiated.Store(&negotiated{bytes.Clone(text), p})
	}
	return p, err
}

func negotiateText(text []byte) (*protocolMap, error) {
	server, err := indexABI(text)
	if err != nil {
		return nil, fmt.Errorf("ship: the server's first message is not a state-history ABI (%v): is this a state-history endpoint (nodeos --state-history-endpoint)?", err)
	}
	if len(server.variants["request"]) == 0 || len(server.variants["result"]) == 0 {
		return nil, fmt.Errorf("ship: the server's ABI has no request or result variant: is this a state-history endpoint (nodeos --state-history-endpoint)?")
	}
	p := &protocolMap{requests: map[string]uint32{}}
	for i, name := range members(server, "request") {
		if name != "" {
			p.requests[name] = uint32(i)
		}
	}
	p.results = members(server, "result")
	p.txTrace = members(server, "transaction_trace")
	p.actTrace = members(server, "action_trace")
	p.actReceipt = members(server, "action_receipt")
	p.partialTx = members(server, "partial_transaction")
	p.tableDelta = members(server, "table_delta")
	p.contractRow = members(server, "contract_row")
	p.account = members(server, "account")
	_, v0 := p.requests["get_blocks_request_v0"]
	_, v1 := p.requests["get_blocks_request_v1"]
	_, ack := p.requests["get_blocks_ack_request_v0"]
	if !v0 && !v1 || !ack {
		return nil, fmt.Errorf("ship: the server's ABI defines no get_blocks_request this client knows (request variant %v): the node speaks another state-history protocol version; please report it with the node's version", server.variants["request"])
	}
	return p, nil
}

// blocksRequest is the request member to send: v1 where the server has it.
func (p *protocolMap) blocksRequest() string {
	if _, ok := p.requests["get_blocks_request_v1"]; ok {
		return "get_blocks_request_v1"
	}
	return "get_blocks_request_v0"
}

// statusRequest is the status request to send: one whose result this
// client can read too.
func (p *protocolMap) statusRequest() (string, bool) {
	for _, n := range []string{"get_status_request_v1", "get_status_request_v0"} {
		result := strings.Replace(n, "request", "result", 1)
		if _, ok := p.requests[n]; ok && slices.Contains(p.results, result) {
			return n, true
		}
	}
	return "", false
}

// member returns the name for index i of a mapped variant, or "".
func member(list []string, i uint32) string {
	if uint64(i) < uint64(len(list)) {
		return list[i]
	}
	return ""
}
