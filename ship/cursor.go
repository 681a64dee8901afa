package ship

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// Cursor is where a stream stands: the chain it follows, the block it was
// asked to start at, the highest last irreversible block reported with the
// blocks delivered, the last block delivered and the reversible blocks
// below it, by number and id. Persist it together with the state you
// derived from the blocks — in the same transaction or file write — and
// resume with it (Request.Cursor): the stream goes on after the last
// block, and the node, given the reversible positions as have_positions,
// restarts from the first of them that is no longer on its chain, so a
// fork that happened while you were away arrives as an Undo first.
//
// A resumed stream refuses a node of another chain (ErrOtherChain) and a
// fork at or below the last irreversible block the cursor holds
// (ErrForkBelowReversible; a lagging node, which does not hold that block
// final itself, is retried instead): it never undoes a block once
// reported final.
//
// A cursor holds at most 16,384 positions, about 512 KiB in binary: when
// the last irreversible block lags further behind (a finality stall), the
// oldest are let go, and a fork that replaces the oldest kept (whose
// parent is let go) or reaches below it ends the stream with
// ErrForkBelowReversible instead of an Undo. Taking one (Event.Cursor)
// costs no copy; encoding it is linear in its positions.
//
// Its binary and text forms are stable; treat them as opaque. Cursors of
// the first format (before chain id, last irreversible block and start
// were kept) still load: they resume as before, learn the chain's id from
// the node, and treat a fork below their oldest position as an error.
type Cursor struct {
	held  []Position           // ascending, consecutive numbers; the last is the last block delivered; shared, never written in place
	chain antelope.Checksum256 // the chain's id; zero: not known
	lib   uint32               // the highest last irreversible block reported with a delivered block
	start uint32               // the first block the stream was to deliver; 0: not known
}

// maxHeld bounds the positions a cursor holds: no chain keeps this many
// reversible blocks in normal operation (EOS before Savanna kept about
// 330; two hours of a finality stall is 14,400).
const maxHeld = 1 << 14

// IsZero reports whether c is the zero Cursor (a stream that has not
// started).
func (c Cursor) IsZero() bool {
	return len(c.held) == 0 && c.start == 0 && c.lib == 0 && c.chain == antelope.Checksum256{}
}

// Last is the last block delivered; zero when none is (nothing delivered,
// or all of it undone).
func (c Cursor) Last() Position {
	if len(c.held) == 0 {
		return Position{}
	}
	return c.held[len(c.held)-1]
}

// Reversible lists the positions the cursor holds, oldest first: the
// reversible blocks delivered, ending with Last.
func (c Cursor) Reversible() []Position { return append([]Position(nil), c.held...) }

// ChainID is the id of the chain the blocks are from, as the node reported
// it; zero when not known (a node without chain_id in its status).
func (c Cursor) ChainID() antelope.Checksum256 { return c.chain }

// LastIrreversible is the highest last irreversible block reported with
// the blocks delivered: a resumed stream never undoes it or a block below.
func (c Cursor) LastIrreversible() uint32 { return c.lib }

// Start is the first block the stream was to deliver (Request.Start, or
// the first the node served); a resumed stream delivers nothing below it.
func (c Cursor) Start() uint32 { return c.start }

// The versions of the binary form.
const (
	cursorV1 = 1 // count, then (number, id) per position
	cursorV2 = 2 // chain id, last irreversible, start, count, first number, then ids
)

// MarshalBinary encodes c: a version byte (2), the chain id (32 bytes),
// the last irreversible block and the start (4 bytes little-endian each),
// the position count (uvarint), the first position's number (4 bytes),
// then each position's id (32 bytes).
func (c Cursor) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends c's binary form to b.
func (c Cursor) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, cursorV2)
	b = append(b, c.chain[:]...)
	b = binary.LittleEndian.AppendUint32(b, c.lib)
	b = binary.LittleEndian.AppendUint32(b, c.start)
	b = binary.AppendUvarint(b, uint64(len(c.held)))
	if len(c.held) > 0 {
		b = binary.LittleEndian.AppendUint32(b, c.held[0].Num)
	}
	for _, p := range c.held {
		b = append(b, p.ID[:]...)
	}
	return b, nil
}

// UnmarshalBinary decodes a cursor MarshalBinary made, of this format or
// the first. A cursor of more than 16,384 positions (the first format had
// no bound) keeps the newest.
func (c *Cursor) UnmarshalBinary(data []byte) error {
	bad := func(msg string) error { return fmt.Errorf("ship: not a cursor: %s", msg) }
	if len(data) == 0 {
		*c = Cursor{}
		return nil
	}
	var out Cursor
	rest := data[1:]
	switch data[0] {
	case cursorV1:
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)) || uint64(len(rest)-k) != n*36 {
			return bad("its length does not match its position count")
		}
		rest = rest[k:]
		skip := max(n, maxHeld) - maxHeld
		out.held = make([]Position, n-skip)
		for i := uint64(0); i < n; i++ {
			num := binary.LittleEndian.Uint32(rest[i*36:])
			if i == 0 && num == 0 {
				return bad("it holds block 0, which no chain has")
			}
			if i > 0 && (num != binary.LittleEndian.Uint32(rest[(i-1)*36:])+1 || num == 0) {
				return bad("its block numbers are not consecutive")
			}
			if i >= skip {
				out.held[i-skip].Num = num
				copy(out.held[i-skip].ID[:], rest[i*36+4:])
			}
		}
	case cursorV2:
		if len(rest) < 32+4+4 {
			return bad("it is too short")
		}
		copy(out.chain[:], rest)
		out.lib = binary.LittleEndian.Uint32(rest[32:])
		out.start = binary.LittleEndian.Uint32(rest[36:])
		rest = rest[40:]
		n, k := binary.Uvarint(rest)
		rest = rest[max(k, 0):]
		if k <= 0 || n > uint64(len(rest)) || n > 0 && (len(rest) < 4 || uint64(len(rest)-4) != n*32) || n == 0 && len(rest) != 0 {
			return bad("its length does not match its position count")
		}
		if n == 0 {
			break
		}
		first := binary.LittleEndian.Uint32(rest)
		if uint64(first)+n-1 > math.MaxUint32 || first == 0 {
			return bad("its block numbers are not consecutive: they would pass 2^32")
		}
		rest = rest[4:]
		skip := max(n, maxHeld) - maxHeld
		out.held = make([]Position, n-skip)
		for i := range out.held {
			out.held[i].Num = first + uint32(skip) + uint32(i)
			copy(out.held[i].ID[:], rest[(skip+uint64(i))*32:])
		}
		if out.start > first {
			return bad(fmt.Sprintf("it starts at block %d but holds block %d", out.start, first))
		}
	default:
		return bad(fmt.Sprintf("version %d, this package reads %d and %d", data[0], cursorV1, cursorV2))
	}
	*c = out
	return nil
}

const cursorPrefix = "ship1:"

// MarshalText is the binary form in base64url after "ship1:", for a text
// file, a database column or a log line.
func (c Cursor) MarshalText() ([]byte, error) {
	if c.IsZero() {
		return []byte{}, nil
	}
	bin, _ := c.MarshalBinary()
	return []byte(cursorPrefix + base64.RawURLEncoding.EncodeToString(bin)), nil
}

// UnmarshalText decodes MarshalText's form; empty text is the zero Cursor.
func (c *Cursor) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if s == "" {
		*c = Cursor{}
		return nil
	}
	enc, ok := strings.CutPrefix(s, cursorPrefix)
	if !ok {
		return fmt.Errorf("ship: not a cursor: it does not start with %q", cursorPrefix)
	}
	bin, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return fmt.Errorf("ship: not a cursor: %v", err)
	}
	return c.UnmarshalBinary(bin)
}

// String is the text form.
func (c Cursor) String() string {
	t, _ := c.MarshalText()
	return string(t)
}
