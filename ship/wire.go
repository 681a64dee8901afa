package ship

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/antelopego/abigen/antelope"
)

// wire reads the binary encoding of state-history messages in place: every
// byte string it returns aliases the message, so walking a block allocates
// nothing. The first error sticks: later reads return zero values, and the
// caller checks err once per item.
type wire struct {
	data []byte
	pos  int
	err  error
	what string // the part being read, for errors ("traces", "deltas")
}

// MaxNesting bounds how deeply failed_dtrx_trace may nest inside
// transaction traces, so that hostile input cannot recurse without end.
const maxNesting = 32

func (w *wire) fail(msg string) {
	if w.err == nil {
		w.err = &FormatError{Part: w.what, Offset: w.pos, Msg: msg}
	}
}

func (w *wire) need(n int) bool {
	if w.err != nil {
		return false
	}
	if n < 0 || n > len(w.data)-w.pos {
		w.fail("input ends early: need " + strconv.Itoa(n) + " bytes, have " + strconv.Itoa(len(w.data)-w.pos))
		return false
	}
	return true
}

func (w *wire) u8() uint8 {
	if !w.need(1) {
		return 0
	}
	w.pos++
	return w.data[w.pos-1]
}

func (w *wire) boolean() bool {
	switch w.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	w.pos--
	w.fail("a bool or optional flag that is neither 0 nor 1")
	return false
}

func (w *wire) u32() uint32 {
	if !w.need(4) {
		return 0
	}
	w.pos += 4
	return binary.LittleEndian.Uint32(w.data[w.pos-4:])
}

func (w *wire) u64() uint64 {
	if !w.need(8) {
		return 0
	}
	w.pos += 8
	return binary.LittleEndian.Uint64(w.data[w.pos-8:])
}

func (w *wire) name() antelope.Name { return antelope.Name(w.u64()) }

func (w *wire) checksum() (c antelope.Checksum256) {
	if w.need(32) {
		copy(c[:], w.data[w.pos:])
		w.pos += 32
	}
	return c
}

func (w *wire) skip(n int) {
	if w.need(n) {
		w.pos += n
	}
}

// varuint reads an unsigned LEB128 of at most max bits (32 or 64).
func (w *wire) varuint(bits int) uint64 {
	if w.pos < len(w.data) && w.data[w.pos] < 0x80 && w.err == nil {
		w.pos++
		return uint64(w.data[w.pos-1])
	}
	var v uint64
	for shift := 0; shift < bits+7; shift += 7 {
		if !w.need(1) {
			return 0
		}
		c := w.data[w.pos]
		w.pos++
		if shift == 63 && c > 1 || shift > 63 {
			break
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if c == 0 && shift > 0 {
				w.fail("a varuint with a redundant trailing zero byte")
				return 0
			}
			if bits == 32 && v > 0xffffffff {
				break
			}
			return v
		}
	}
	w.fail("a varuint" + strconv.Itoa(bits) + " out of range")
	return 0
}

func (w *wire) varu32() uint32 { return uint32(w.varuint(32)) }

// count reads an element count whose elements take at least minSize bytes
// each, so a count the input cannot hold is refused before any loop.
func (w *wire) count(minSize int) int {
	n := w.varuint(32)
	if w.err == nil && n*uint64(max(minSize, 1)) > uint64(len(w.data)-w.pos) {
		w.fail(strconv.FormatUint(n, 10) + " elements cannot fit in the " + strconv.Itoa(len(w.data)-w.pos) + " bytes left")
		return 0
	}
	return int(n)
}

// pairs reads a list of 16-byte elements (permission levels, auth
// sequences, RAM deltas) in place, count included.
func (w *wire) pairs() []byte {
	start := w.pos
	w.skip(16 * w.count(16))
	if w.err != nil {
		return nil
	}
	return w.data[start:w.pos]
}

// bytes reads a varuint32-prefixed byte string in place.
func (w *wire) bytes() []byte { return w.span(w.varuint(32)) }

// bigBytes reads a byte string with a varuint64 length: how spring streams
// the traces and deltas log entries (history_pack_varuint64), identical to
// the ABI's bytes below 4 GiB.
func (w *wire) bigBytes() []byte { return w.span(w.varuint(64)) }

func (w *wire) span(n uint64) []byte {
	if w.err != nil {
		return nil
	}
	if n > uint64(len(w.data)-w.pos) {
		w.fail("a length of " + strconv.FormatUint(n, 10) + " bytes, but only " + strconv.Itoa(len(w.data)-w.pos) + " are left")
		return nil
	}
	b := w.data[w.pos : w.pos+int(n) : w.pos+int(n)]
	w.pos += int(n)
	return b
}

func (w *wire) position() Position {
	return Position{Num: w.u32(), ID: w.checksum()}
}

// end reports trailing bytes after a value as an error.
func (w *wire) end() error {
	if w.err == nil && w.pos != len(w.data) {
		w.fail(strconv.Itoa(len(w.data)-w.pos) + " unexpected trailing bytes")
	}
	return w.err
}

// FormatError is a state-history message, trace or delta whose bytes do
// not follow the protocol the server's ABI announced: a node bug, a proxy
// that altered the stream, or a protocol version this package does not
// know. Reconnecting will not help; report it with the node's version.
type FormatError struct {
	Part   string // "result", "traces", "deltas", "block"
	Offset int    // byte offset inside that part
	Msg    string // what is wrong
}

// Error implements error.
func (e *FormatError) Error() string {
	return fmt.Sprintf("ship: malformed %s at byte %d: %s", e.Part, e.Offset, e.Msg)
}
