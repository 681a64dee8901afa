package ship_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/protocol"
)

// blocksOnly is a node that answers every request with an empty
// get_blocks_result_v0, get_status included.
type blocksOnly struct{ sentABI bool }

func (n *blocksOnly) Dial(context.Context, string, int64) (ship.Conn, error) { return n, nil }

func (n *blocksOnly) ReadMessage(_ context.Context, buf []byte) (bool, []byte, error) {
	if !n.sentABI {
		n.sentABI = true
		return true, append(buf[:0], protocol.ABIJSON...), nil
	}
	// result index 1 (get_blocks_result_v0): head and last irreversible,
	// then this_block, prev_block, block, traces and deltas all absent.
	msg := append(buf[:0], 1)
	msg = append(msg, make([]byte, 2*36)...)
	return false, append(msg, 0, 0, 0, 0, 0), nil
}

func (n *blocksOnly) WriteMessage(context.Context, []byte) error { return nil }
func (n *blocksOnly) Close() error                               { return nil }

// A node that answers get_status with anything but a status is broken: the
// client says so at once, where it used to read on for as long as the node
// sent (found when the bench's replay node, which answers everything with
// blocks, hung the stream's status check).
func TestStatusAnsweredWithBlocks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := ship.NewClient("blocks-only", ship.WithDialer(&blocksOnly{})).Status(ctx)
	if !errors.Is(err, ship.ErrBrokenNode) {
		t.Fatalf("got %v, want ErrBrokenNode", err)
	}
}
