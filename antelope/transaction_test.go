package antelope

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestTaposFromBlockID(t *testing.T) {
	// EOS block 8482113 as get_block printed it (testdata from
	// shared/testdata/chain-responses/get_block/get_block.eos.8482113.by-num.json).
	id := mustChecksum(t, "00816d41e41f1462acb648b810b20f152d944fabd79aaff31c9f50102e4e5db9")
	num, prefix := TaposFromBlockID(id)
	if num != uint16(8482113&0xffff) || prefix != 3091773100 {
		t.Errorf("TAPoS = %d, %d; want %d, 3091773100", num, prefix, 8482113&0xffff)
	}
	var h TransactionHeader
	h.SetReferenceBlock(id)
	h.SetExpiration(time.Date(2026, 1, 2, 3, 4, 5, 999, time.UTC))
	if h.RefBlockNum != num || h.RefBlockPrefix != prefix || h.Expiration.Time().Format(time.RFC3339) != "2026-01-02T03:04:05Z" {
		t.Errorf("header %+v", h)
	}
}

// TestBlockTransactions reads real receipts of a WAX block, five of them
// zlib-compressed: each id is what nodeos reported, each signature recovers,
// and the header decodes as nodeos printed it.
func TestBlockTransactions(t *testing.T) {
	data, err := os.ReadFile("testdata/block-transactions.wax.258546986.json")
	if err != nil {
		t.Fatal(err)
	}
	var block struct {
		ChainID      string `json:"chain_id"`
		Transactions []struct {
			ID       string          `json:"id"`
			Header   json.RawMessage `json:"header"`
			NActions int             `json:"n_actions"`
		} `json:"transactions"`
	}
	if err := json.Unmarshal(data, &block); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Transactions []json.RawMessage `json:"transactions"`
	}
	_ = json.Unmarshal(data, &raw)
	chainID := mustChecksum(t, block.ChainID)
	zlibSeen := 0
	for i, want := range block.Transactions {
		var p PackedTransaction
		if err := p.UnmarshalJSON(raw.Transactions[i]); err != nil {
			t.Fatalf("%s: %v", want.ID, err)
		}
		if p.Compression == CompressionZlib {
			zlibSeen++
		}
		id, err := p.ID()
		if err != nil || id.String() != want.ID {
			t.Errorf("ID = %s, %v; want %s", id, err, want.ID)
		}
		st, err := p.Unpack()
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Actions) != want.NActions {
			t.Errorf("%s: %d actions, want %d", want.ID, len(st.Actions), want.NActions)
		}
		var h map[string]any
		_ = json.Unmarshal(want.Header, &h)
		js, _ := st.MarshalJSON()
		var got map[string]any
		if err := json.Unmarshal(js, &got); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		for k, v := range h {
			if got[k] != v {
				t.Errorf("%s: %s = %v, nodeos printed %v", want.ID, k, got[k], v)
			}
		}
		digest, err := p.SigningDigest(chainID)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range st.Signatures {
			if _, err := s.RecoverPublicKey(digest); err != nil {
				t.Errorf("%s: %v", want.ID, err)
			}
		}
		// Our own JSON reads back to the same transaction.
		var back SignedTransaction
		if err := back.UnmarshalJSON(js); err != nil {
			t.Fatal(err)
		}
		id2, _ := back.ID()
		if id2 != id {
			t.Errorf("%s: JSON round trip changed the id to %s", want.ID, id2)
		}
	}
	if zlibSeen != 5 {
		t.Errorf("%d zlib transactions, want 5", zlibSeen)
	}
}

func testTransaction() *SignedTransaction {
	return &SignedTransaction{
		Transaction: Transaction{
			TransactionHeader:  TransactionHeader{Expiration: 1700000000, RefBlockNum: 7, RefBlockPrefix: 123456789, MaxNetUsageWords: 300, MaxCPUUsageMS: 5, DelaySec: 200},
			ContextFreeActions: []Action{{Account: MustName("eosio.null"), Name: MustName("nonce"), Authorization: []PermissionLevel{}, Data: []byte("cfd")}},
			Actions: []Action{{Account: MustName("eosio.token"), Name: MustName("transfer"),
				Authorization: []PermissionLevel{{Actor: MustName("alice"), Permission: MustName("active")}}, Data: bytes.Repeat([]byte{0xab}, 40)}},
			Extensions: []Extension{{Type: 1, Data: []byte{1, 2}}},
		},
		Signatures:      []Signature{},
		ContextFreeData: [][]byte{[]byte("hello"), {}},
	}
}

func TestPackRoundTrip(t *testing.T) {
	st := testTransaction()
	want, _ := st.MarshalBinary()
	id, _ := st.ID()
	chainID := Checksum256{9}
	digest, _ := st.SigningDigest(chainID)
	noCFD, _ := st.Transaction.SigningDigest(chainID)
	if digest == noCFD {
		t.Fatal("context-free data does not change the digest")
	}
	for _, c := range []Compression{CompressionNone, CompressionZlib} {
		p, err := st.Pack(c)
		if err != nil {
			t.Fatal(err)
		}
		bin, _ := p.MarshalBinary()
		var p2 PackedTransaction
		if err := p2.UnmarshalBinary(bin); err != nil {
			t.Fatal(err)
		}
		js, _ := p2.MarshalJSON()
		var p3 PackedTransaction
		if err := p3.UnmarshalJSON(js); err != nil {
			t.Fatal(err)
		}
		back, err := p3.Unpack()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := back.MarshalBinary()
		if !bytes.Equal(got, want) {
			t.Errorf("%s: round trip\n got %x\nwant %x", c, got, want)
		}
		if pid, _ := p3.ID(); pid != id {
			t.Errorf("%s: id %s, want %s", c, pid, id)
		}
		if pd, _ := p3.SigningDigest(chainID); pd != digest {
			t.Errorf("%s: digest %s, want %s", c, pd, digest)
		}
	}
	// The JSON of a signed transaction reads back.
	js, _ := st.MarshalJSON()
	var back SignedTransaction
	if err := back.UnmarshalJSON(js); err != nil {
		t.Fatal(err)
	}
	if got, _ := back.MarshalBinary(); !bytes.Equal(got, want) {
		t.Errorf("JSON round trip: %s", js)
	}
}

func TestTransactionJSONDialects(t *testing.T) {
	// wharfkit's request shape: compression as a number, extensions as
	// objects, cfd "00"; the minimal nodeos transaction leaves out the
	// optional members.
	in := `{"expiration":"2023-07-30T20:00:45","ref_block_num":6590,"ref_block_prefix":3054568529,` +
		`"actions":[{"account":"eosio","name":"noop","authorization":[],"data":""}],` +
		`"transaction_extensions":[{"type":1,"data":"0102"}]}`
	var tx Transaction
	if err := tx.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	out, _ := tx.MarshalJSON()
	const want = `{"expiration":"2023-07-30T20:00:45","ref_block_num":6590,"ref_block_prefix":3054568529,"max_net_usage_words":0,"max_cpu_usage_ms":0,"delay_sec":0,"context_free_actions":[],"actions":[{"account":"eosio","name":"noop","authorization":[],"data":""}],"transaction_extensions":[[1,"0102"]]}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	var p PackedTransaction
	if err := p.UnmarshalJSON([]byte(`{"signatures":[],"compression":1,"packed_context_free_data":"789c63000000010001","packed_trx":"00"}`)); err != nil {
		t.Fatal(err)
	}
	if cfd, err := p.ContextFreeData(); err != nil || len(cfd) != 0 {
		t.Errorf("zlib empty cfd = %v, %v", cfd, err)
	}
	for _, bad := range []string{
		`{"ref_block_num":1,"ref_block_prefix":1,"actions":[]}`, // no expiration
		`{"expiration":"2023-07-30T20:00:45","ref_block_num":1,"ref_block_prefix":1,"actions":[],"transaction_extensions":[[1]]}`,
	} {
		if err := tx.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if err := p.UnmarshalJSON([]byte(`{"compression":"gzip","packed_trx":""}`)); err == nil {
		t.Error("accepted compression gzip")
	}
}

// TestDecompressionBomb: a small zlib payload that inflates past nodeos's
// limit is refused, not inflated.
func TestDecompressionBomb(t *testing.T) {
	var buf bytes.Buffer
	w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	_, _ = w.Write(make([]byte, 64<<20))
	_ = w.Close()
	if buf.Len() > 100<<10 {
		t.Fatalf("bomb is %d bytes", buf.Len())
	}
	p := &PackedTransaction{Compression: CompressionZlib, PackedTrx: buf.Bytes(), PackedContextFreeData: buf.Bytes()}
	for name, f := range map[string]func() error{
		"Unpack":        func() error { _, err := p.Unpack(); return err },
		"ID":            func() error { _, err := p.ID(); return err },
		"SigningDigest": func() error { _, err := p.SigningDigest(Checksum256{}); return err },
		"ContextFreeData": func() error {
			_, err := p.ContextFreeData()
			return err
		},
	} {
		err := f()
		if err == nil || !strings.Contains(err.Error(), "inflates past") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Not zlib at all.
	p.PackedTrx = []byte("plain")
	if _, err := p.Unpack(); err == nil {
		t.Error("accepted a payload that is not zlib")
	}
}

func TestTransactionDecodeLimits(t *testing.T) {
	// A 4 GiB action count in 5 bytes is refused before allocating.
	header := make([]byte, 4+2+4+1+1+1)
	data := append(header, 0xff, 0xff, 0xff, 0xff, 0x0f)
	var tx Transaction
	if err := tx.UnmarshalBinary(data); err == nil {
		t.Fatal("accepted a huge count")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		_ = tx.UnmarshalBinary(data)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("%d bytes allocated refusing 10 huge lengths", n)
	}
}

// TestMinimalActions: two actions with no authorization and no data take 18
// bytes each; the length check before allocating must not refuse them (the
// signing oracle found a bound of 25).
func TestMinimalActions(t *testing.T) {
	tx := Transaction{Actions: []Action{{Authorization: []PermissionLevel{}}, {Authorization: []PermissionLevel{}}}}
	b, _ := tx.MarshalBinary()
	var back Transaction
	if err := back.UnmarshalBinary(b); err != nil || len(back.Actions) != 2 {
		t.Fatalf("%x: %v", b, err)
	}
}
