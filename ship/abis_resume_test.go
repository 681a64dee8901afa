package ship

import (
	"context"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// Resumed from the cursor of an Undo of everything delivered, with the
// ABIs the consumer gave at the start (as of the block before it), the
// stream does not report them in force: the fork may have reached below
// the start and changed them, and the cursor cannot say whether it did.
// (Found by the model-checked stream, seed 46, once its consumer gave
// those ABIs again when nothing it had was left.)
func TestResumeAfterFullUndoForgetsGivenABIs(t *testing.T) {
	w := &modelWorld{ch: &choices{}, live: &modelChain{id: antelope.Checksum256{0xaa}, salt: 1}}
	for range 6 {
		w.live.produce("")
	}
	client := NewClient("model://", WithDialer(w), WithBackoff(0, 0), WithMaxReconnects(0))
	given := map[antelope.Name][]byte{modelAccount: []byte(modelGivenABI)}
	var cur Cursor
	for ev, err := range client.Stream(context.Background(), Request{Start: 6, End: 8, Fetch: FetchDeltas, ABIs: given}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Block != nil {
			w.live.fork(2, []string{"v1", "", "", ""}) // block 3 sets another ABI
			continue
		}
		cur = ev.Cursor()
		break
	}
	if cur.IsZero() || cur.Last() != (Position{}) {
		t.Fatalf("no cursor of an Undo of everything: %v", cur)
	}
	for ev, err := range client.Stream(context.Background(), Request{Cursor: cur, End: 8, Fetch: FetchDeltas, ABIs: given}) {
		if err != nil {
			t.Fatal(err)
		}
		if abi, ok := ev.Block.ABI(modelAccount); ok && string(abi) != "v1" {
			t.Errorf("block %d: ABI %q in force, the chain's is v1", ev.Block.Num, abi)
		}
		break
	}
}
