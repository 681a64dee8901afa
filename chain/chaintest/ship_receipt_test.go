package chaintest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
)

// receipt is a transaction receipt's billed CPU and NET.
type receipt struct {
	CPU      uint32 `json:"cpu_usage_us"`
	NetWords uint32 `json:"net_usage_words"`
}

// State history and get_block report the CPU and NET billed to each
// transaction: the receipt the answer to the transaction gave, not a
// fixed figure. Memos of different lengths make transactions of different
// NET.
func TestSHiPReceiptsAreTheBilledOnes(t *testing.T) {
	s := newShipTester(t, "go", chaintest.WithoutNetwork())
	want := map[antelope.Checksum256]receipt{}
	for _, memo := range []string{"", strings.Repeat("m", 100), strings.Repeat("m", 250)} {
		a, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1), Memo: memo}, antelope.Active(alice))
		res, err := s.cl.Transact(t.Context(), s.keys[alice], a)
		if err != nil {
			t.Fatal(err)
		}
		var trace struct {
			Receipt  receipt `json:"receipt"`
			NetUsage uint64  `json:"net_usage"`
		}
		if err := json.Unmarshal(res.Processed, &trace); err != nil {
			t.Fatal(err)
		}
		if trace.NetUsage != uint64(trace.Receipt.NetWords)*8 {
			t.Errorf("net_usage %d, receipt %+v", trace.NetUsage, trace.Receipt)
		}
		want[res.ID] = trace.Receipt
	}
	nets := map[uint32]bool{}
	for _, r := range want {
		nets[r.NetWords] = true
	}
	if len(nets) != len(want) {
		t.Fatalf("transactions of different sizes billed the same NET: %v", want)
	}

	got := map[antelope.Checksum256]receipt{}
	for ev, err := range s.c.SHiPClient().Stream(s.ctx(), ship.Request{Start: 1, End: s.c.Head().Num + 1}) {
		if err != nil {
			t.Fatal(err)
		}
		b := ev.Block
		var sb protocol.SignedBlock
		if err := antelope.UnmarshalBinary(b.SignedBlock, &sb); err != nil {
			t.Fatal(err)
		}
		d := antelope.NewDecoder(b.Traces)
		n, err := d.VarUint32()
		if err != nil || int(n) != len(sb.Transactions) {
			t.Fatalf("block %d: %d traces, %d receipts, %v", b.Num, n, len(sb.Transactions), err)
		}
		for i := range n {
			var tt protocol.TransactionTrace
			if err := tt.DecodeBinary(d); err != nil {
				t.Fatal(err)
			}
			v := tt.Value.(*protocol.TransactionTraceV0)
			r := receipt{v.CPUUsageUs, uint32(v.NetUsageWords)}
			if v.NetUsage != uint64(r.NetWords)*8 {
				t.Errorf("%s: trace net_usage %d, receipt %+v", v.ID, v.NetUsage, r)
			}
			if h := sb.Transactions[i].TransactionReceiptHeader; h.CPUUsageUs != r.CPU || uint32(h.NetUsageWords) != r.NetWords {
				t.Errorf("%s: the signed block's receipt %+v, the trace's %+v", v.ID, h, r)
			}
			got[v.ID] = r
			if w, ok := want[v.ID]; ok {
				checkGetBlockReceipt(t, s.c, b.Num, v.ID, w)
			}
		}
	}
	for id, r := range want {
		if got[id] != r {
			t.Errorf("%s: state history's receipt %+v, the answer's %+v", id, got[id], r)
		}
	}
}

// checkGetBlockReceipt checks get_block's receipt of transaction id.
func checkGetBlockReceipt(t *testing.T, c *chaintest.Chain, num uint32, id antelope.Checksum256, want receipt) {
	t.Helper()
	resp, err := c.HTTPClient().Post(c.URL()+"/v1/chain/get_block", "application/json", strings.NewReader(fmt.Sprintf(`{"block_num_or_id":%d}`, num)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var block struct {
		Transactions []struct {
			receipt
			Trx struct {
				ID antelope.Checksum256 `json:"id"`
			} `json:"trx"`
		} `json:"transactions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&block); err != nil || resp.StatusCode != http.StatusOK || len(block.Transactions) != 1 {
		t.Fatalf("get_block %d: %d, %v", num, resp.StatusCode, err)
	}
	for _, tx := range block.Transactions {
		if tx.Trx.ID == id && tx.receipt != want {
			t.Errorf("get_block %d: %s: %+v, want %+v", num, id, tx.receipt, want)
		}
	}
}
