package chain

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// TestSend2BodyIsTheMapEncoding: send_transaction2's body, written by hand,
// is byte for byte what encoding/json made of the map it replaced, for
// random transactions and every retry setting.
func TestSend2BodyIsTheMapEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 34))
	for i := range 300 {
		var signed antelope.SignedTransaction
		signed.RefBlockNum = uint16(rng.Uint32())
		signed.RefBlockPrefix = rng.Uint32()
		for range rng.IntN(3) {
			data := make([]byte, rng.IntN(40))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			signed.Actions = append(signed.Actions, antelope.Action{Account: antelope.Name(rng.Uint64()), Name: antelope.Name(rng.Uint64()),
				Authorization: []antelope.PermissionLevel{{Actor: antelope.Name(rng.Uint64()), Permission: antelope.Name(rng.Uint64())}}, Data: data})
		}
		if i%2 == 1 {
			signed.ContextFreeData = [][]byte{{'<', '>', '&', byte(i)}}
		}
		_, packed, err := packedJSON(&signed)
		if err != nil {
			t.Fatal(err)
		}
		retryTrx := i%3 != 0
		blocks := uint16(0)
		if i%5 < 3 {
			blocks = uint16(rng.Uint32())
		}
		req := map[string]any{"return_failure_trace": false, "retry_trx": false, "transaction": packed}
		if retryTrx {
			req["retry_trx"] = true
			if blocks > 0 {
				req["retry_trx_num_blocks"] = blocks
			}
		}
		want, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := send2Body(packed, retryTrx, blocks); !bytes.Equal(got, want) {
			t.Fatalf("send_transaction2 body\n got %s\nwant %s", got, want)
		}
	}
}
