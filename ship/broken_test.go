package ship_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/internal/shipcheck"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
	"github.com/antelopego/abigen/ship/shiptest"
)

// lyingDialer is a websocket whose blocks results pass through lie before
// the client reads them: a broken node, or one behind a proxy that mixes
// nodes.
type lyingDialer struct {
	lie func(r *protocol.GetBlocksResultV1)
}

func (d lyingDialer) Dial(ctx context.Context, url string, max int64) (ship.Conn, error) {
	c, err := ship.WebSocket{}.Dial(ctx, url, max)
	if err != nil {
		return nil, err
	}
	return &lyingConn{Conn: c, lie: d.lie}, nil
}

type lyingConn struct {
	ship.Conn
	lie func(r *protocol.GetBlocksResultV1)
}

func (c *lyingConn) ReadMessage(ctx context.Context, buf []byte) (bool, []byte, error) {
	text, msg, err := c.Conn.ReadMessage(ctx, buf)
	if err != nil || text {
		return text, msg, err
	}
	var r protocol.Result
	if r.UnmarshalBinary(msg) != nil {
		return text, msg, err
	}
	if b, ok := r.Value.(*protocol.GetBlocksResultV1); ok && b.ThisBlock != nil {
		c.lie(b)
		out, err := r.MarshalBinary()
		return false, out, err
	}
	return text, msg, err
}

// streamAll runs a stream to its end and returns the checked branch and
// the terminal error.
func streamAll(t *testing.T, c *ship.Client, req ship.Request, check func(ev ship.Event)) (*shipcheck.Branch, error) {
	t.Helper()
	b := &shipcheck.Branch{T: t}
	for ev, err := range c.Stream(testContext(t), req) {
		if err != nil {
			return b, err
		}
		b.Event(ev)
		if check != nil {
			check(ev)
		}
	}
	return b, nil
}

// With FinalOnly, a block the node itself reports above its last
// irreversible block is never delivered.
func TestFinalOnlyNeverAboveLIB(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	chain.SetLastIrreversible(20)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	lie := func(r *protocol.GetBlocksResultV1) {
		if r.ThisBlock.BlockNum >= 8 {
			r.LastIrreversible = protocol.BlockPosition{BlockNum: r.ThisBlock.BlockNum - 1, BlockID: r.ThisBlock.BlockID}
		}
	}
	_, err := streamAll(t, fastClient(srv.URL, ship.WithDialer(lyingDialer{lie}), ship.WithMaxReconnects(5)),
		ship.Request{Start: 1, End: 21, FinalOnly: true}, func(ev ship.Event) {
			if ev.Undo != nil {
				t.Fatal("an Undo with FinalOnly")
			}
			if ev.Block.Num > ev.Block.LastIrreversible.Num {
				t.Fatalf("FinalOnly delivered block %d above the last irreversible %d", ev.Block.Num, ev.Block.LastIrreversible.Num)
			}
		})
	if !errors.Is(err, ship.ErrBrokenNode) {
		t.Fatalf("%v", err)
	}
}

// A last irreversible block above the node's head is not believed.
func TestLIBAboveHeadRefused(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	lie := func(r *protocol.GetBlocksResultV1) {
		if r.ThisBlock.BlockNum == 10 {
			r.LastIrreversible.BlockNum = r.Head.BlockNum + 5
		}
	}
	var last ship.Cursor
	_, err := streamAll(t, fastClient(srv.URL, ship.WithDialer(lyingDialer{lie}), ship.WithMaxReconnects(5)),
		ship.Request{Start: 1, End: 21}, func(ev ship.Event) {
			if ev.Block != nil && ev.Block.LastIrreversible.Num > ev.Block.Head.Num {
				t.Fatalf("block %d delivered with its last irreversible block %d above the head %d", ev.Block.Num, ev.Block.LastIrreversible.Num, ev.Block.Head.Num)
			}
			last = ev.Cursor()
		})
	if !errors.Is(err, ship.ErrBrokenNode) {
		t.Fatalf("%v", err)
	}
	if len(last.Reversible()) < 9 {
		t.Errorf("the cursor shrank to %d positions", len(last.Reversible()))
	}
}

// A null prev_block mid-stream is not a license to skip the link check.
func TestNullPrevMidStreamRefused(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(20)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	lie := func(r *protocol.GetBlocksResultV1) {
		if r.ThisBlock.BlockNum >= 10 {
			r.PrevBlock = nil
		}
	}
	b, err := streamAll(t, fastClient(srv.URL, ship.WithDialer(lyingDialer{lie}), ship.WithMaxReconnects(5)), ship.Request{Start: 1, End: 21}, nil)
	if !errors.Is(err, ship.ErrBrokenNode) || b.Last().Num != 9 {
		t.Fatalf("last %v: %v", b.Last(), err)
	}
}

// An endpoint that accepts TCP and never answers the handshake is a failed
// attempt after the stall timeout, not a hang until the context ends.
func TestDialTimeout(t *testing.T) {
	ln := silentListener(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	for _, e := range ship.NewClient("ws://"+ln, ship.WithStallTimeout(100*time.Millisecond), ship.WithBackoff(time.Millisecond, time.Millisecond),
		ship.WithMaxReconnects(1)).Stream(ctx, ship.Request{Start: 1}) {
		err = e
	}
	if err == nil || ctx.Err() != nil || !containsAll(err.Error(), "giving up after 2", "no handshake within") {
		t.Fatalf("%v", err)
	}
}

// A message that keeps arriving is not a stall, however long it takes in
// all: the stall timeout is time without bytes.
func TestSlowMessageIsNotAStall(t *testing.T) {
	chain := shiptest.NewChain()
	chain.ProduceEmpty(1)
	big := make([]byte, 96<<10)
	chain.Produce(shiptest.BlockData{Rows: []shiptest.Row{{Code: token, Scope: bob, Table: accts, PrimaryKey: 1, Payer: bob, Value: big}}})
	chain.ProduceEmpty(1)
	srv := shiptest.NewServer(chain)
	defer srv.Close()
	// 4 KiB per 20 ms: the big block takes about half a second, in
	// pieces far more frequent than the stall timeout.
	proxy := throttledProxy(t, strings.TrimPrefix(srv.URL, "ws://"), 4<<10, 20*time.Millisecond)
	b, err := streamAll(t, fastClient("ws://"+proxy, ship.WithStallTimeout(250*time.Millisecond), ship.WithMaxReconnects(3)), ship.Request{Start: 1, End: 4}, nil)
	if err != nil || len(b.Blocks) != 3 {
		t.Fatalf("%d blocks: %v", len(b.Blocks), err)
	}
}

// An endpoint that refuses the handshake at once (a 404: the wrong path, or
// a plain HTTP server) is reported as what it answered, not as a handshake
// that timed out: the stall timeout did not pass.
func TestRefusedHandshakeIsNotATimeout(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	var err error
	for _, e := range fastClient("ws"+strings.TrimPrefix(srv.URL, "http"), ship.WithMaxReconnects(0)).Stream(context.Background(), ship.Request{Start: 1}) {
		err = e
	}
	if err == nil || strings.Contains(err.Error(), "no handshake within") || !strings.Contains(err.Error(), "404") {
		t.Fatalf("a 404 at once: %v", err)
	}
}
