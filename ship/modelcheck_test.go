package ship

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/antelopego/abigen/antelope"
)

// The model-checked stream: the real client, driven over random schedules
// against the model endpoint of model_test.go — blocks produced, forks
// above the last irreversible block, the last irreversible block moving
// or stalling, connections dropped, slow messages and silent connections
// (modelslow_test.go), the consumer killed before or after
// persisting and resumed from what it persisted, a lagging node that
// stopped at an earlier head (possibly on a dead branch), a node of
// another chain, ABI changes, FinalOnly — checking after every event:
//
//   - every delivered block links to the one below it, is the node's
//     block at its number, and is on a branch holding every block
//     reported final;
//   - no block is delivered again without its Undo first, and an Undo
//     names the newest blocks delivered;
//   - nothing at or below a last irreversible block already reported is
//     undone; with FinalOnly there is no Undo and no block above the
//     last irreversible one;
//   - every cursor taken loads back the same, and holds no more than
//     the reversible window; the ABI history no more than its versions;
//   - the ABI in force, when the stream knows it, is the model's, and
//     with FinalOnly (no forks) it always knows it;
//   - the only terminal error is a refusal of the other chain's node: a
//     lagging node, even on a dead branch that replaces a block reported
//     final, is behind (it does not hold that block final), so the stream
//     tries again rather than ending with ErrForkBelowReversible;
//
// and at the end, the blocks delivered, across every kill and resume, are
// the chain's final branch.

// choices are a schedule's decisions: from a seeded generator, or a
// fuzzer's bytes. After limit decisions every decision is 0, which calms
// the world: the stream then finishes.
type choices struct {
	rng   *rand.Rand
	data  []byte
	used  int
	limit int
	rec   []byte // the decisions made, as fuzz bytes that make them again
}

func (c *choices) n(k int) int {
	if k <= 1 || c.used >= c.limit {
		return 0
	}
	c.used++
	var v int
	switch {
	case c.rng != nil:
		v = c.rng.IntN(k)
	case len(c.data) == 0:
		c.used = c.limit
		return 0
	default:
		v = int(c.data[0]) % k
		c.data = c.data[1:]
	}
	c.rec = append(c.rec, byte(v)) // as bytes, the same decisions (k <= 256 here)
	return v
}

func (c *choices) calm() bool { return c.used >= c.limit }

// modelWorld is the chains, the nodes serving them and the schedule; it is
// the client's Dialer.
type modelWorld struct {
	ch     *choices
	live   *modelChain // the chain as its up-to-date nodes see it
	stale  *modelChain // a lagging node: the live chain as it was earlier
	other  *modelChain // a node of another chain
	target *modelChain // the node the next dial reaches (nil: live)
	dialed *modelChain // the node of the current connection
	drops  int         // connections dropped so far in this run
	abis   int         // ABI versions made so far
	sent   modelSent   // the last block message
	log    []string
	timing *choices // slow and silent messages' decisions (nil: none)
	delays int      // slow and silent messages so far
}

func (w *modelWorld) note(format string, args ...any) {
	w.log = append(w.log, fmt.Sprintf(format, args...))
}

func (w *modelWorld) Dial(ctx context.Context, url string, _ int64) (Conn, error) {
	w.dialed = w.live
	if w.target != nil {
		w.dialed, w.target = w.target, nil
	}
	w.note("dial")
	return &modelConn{node: w.dialed, world: w}, nil
}

// modelMaxDrops bounds a run's dropped connections below the client's
// WithMaxReconnects(200): past that it rightly gives up (a fuzz input of
// zeros dropped 201 in a row), which is its documented end, not a defect.
const modelMaxDrops = 150

func (w *modelWorld) dropNow() bool {
	if w.drops < modelMaxDrops && w.ch.n(40) == 0 && !w.ch.calm() {
		w.drops++
		w.note("drop the connection")
		return true
	}
	return false
}

// newABI is an ABI to set, or "" (most blocks set none).
func (w *modelWorld) newABI() string {
	if w.ch.n(6) != 1 {
		return ""
	}
	w.abis++
	return "v" + strconv.Itoa(w.abis)
}

// idle moves the world on while node has nothing to send; false: node
// never will (a lagging node), so the connection times out.
func (w *modelWorld) idle(node *modelChain) bool {
	if node != w.live {
		w.note("the %s node has nothing more: timeout", map[bool]string{true: "other chain's", false: "lagging"}[node == w.other])
		return false
	}
	w.live.produce(w.newABI())
	if w.ch.calm() {
		w.live.lib = w.live.head() - 1
	} else if w.ch.n(3) == 0 {
		w.live.lib += uint32(w.ch.n(int(w.live.head() - w.live.lib + 1)))
	}
	w.note("idle: produce %d, lib %d", w.live.head(), w.live.lib)
	return true
}

// step is one disturbance between two events.
func (w *modelWorld) step(hasChainID bool) {
	c := w.live
	switch w.ch.n(12) {
	case 1, 2:
		k := 1 + w.ch.n(3)
		for range k {
			c.produce(w.newABI())
		}
		w.note("produce to %d", c.head())
	case 3:
		if c.head() > c.lib {
			at := c.lib + uint32(w.ch.n(int(c.head()-c.lib)))
			var abis []string
			for range 1 + w.ch.n(int(c.head()-at)+2) {
				abis = append(abis, w.newABI())
			}
			c.fork(at, abis)
			w.note("fork above %d: head %d", at, c.head())
		}
	case 4:
		c.lib += uint32(w.ch.n(int(c.head() - c.lib + 1)))
		w.note("lib %d", c.lib)
	case 5:
		w.stale = c.snapshot()
		w.note("a node stops at head %d, lib %d", c.head(), c.lib)
	case 6:
		if w.stale != nil {
			w.target = w.stale
			w.note("the next connection reaches the lagging node")
		}
	case 7:
		if hasChainID {
			w.target = w.other
			w.note("the next connection reaches another chain's node")
		}
	}
}

// modelConsumer is what a consumer persists: the branch it derived its
// state from, the ABI at the end of each of its blocks ("" unknown), the
// highest last irreversible block reported to it, and the cursor.
type modelConsumer struct {
	branch []Position
	endABI []string
	lib    uint32
	cursor Cursor
}

func (m modelConsumer) clone() modelConsumer {
	m.branch = append([]Position(nil), m.branch...)
	m.endABI = append([]string(nil), m.endABI...)
	return m
}

// modelRun runs one schedule; it returns the schedule's log and the first
// invariant broken ("" none).
func modelRun(ch, timing *choices) (log []string, failure string) {
	w := &modelWorld{ch: ch, timing: timing, live: &modelChain{id: antelope.Checksum256{0xaa}, salt: 1}, other: &modelChain{id: antelope.Checksum256{0xbb}, salt: 2}}
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(modelFailure); ok {
				log, failure = w.log, string(f)
				return
			}
			panic(r)
		}
	}()
	for range 5 {
		w.live.produce(w.newABI())
	}
	for range 80 {
		w.other.produce("")
	}
	w.other.lib = 40
	finalOnly := ch.n(4) == 0
	start := uint32(1 + ch.n(6))
	end := start + 25
	window := uint32(1 + ch.n(6))
	w.note("stream %d to %d, FinalOnly %v, window %d", start, end, finalOnly, window)
	opts := []Option{WithDialer(w), WithBackoff(0, 0), WithMaxReconnects(200), WithWindow(window)}
	if timing != nil {
		opts = append(opts, WithStallTimeout(modelStall))
	}
	client := NewClient("model://", opts...)
	var saved modelConsumer
	given := w.live.abiBefore(start)
	for run := 0; ; run++ {
		if run > 300 {
			fail("no progress after %d runs", run)
		}
		calm := ch.calm()
		if calm {
			w.target = nil // the final runs reach an up-to-date node
		}
		state := saved.clone()
		req := Request{Start: start, End: end, Cursor: state.cursor, FinalOnly: finalOnly, Fetch: FetchDeltas, ABIs: map[antelope.Name][]byte{}}
		switch {
		case len(state.branch) == 0:
			// Nothing delivered is left: the consumer gives the ABIs it
			// started with, as of the block before the start.
			req.ABIs[modelAccount] = []byte(given)
		case len(state.endABI) > 0 && state.endABI[len(state.endABI)-1] != "":
			req.ABIs[modelAccount] = []byte(state.endABI[len(state.endABI)-1])
		}
		w.note("run %d from %v", run, state.cursor.Last())
		killed := false
		var err error
		for ev, e := range client.Stream(context.Background(), req) {
			if e != nil {
				err = e
				break
			}
			if w.dialed == w.other {
				fail("an event from another chain's node")
			}
			if ev.Undo != nil {
				w.note("> undo %d to %d", ev.Undo.Blocks[0].Num, ev.Undo.Blocks[len(ev.Undo.Blocks)-1].Num)
			} else {
				w.note("> block %v, lib %d", ev.Block.Position, ev.Block.LastIrreversible.Num)
			}
			state.apply(ev, w.sent, finalOnly, start)
			if b := ev.Block; b != nil && state.lib > 0 {
				// The block is on the final branch as far as it was
				// reported final: the serving node's block at the last
				// irreversible block reported (or at the block's own
				// number, below it) is the chain's.
				at := min(b.Num, state.lib)
				if nb, _ := w.dialed.block(at); nb.pos != w.live.blocks[at-1].pos {
					fail("block %v delivered from a branch whose block %d is %v, reported final is %v", b.Position, at, nb.pos, w.live.blocks[at-1].pos)
				}
			}
			switch ch.n(14) {
			case 1:
				killed = true
				w.note("killed before persisting")
			case 2:
				saved = state.clone()
				killed = true
				w.note("killed after persisting")
			default:
				saved = state.clone()
			}
			if killed {
				break
			}
			w.step(state.cursor.ChainID() != antelope.Checksum256{})
		}
		switch {
		case err == nil:
		case errors.Is(err, ErrOtherChain) && w.dialed == w.other:
			w.note("refused: %v", err)
			continue
		default:
			fail("the stream ended with %v", err)
		}
		if killed {
			continue
		}
		// The stream reached its end. Once the world is calm and every
		// block final, a last resume must change nothing.
		if !calm {
			ch.used = ch.limit
			w.live.lib = w.live.head()
			continue
		}
		break
	}
	// The branch delivered is the chain's.
	c := w.live
	if len(saved.branch) != int(end-start) {
		fail("%d blocks delivered, want %d to %d", len(saved.branch), start, end-1)
	}
	for _, p := range saved.branch {
		if b, _ := c.block(p.Num); b.pos != p {
			fail("block %v delivered, the chain's is %v", p, b.pos)
		}
	}
	return w.log, ""
}

type modelFailure string

func fail(format string, args ...any) { panic(modelFailure(fmt.Sprintf(format, args...))) }

// apply checks one event against the invariants and the model, and
// applies it.
func (m *modelConsumer) apply(ev Event, sent modelSent, finalOnly bool, start uint32) {
	if ev.Undo != nil {
		if finalOnly {
			fail("an Undo with FinalOnly")
		}
		for _, p := range ev.Undo.Blocks {
			if p.Num <= m.lib {
				fail("undo of %v, at or below the last irreversible block %d reported", p, m.lib)
			}
			if len(m.branch) == 0 || m.branch[len(m.branch)-1] != p {
				fail("undo of %v, which is not the newest block delivered", p)
			}
			m.branch, m.endABI = m.branch[:len(m.branch)-1], m.endABI[:len(m.endABI)-1]
		}
	} else {
		b := ev.Block
		if n := len(m.branch); n > 0 {
			if last := m.branch[n-1]; b.Num != last.Num+1 || b.Previous != last.ID {
				fail("block %v (previous %x) delivered after %v", b.Position, b.Previous[:4], last)
			}
		} else if b.Num != start {
			fail("first block %d, the stream starts at %d", b.Num, start)
		}
		if sent.pos != b.Position {
			fail("block %v delivered, the node sent %v last", b.Position, sent.pos)
		}
		if finalOnly && (b.Num > sent.lib || b.Num > b.LastIrreversible.Num) {
			fail("FinalOnly delivered %d above the last irreversible block %d", b.Num, sent.lib)
		}
		abi, ok := b.ABI(modelAccount)
		if ok && string(abi) != sent.abiStart {
			fail("block %d: ABI %q in force, the model's is %q", b.Num, abi, sent.abiStart)
		}
		if !ok && finalOnly {
			// No fork, so nothing makes an ABI unknown: the consumer
			// gives the one at the end of the last block it persisted.
			fail("block %d: ABI unknown with FinalOnly, the model's is %q", b.Num, sent.abiStart)
		}
		endABI := ""
		if abi, ok := b.abis.at(modelAccount, uint64(b.Num)+1); ok {
			endABI = string(abi)
			if endABI != sent.abiEnd {
				fail("block %d: ABI %q at its end, the model's is %q", b.Num, abi, sent.abiEnd)
			}
		}
		m.branch, m.endABI = append(m.branch, b.Position), append(m.endABI, endABI)
		m.lib = max(m.lib, b.LastIrreversible.Num)
		if finalOnly {
			m.lib = max(m.lib, b.Num)
		}
		if lib, n := ev.cursor.lib, len(b.abis.versions[modelAccount]); b.Num >= lib && n > int(b.Num-lib)+2 {
			fail("%d ABI versions held with %d blocks above the last irreversible one", n, b.Num-lib)
		}
	}
	c := ev.Cursor()
	text, _ := c.MarshalText()
	var back Cursor
	if err := back.UnmarshalText(text); err != nil {
		fail("the cursor %s does not load: %v", text, err)
	}
	// The texts compared, not the Strings (each a MarshalText): the
	// cursor's three texts per event were a quarter of a schedule's time.
	if again, _ := back.MarshalText(); !bytes.Equal(again, text) || back.lib != c.lib || back.start != c.start || back.chain != c.chain || len(back.held) != len(c.held) {
		fail("the cursor %s loads as %s", c, back)
	}
	if last := c.Last(); len(c.held) > max(1, int(last.Num)-int(c.lib)+1) {
		fail("the cursor holds %d positions, last %d, last irreversible %d", len(c.held), last.Num, c.lib)
	}
	if last := c.Last(); len(m.branch) > 0 && last != m.branch[len(m.branch)-1] || len(m.branch) == 0 && len(c.held) != 0 {
		fail("the cursor's last block %v is not the last delivered", last)
	}
	m.cursor = c
}

// runModel runs one schedule and fails t with it, reduced, if it breaks an
// invariant. A schedule with timing decisions runs in a synctest bubble:
// its slow and silent messages, the client's stall watchdog and its
// backoff then wait on the bubble's clock, which jumps ahead whenever
// every goroutine of the run is waiting on it. On the real clock each
// delay cost the stall timeout or more of wall time, and the fuzzer, which
// keeps the inputs that reach the stall code, spent most of its time
// asleep (126 executions a second on CI, #31). The bubble's clock is also
// exact: a slow message's pieces arrive at exactly modelPiece, never late
// because the machine is loaded, so a slow message is always one the
// client must take, not sometimes a stall.
func runModel(t *testing.T, ch, timing *choices, name string) {
	t.Helper()
	if timing != nil {
		synctest.Test(t, func(t *testing.T) { checkModel(t, ch, timing, name) })
		return
	}
	checkModel(t, ch, timing, name)
}

// checkModel is runModel on the clock it is called with.
func checkModel(t *testing.T, ch, timing *choices, name string) {
	t.Helper()
	log, failure := modelRun(ch, timing)
	if failure == "" {
		return
	}
	var timed []byte
	if timing != nil {
		timed = timing.rec
	}
	data, failure2, log2 := reduce(ch.rec, timed)
	if failure2 == "" {
		t.Fatalf("%s: %s\nschedule:\n  %s", name, failure, strings.Join(log, "\n  "))
	}
	t.Fatalf("%s: %s\nreduced to %d decisions: %s\nschedule:\n  %s\nas a test case, in FuzzModelCheckedStream's seeds:\n\tf.Add(%#v, %#v)",
		name, failure, len(data), failure2, strings.Join(log2, "\n  "), data, timed)
}

// reduce shrinks a failing schedule's decisions: it drops runs of them,
// halving their length, while the schedule still fails (with the same
// timing decisions). It returns the reduced decisions, their failure and
// log ("" if the decisions did not replay the failure).
func reduce(data, timing []byte) ([]byte, string, []string) {
	fails := func(d []byte) (string, []string) {
		log, failure := modelRun(&choices{data: d, limit: 400}, fuzzTiming(timing))
		return failure, log
	}
	failure, log := fails(data)
	if failure == "" {
		return data, "", nil
	}
	for chunk := max(len(data)/2, 1); chunk >= 1; chunk /= 2 {
		for i := 0; i < len(data); {
			try := append(append([]byte(nil), data[:i]...), data[min(i+chunk, len(data)):]...)
			if f, l := fails(try); f != "" {
				data, failure, log = try, f, l
			} else {
				i += chunk
			}
		}
	}
	return data, failure, log
}

// TestModelCheckedStream runs a sweep of random schedules: 3,000 (300 with
// -short or -race), SHIP_MODEL_SCHEDULES of them when set, from seed
// SHIP_MODEL_SEED (alone, that one seed): a failing seed prints with its
// schedule. Every tenth seed has slow and silent messages too.
func TestModelCheckedStream(t *testing.T) {
	n := 3000
	if testing.Short() || raceEnabled {
		n = 300
	}
	first := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("SHIP_MODEL_SEED"), 10, 64); err == nil {
		first, n = s, 1
	}
	if s, err := strconv.Atoi(os.Getenv("SHIP_MODEL_SCHEDULES")); err == nil {
		n = s
	}
	for seed := first; seed < first+uint64(n); seed++ {
		var timing *choices
		if timedSeed(seed) {
			timing = &choices{rng: rand.New(rand.NewPCG(seed, 31)), limit: 400}
		}
		runModel(t, &choices{rng: rand.New(rand.NewPCG(seed, 30)), limit: 400}, timing, fmt.Sprintf("seed %d", seed))
	}
}

// timedSeed reports whether the sweep's seed has slow and silent messages
// (modelslow_test.go): every tenth. (Every hundredth after the first 300
// while they cost real time: 2 s in -short, 4 s in all.)
func timedSeed(seed uint64) bool {
	return seed%10 == 0
}

// FuzzModelCheckedStream is the same check without bound: the fuzzer's
// bytes are the schedule's decisions, and its timing decisions (none when
// empty), and go test minimizes a failing one into testdata/fuzz as a test
// case. A failing seed of the sweep prints its reduced decisions as a seed
// to add here.
//
// Each input is a whole stream — a client, its sessions and
// reconnections, against a model of two nodes' chains of 85 blocks —
// checked event by event, in a quarter of a millisecond of CPU. It ran at
// 126 a second on CI while slow and silent messages slept on the real
// clock; on the bubble's clock (runModel) it runs at thousands.
func FuzzModelCheckedStream(f *testing.F) {
	f.Add([]byte{}, []byte(nil))
	f.Add([]byte{3, 3, 3, 7, 0, 5, 6, 3, 4, 1, 2, 9, 3, 5, 3, 6, 0, 1}, []byte(nil))
	// Seed 95394, reduced: a lagging node believed about the start's
	// parent after an Undo of everything (TestStartAfterFullUndoFromLaggingNode).
	f.Add([]byte{0x2, 0x4, 0x4, 0x1, 0x2, 0x3, 0x3, 0x0, 0x2, 0x5, 0xd, 0x3, 0x3, 0x1, 0x2, 0x0, 0x14, 0x6, 0xa, 0x8, 0x5, 0x1a, 0x5, 0x3, 0x0, 0x0, 0x2, 0xa, 0x6, 0x7, 0x1c, 0x2, 0x0, 0x0, 0x18, 0x5, 0x0, 0x1, 0xb, 0x10, 0x1, 0x1, 0x12, 0x4, 0x6, 0x4, 0x5, 0x0, 0x3, 0x27, 0xd, 0x9, 0x20, 0x1, 0x2, 0x23, 0x0, 0x9, 0x26, 0x2, 0x1, 0xe, 0x6, 0x3, 0x0, 0x4, 0x0, 0x4, 0x1, 0x4, 0x1, 0x8, 0xd, 0x1, 0x0, 0x4, 0x1}, []byte(nil))
	// Seed 103849, reduced: a lagging node's rewind to the start, on a
	// branch that left a block reported final (TestUnlinkedRewindFromLaggingNode).
	f.Add([]byte{0x0, 0x5, 0x4, 0x3, 0x3, 0x1, 0x3, 0x0, 0x24, 0x1, 0x6, 0x5, 0x0, 0xa, 0x1e, 0xa, 0x3, 0x0, 0x5, 0x3, 0x0, 0x0, 0x5, 0x1, 0x1, 0x21, 0x0, 0x6, 0xd, 0x24, 0x1, 0x1, 0x4, 0xe, 0x26, 0x7, 0x3, 0x2, 0x0, 0x2, 0x14, 0x7, 0x6, 0x20, 0x4, 0x1, 0x1a, 0x2}, []byte(nil))
	// Seed 46, reduced: the ABIs given at the start, given again when
	// resuming from an Undo of everything (TestResumeAfterFullUndoForgetsGivenABIs).
	f.Add([]byte{0x5, 0x4, 0x0, 0x0, 0x5, 0x1, 0x5, 0x0, 0x8, 0x6, 0x3, 0x0, 0x2, 0x3, 0x4, 0x3, 0x8, 0x25, 0x1, 0x3, 0x2, 0x2}, []byte(nil))
	// Slow, silent, slow then silent.
	f.Add([]byte{}, []byte{1, 2})
	f.Add([]byte{3, 3, 3, 7, 0, 5, 6, 3, 4, 1, 2, 9, 3, 5, 3, 6, 0, 1}, []byte{0, 0, 3, 0, 1})
	f.Fuzz(func(t *testing.T, data, timing []byte) {
		runModel(t, &choices{data: data, limit: 400}, fuzzTiming(timing), "fuzz input")
	})
}

// fuzzTiming is the timing decisions data makes; nil (none) when empty.
func fuzzTiming(data []byte) *choices {
	if len(data) == 0 {
		return nil
	}
	return &choices{data: data, limit: 400}
}
