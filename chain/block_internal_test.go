package chain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// TestReplayGetBlock decodes a recorded EOS get_block answer: the header,
// and 8 receipts — 3 expired deferred transactions named by id alone, 5
// executed ones carried packed, each id computed from its bytes and equal
// to the node's.
func TestReplayGetBlock(t *testing.T) {
	srv := newReplay(t)
	_, body := recording(t, "get_block/get_block.eos.124472078.transactions.json")
	srv.set("/v1/chain/get_block", 200, body)
	b, err := srv.client().GetBlock(t.Context(), 124472078)
	if err != nil {
		t.Fatal(err)
	}
	if b.BlockNum != 124472078 || b.Producer != antelope.MustName("okcapitalbp1") || b.ScheduleVersion != 1707 ||
		b.Previous.String() != "076b4b0dce8a7ecd27eb0d618d4cbd7582035db1911444a723c4a2813a4944b8" ||
		b.TransactionMroot.String() != "f2eb7287c9efe212dfc90595073e73c84fa4384d84ef70506708ad59be33e359" ||
		b.ActionMroot.String() != "5907e604d6f66d5a18458363f51a7d6d7e114f2e2c7a74768ba354e69177c463" ||
		!strings.HasPrefix(b.ProducerSignature.String(), "SIG_K1_K69a36g5") {
		t.Errorf("header %+v", b)
	}
	if len(b.Transactions) != 8 {
		t.Fatalf("%d receipts, want 8", len(b.Transactions))
	}
	var cpu, net uint32
	counts := map[ReceiptStatus]int{}
	for _, r := range b.Transactions {
		cpu += r.CPUUsageUS
		net += r.NetUsageWords
		counts[r.Status]++
		if (r.Packed == nil) != (r.Status == ReceiptExpired) {
			t.Errorf("%s %s: packed %v", r.Status, r.ID, r.Packed != nil)
		}
	}
	if cpu != 25729 || net != 1572 || counts[ReceiptExecuted] != 5 || counts[ReceiptExpired] != 3 {
		t.Errorf("cpu %d, net %d, %v", cpu, net, counts)
	}
	first, second := b.Transactions[0], b.Transactions[1]
	if first.ID.String() != "621c3a54350f2e88fdf3d732170bb02e3dabee443eaf0fb6667f79ff137abda1" {
		t.Errorf("expired receipt %+v", first)
	}
	if second.ID.String() != "b48c2c3dbea542f91156008d6ad071489a6b5adc1399e68b6d1f2c3a61422143" || second.CPUUsageUS != 506 || second.NetUsageWords != 18 {
		t.Errorf("executed receipt %+v", second)
	}
	st, err := second.Packed.Unpack()
	if err != nil || len(st.Actions) != 1 || st.Actions[0].Account != antelope.MustName("puppygogame1") || st.Actions[0].Name != antelope.MustName("mainstep") || len(st.Signatures) != 1 {
		t.Errorf("unpacked %+v, %v", st, err)
	}
	if !b.executed(second.ID) || b.executed(first.ID) {
		t.Error("executed() does not follow the receipts' statuses")
	}
}

// zlibReceipt is a WAX block's receipt of a zlib-compressed transaction
// (block 258546986, from antelope/testdata).
const zlibReceipt = `{"status":"executed","cpu_usage_us":1,"net_usage_words":2,"trx":{"id":"1647be3a4bc6d0f2b9a505c5d2e39018055f99130ce25f122bc369f0758ba1a6",` +
	`"signatures":["SIG_K1_KhXnKx9fAokDaZMgK1YNkJZuabucgRGDD6sNA6QUtjT5wspDXMBp4Mzd12J5De93prfuMFwiFqEKkQ83rvMqFMD7nnmdYh"],` +
	`"compression":"zlib","packed_context_free_data":"","context_free_data":[],` +
	`"packed_trx":"78dacb3d782c659f64208be036062060345879fad9aa256213401c8605cb2633322c79c8c0e8bd672288bfe2ad9191204c80c3b7f2e5cf058dff5318000682181f"}}`

// TestDecodeBlockReceipts: a zlib-compressed transaction's id is computed
// from its inflated bytes; a receipt naming one transaction and carrying
// another, an unknown status or a trx that is neither is an error — a
// node's word alone never makes a transaction executed in a block.
func TestDecodeBlockReceipts(t *testing.T) {
	_, body := recording(t, "get_block/get_block.eos.8482113.by-num.json")
	withReceipts := func(receipts string) []byte {
		i := bytes.Index(body, []byte(`"transactions":[]`))
		if i < 0 {
			t.Fatal("the recording has no empty transactions")
		}
		return append(append(append([]byte{}, body[:i]...), `"transactions":[`+receipts+`]`...), body[i+len(`"transactions":[]`):]...)
	}
	b, err := DecodeBlock(withReceipts(zlibReceipt), 8482113)
	if err != nil || len(b.Transactions) != 1 || b.Transactions[0].ID.String() != "1647be3a4bc6d0f2b9a505c5d2e39018055f99130ce25f122bc369f0758ba1a6" ||
		b.Transactions[0].Packed.Compression != antelope.CompressionZlib {
		t.Fatalf("%+v, %v", b, err)
	}
	other := strings.Replace(zlibReceipt, `"id":"1647be3a`, `"id":"0647be3a`, 1)
	for name, receipt := range map[string]string{
		"another id":     other,
		"unknown status": strings.Replace(zlibReceipt, `"executed"`, `"done"`, 1),
		"no packed_trx":  `{"status":"executed","cpu_usage_us":1,"net_usage_words":2,"trx":{"id":"1647be3a4bc6d0f2b9a505c5d2e39018055f99130ce25f122bc369f0758ba1a6"}}`,
		"a number":       `{"status":"executed","cpu_usage_us":1,"net_usage_words":2,"trx":7}`,
	} {
		if b, err := DecodeBlock(withReceipts(receipt), 8482113); err == nil {
			t.Errorf("%s: decoded %+v", name, b.Transactions)
		}
	}
}
