package wasm

import (
	"encoding/binary"
	"math"
)

// Reading and writing the instance's memory for the intrinsics. An access
// outside it ends the run with nodeos's "access violation".

// view is n bytes at ptr, aliasing memory: copy to keep.
func (c *call) view(ptr, n uint32) []byte {
	if n == 0 {
		return nil
	}
	b, ok := c.mem.Read(ptr, n)
	if !ok {
		raise(errAccessViolation())
	}
	return b
}

// bytes is a copy of n bytes at ptr.
func (c *call) bytes(ptr, n uint32) []byte {
	return append([]byte(nil), c.view(ptr, n)...)
}

func (c *call) write(ptr uint32, b []byte) {
	if len(b) == 0 {
		return
	}
	if !c.mem.Write(ptr, b) {
		raise(errAccessViolation())
	}
}

// copyOut is nodeos's way of giving data to a buffer (ptr, n): with n 0
// the data's size, else as much as fits, returning how much was copied.
func (c *call) copyOut(s []uint64, data []byte, ptr, n uint32) {
	if n == 0 {
		retI32(s, int32(len(data)))
		return
	}
	n = min(n, uint32(len(data)))
	c.write(ptr, data[:n])
	retI32(s, int32(n))
}

func (c *call) u64(ptr uint32) uint64 { return binary.LittleEndian.Uint64(c.view(ptr, 8)) }

func (c *call) putU64(ptr uint32, v uint64) {
	if !c.mem.WriteUint64Le(ptr, v) {
		raise(errAccessViolation())
	}
}

// u128 reads a 128-bit little-endian value as (lo, hi).
func (c *call) u128(ptr uint32) (lo, hi uint64) {
	b := c.view(ptr, 16)
	return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
}

func (c *call) putU128(ptr uint32, lo, hi uint64) {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], lo)
	binary.LittleEndian.PutUint64(b[8:], hi)
	c.write(ptr, b[:])
}

// cstring reads a NUL-terminated string (nodeos's null_terminated_ptr: the
// NUL must be inside memory), at most max bytes of it.
func (c *call) cstring(ptr uint32, max int) string {
	size := c.mem.Size()
	if ptr >= size {
		raise(errAccessViolation())
	}
	b, _ := c.mem.Read(ptr, size-ptr)
	n := 0
	for n < len(b) && b[n] != 0 {
		n++
	}
	if n == len(b) {
		raise(errAccessViolation())
	}
	if max >= 0 && n > max {
		n = max
	}
	return string(b[:n])
}

// Arguments and results on wazero's stack.
func argI32(s []uint64, i int) uint32  { return uint32(s[i]) }
func argF32(s []uint64, i int) float32 { return math.Float32frombits(uint32(s[i])) }
func argF64(s []uint64, i int) float64 { return math.Float64frombits(s[i]) }
func retI32(s []uint64, v int32)       { s[0] = uint64(uint32(v)) }
func retBool(s []uint64, v bool) {
	if v {
		s[0] = 1
	} else {
		s[0] = 0
	}
}
