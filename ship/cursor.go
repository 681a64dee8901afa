package ship

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
)

// Cursor is where a stream stands: the last block delivered and the
// reversible blocks below it (those above the last irreversible block), by
// number and id. Persist it together with the state you derived from the
// blocks — in the same transaction or file write — and resume with it
// (Request.Cursor): the stream goes on after the last block, and the node,
// given the reversible positions as have_positions, restarts from the first
// of them that is no longer on its chain, so a fork that happened while
// you were away arrives as an Undo first. Its binary and text forms are
// stable; treat them as opaque.
type Cursor struct {
	held []Position // ascending, consecutive numbers; the last is the last block delivered
}

// IsZero reports whether c is the zero Cursor (nothing delivered).
func (c Cursor) IsZero() bool { return len(c.held) == 0 }

// Last is the last block delivered.
func (c Cursor) Last() Position {
	if len(c.held) == 0 {
		return Position{}
	}
	return c.held[len(c.held)-1]
}

// Reversible lists the positions the cursor holds, oldest first: the
// reversible blocks delivered, ending with Last.
func (c Cursor) Reversible() []Position { return append([]Position(nil), c.held...) }

const cursorVersion = 1

// MarshalBinary encodes c: a version byte, a count, then each position as
// its number (4 bytes little-endian) and id (32 bytes).
func (c Cursor) MarshalBinary() ([]byte, error) { return c.AppendBinary(nil) }

// AppendBinary appends c's binary form to b.
func (c Cursor) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, cursorVersion)
	b = binary.AppendUvarint(b, uint64(len(c.held)))
	for _, p := range c.held {
		b = binary.LittleEndian.AppendUint32(b, p.Num)
		b = append(b, p.ID[:]...)
	}
	return b, nil
}

// maxCursorPositions bounds a decoded cursor: no chain keeps more
// reversible blocks (EOS before Savanna kept about 330).
const maxCursorPositions = 1 << 16

// UnmarshalBinary decodes a cursor MarshalBinary made.
func (c *Cursor) UnmarshalBinary(data []byte) error {
	bad := func(msg string) error { return fmt.Errorf("ship: not a cursor: %s", msg) }
	if len(data) == 0 {
		*c = Cursor{}
		return nil
	}
	if data[0] != cursorVersion {
		return bad(fmt.Sprintf("version %d, this package reads %d", data[0], cursorVersion))
	}
	n, k := binary.Uvarint(data[1:])
	if k <= 0 || n > maxCursorPositions || uint64(len(data)-1-k) != n*36 {
		return bad("its length does not match its position count")
	}
	held := make([]Position, n)
	rest := data[1+k:]
	for i := range held {
		held[i].Num = binary.LittleEndian.Uint32(rest)
		copy(held[i].ID[:], rest[4:36])
		rest = rest[36:]
		if i > 0 && held[i].Num != held[i-1].Num+1 {
			return bad("its block numbers are not consecutive")
		}
	}
	c.held = held
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
