package hyperion_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/antelopego/abigen/ship/hyperion"
)

// TestNumbersAboveTwoTo53: Hyperion is JavaScript: a 64-bit integer it
// writes as a JSON number went through a float64, and from 2^53 on
// neighbours share one (9007199254740993 is written 9007199254740994). Such
// a number is refused, never read as if exact; below 2^53, or as a string,
// it is read exactly.
func TestNumbersAboveTwoTo53(t *testing.T) {
	const two53 = uint64(1) << 53
	r := rand.New(rand.NewPCG(5, 6))
	page := func(gs string) string {
		return fmt.Sprintf(`{"actions":[{"@timestamp":"2024-05-01T12:00:00.000","block_num":7,"act":{"account":"eosio.token","name":"transfer","authorization":[],"data":{}},"receipts":[{"receiver":"eosio.token","global_sequence":%s,"recv_sequence":1}],"global_sequence":%s}]}`, gs, gs)
	}
	for i := range 400 {
		var v uint64
		switch i % 3 {
		case 0:
			v = two53 + r.Uint64N(1<<40)
		case 1:
			v = two53 - 1 - r.Uint64N(1<<40)
		default:
			v = r.Uint64()
		}
		num := fmt.Sprint(v)
		p, err := hyperion.ParseActions([]byte(page(num)))
		if v >= two53 {
			if err == nil {
				t.Fatalf("global_sequence %s as a JSON number read as %d", num, p.Actions[0].GlobalSequence)
			}
			if !strings.Contains(err.Error(), "2^53") {
				t.Errorf("%s: %v", num, err)
			}
		} else if err != nil || p.Actions[0].GlobalSequence != v {
			t.Fatalf("global_sequence %s: %v", num, err)
		}
		// As a string it is exact at any size.
		p, err = hyperion.ParseActions([]byte(page(`"` + num + `"`)))
		if err != nil || p.Actions[0].GlobalSequence != v {
			t.Fatalf("global_sequence %q: %v", num, err)
		}
	}
}

// TestFloatsAboveTwoTo53: the 2^53 rule is for integers; a float field
// (get_tokens' amount, query_time_ms) at any size still reads, as its text.
func TestFloatsAboveTwoTo53(t *testing.T) {
	body := `{"account":"alice","query_time_ms":1e300,"tokens":[{"symbol":"MEME","precision":4,"amount":1e+21,"contract":"meme.token"},{"symbol":"EOS","precision":4,"amount":9007199254740993.5,"contract":"eosio.token"}]}`
	toks, err := hyperion.ParseTokens([]byte(body))
	if err != nil || len(toks) != 2 || toks[0].Amount != "1e+21" {
		t.Fatalf("%+v %v", toks, err)
	}
}
