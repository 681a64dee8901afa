package ship_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// Start 0 begins at the first block the node serves (its status).
func TestStartFromStatus(t *testing.T) {
	chain := transferChain(t, 5)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	var first uint32
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{End: 6}) {
		if err != nil {
			t.Fatal(err)
		}
		if first == 0 {
			first = ev.Block.Num
		}
	}
	if first != 1 {
		t.Errorf("first block %d", first)
	}
}

// A node whose ABI has only the v0 requests and results (EOSIO 2.0, leap
// before finality data) is sent v0.
func TestV0Node(t *testing.T) {
	var abi map[string]any
	if err := json.Unmarshal(protocol.ABIJSON, &abi); err != nil {
		t.Fatal(err)
	}
	for _, v := range abi["variants"].([]any) {
		m := v.(map[string]any)
		switch m["name"] {
		case "request":
			m["types"] = []string{"get_status_request_v0", "get_blocks_request_v0", "get_blocks_ack_request_v0"}
		case "result":
			m["types"] = []string{"get_status_result_v0", "get_blocks_result_v0"}
		}
	}
	text, _ := json.Marshal(abi)
	chain := transferChain(t, 5)
	srv := shiptest.NewServer(chain, shiptest.WithABI(text))
	defer srv.Close()
	n := 0
	client := fastClient(srv.URL)
	for ev, err := range ship.Actions(client.Stream(testContext(t), ship.Request{Start: 1, End: 6}), eosiotoken.Actions.Transfer) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Undo == nil {
			n++
		}
	}
	st, err := client.Status(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 || st.Protocol != "get_status_result_v0" || st.Head.Num != 5 {
		t.Errorf("%d transfers, status %+v", n, st)
	}
}

// Without deltas, ABI changes come from eosio::setabi actions, and an
// action after a setabi in the same block sees the new ABI.
func TestABIFromSetabi(t *testing.T) {
	setabi := func(abi string) shiptest.Action {
		head, _ := token.AppendBinary(nil)
		data := antelope.AppendVarUint32(head, uint32(len(abi)))
		return shiptest.Action{Contract: antelope.MustName("eosio"), Name: antelope.MustName("setabi"), Data: append(data, abi...)}
	}
	tx, _ := transferTx(t, token, alice, bob, "1.0000 WAX", "")
	chain := shiptest.NewChain()
	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx, {Actions: []shiptest.Action{setabi("v2")}}, tx}})
	chain.Produce(shiptest.BlockData{Transactions: []shiptest.Transaction{tx}})
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	var seen []string
	for ev, err := range fastClient(srv.URL).Stream(testContext(t), ship.Request{Start: 1, End: 3, Fetch: ship.FetchTraces,
		ABIs: map[antelope.Name][]byte{token: []byte("v1")}}) {
		if err != nil {
			t.Fatal(err)
		}
		for a, err := range ship.Actions(ev.Block, eosiotoken.Actions.Transfer) {
			if err != nil {
				t.Fatal(err)
			}
			abi, _ := a.Trace.ABI()
			seen = append(seen, string(abi))
		}
	}
	if !bytes.Equal([]byte(join(seen)), []byte("v1,v2,v2")) {
		t.Errorf("ABIs in force: %v", seen)
	}
}

func join(l []string) string {
	out := ""
	for i, s := range l {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
