package ship

import (
	"context"
	"strconv"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// While the last irreversible block stalls, the cursor lets its oldest
// positions go (a fork below them is refused, never undone), so the ABI
// versions set at or below the oldest it keeps can never be undone either:
// the history keeps the one in force there and those above, bounded like
// the cursor, not one version per setabi since the stall began.
func TestABIHistoryBoundedWhenLIBStalls(t *testing.T) {
	const blocks = maxHeld + 3000
	w := &modelWorld{ch: &choices{}, live: &modelChain{id: antelope.Checksum256{0xaa}, salt: 1}}
	for n := 1; n <= blocks; n++ {
		w.live.produce("v" + strconv.Itoa(n)) // every block sets an ABI; the last irreversible block stays 0
	}
	client := NewClient("model://", WithDialer(w), WithBackoff(0, 0), WithMaxReconnects(0), WithWindow(64))
	req := Request{Start: 1, End: blocks + 1, Fetch: FetchDeltas, ABIs: map[antelope.Name][]byte{modelAccount: []byte(modelGivenABI)}}
	delivered := 0
	for ev, err := range client.Stream(context.Background(), req) {
		if err != nil {
			t.Fatal(err)
		}
		b := ev.Block
		delivered++
		if abi, ok := b.ABI(modelAccount); !ok || string(abi) != w.live.abiBefore(b.Num) {
			t.Fatalf("block %d: ABI %q %v in force, want %q", b.Num, abi, ok, w.live.abiBefore(b.Num))
		}
		if n := len(b.abis.versions[modelAccount]); n > maxHeld+2 {
			t.Fatalf("block %d: %d ABI versions held, the cursor %d positions", b.Num, n, len(ev.Cursor().held))
		}
		if n := len(b.abis.sets); n > maxHeld+2 {
			t.Fatalf("block %d: %d ABI sets held", b.Num, n)
		}
	}
	if delivered != blocks {
		t.Fatalf("%d blocks delivered, want %d", delivered, blocks)
	}
}
