package nodeosapi

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// TestAppendInfoIsTheMapEncoding checks the hand-written get_info against
// what it replaced, encoding/json of a map, for random chains.
func TestAppendInfoIsTheMapEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	block := func() Block {
		var b Block
		for i := range b.ID {
			b.ID[i] = byte(rng.Uint32())
		}
		b.Num = rng.Uint32()
		b.Time = time.Unix(rng.Int64N(1<<33), rng.Int64N(1e9))
		return b
	}
	for range 2000 {
		var chainID antelope.Checksum256
		for i := range chainID {
			chainID[i] = byte(rng.Uint32())
		}
		head, lib, first := block(), block(), rng.Uint32()
		want, err := json.Marshal(map[string]any{
			"server_version": "chaintest", "chain_id": chainID,
			"head_block_num": head.Num, "head_block_id": head.ID, "head_block_time": timeText(head.Time), "head_block_producer": "eosio",
			"last_irreversible_block_num": lib.Num, "last_irreversible_block_id": lib.ID,
			"last_irreversible_block_time": timeText(lib.Time),
			"virtual_block_cpu_limit":      200000, "virtual_block_net_limit": 1048576000, "block_cpu_limit": 200000, "block_net_limit": 1048576,
			"server_version_string": "chaintest", "fork_db_head_block_num": head.Num, "fork_db_head_block_id": head.ID,
			"server_full_version_string": "chaintest", "earliest_available_block_num": first,
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := appendInfo(nil, chainID, head, lib, first); string(got) != string(want) {
			t.Fatalf("get_info\n got %s\nwant %s", got, want)
		}
	}
}
