package wasm

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/antelopego/abigen/antelope"
)

func defineDatabase() {
	def("db_store_i64", "IIIIii", "i", func(c *call, s []uint64) {
		it, err := c.host.StoreI64(s[0], s[1], s[2], s[3], c.bytes(argI32(s, 4), argI32(s, 5)))
		if err != nil {
			raise(err)
		}
		retI32(s, it)
	})
	def("db_update_i64", "iIii", "", func(c *call, s []uint64) {
		if err := c.host.UpdateI64(int32(argI32(s, 0)), s[1], c.bytes(argI32(s, 2), argI32(s, 3))); err != nil {
			raise(err)
		}
	})
	def("db_remove_i64", "i", "", func(c *call, s []uint64) {
		if err := c.host.RemoveI64(int32(argI32(s, 0))); err != nil {
			raise(err)
		}
	})
	def("db_get_i64", "iii", "i", func(c *call, s []uint64) {
		data, err := c.host.GetI64(int32(argI32(s, 0)))
		if err != nil {
			raise(err)
		}
		c.copyOut(s, data, argI32(s, 1), argI32(s, 2))
	})
	def("db_next_i64", "ii", "i", func(c *call, s []uint64) {
		next, pk, err := c.host.NextI64(int32(argI32(s, 0)))
		stepResult(c, s, next, pk, err)
	})
	def("db_previous_i64", "ii", "i", func(c *call, s []uint64) {
		prev, pk, err := c.host.PreviousI64(int32(argI32(s, 0)))
		stepResult(c, s, prev, pk, err)
	})
	def("db_find_i64", "IIII", "i", func(c *call, s []uint64) { retI32(s, c.host.FindI64(s[0], s[1], s[2], s[3])) })
	def("db_lowerbound_i64", "IIII", "i", func(c *call, s []uint64) { retI32(s, c.host.LowerboundI64(s[0], s[1], s[2], s[3])) })
	def("db_upperbound_i64", "IIII", "i", func(c *call, s []uint64) { retI32(s, c.host.UpperboundI64(s[0], s[1], s[2], s[3])) })
	def("db_end_i64", "III", "i", func(c *call, s []uint64) { retI32(s, c.host.EndI64(s[0], s[1], s[2])) })

	for _, k := range []IndexKind{Idx64, Idx128, Idx256, IdxDouble, IdxLongDouble} {
		defineIndex(k)
	}
}

// stepResult writes a next/previous answer: the primary key only for a
// row iterator, as nodeos does.
func stepResult(c *call, s []uint64, it int32, pk uint64, err error) {
	if err != nil {
		raise(err)
	}
	if it >= 0 {
		c.putU64(argI32(s, 1), pk)
	}
	retI32(s, it)
}

var indexPrefix = [...]string{Idx64: "db_idx64", Idx128: "db_idx128", Idx256: "db_idx256", IdxDouble: "db_idx_double", IdxLongDouble: "db_idx_long_double"}

// defineIndex registers the ten intrinsics of one secondary index type.
// idx256 passes its key as a span of two uint128 (ptr, count: two wasm
// arguments); the others as one pointer.
func defineIndex(k IndexKind) {
	p := indexPrefix[k]
	key := "i" // the key's wasm arguments
	if k == Idx256 {
		key = "ii"
	}
	n := len(key)
	def(p+"_store", "IIII"+key, "i", func(c *call, s []uint64) {
		it, err := c.host.IdxStore(k, s[0], s[1], s[2], s[3], readKey(c, k, s[4:], true))
		if err != nil {
			raise(err)
		}
		retI32(s, it)
	})
	def(p+"_update", "iI"+key, "", func(c *call, s []uint64) {
		if err := c.host.IdxUpdate(k, int32(argI32(s, 0)), s[1], readKey(c, k, s[2:], true)); err != nil {
			raise(err)
		}
	})
	def(p+"_remove", "i", "", func(c *call, s []uint64) {
		if err := c.host.IdxRemove(k, int32(argI32(s, 0))); err != nil {
			raise(err)
		}
	})
	def(p+"_find_secondary", "III"+key+"i", "i", func(c *call, s []uint64) {
		it, pk := c.host.IdxFindSecondary(k, s[0], s[1], s[2], readKey(c, k, s[3:], true))
		if it >= 0 {
			c.putU64(argI32(s, 3+n), pk)
		}
		retI32(s, it)
	})
	def(p+"_find_primary", "III"+key+"I", "i", func(c *call, s []uint64) {
		checkKeySpan(c, k, s[3:])
		it, found := c.host.IdxFindPrimary(k, s[0], s[1], s[2], s[3+n])
		if it >= 0 {
			writeKey(c, k, s[3:], found)
		}
		retI32(s, it)
	})
	bound := func(upper bool) func(c *call, s []uint64) {
		return func(c *call, s []uint64) {
			in := readKey(c, k, s[3:], true)
			var it int32
			var found antelope.TableKey
			var pk uint64
			if upper {
				it, found, pk = c.host.IdxUpperbound(k, s[0], s[1], s[2], in)
			} else {
				it, found, pk = c.host.IdxLowerbound(k, s[0], s[1], s[2], in)
			}
			if it >= 0 {
				writeBound(c, k, s[3:], found, argI32(s, 3+n), pk)
			}
			retI32(s, it)
		}
	}
	def(p+"_lowerbound", "III"+key+"i", "i", bound(false))
	def(p+"_upperbound", "III"+key+"i", "i", bound(true))
	def(p+"_end", "III", "i", func(c *call, s []uint64) { retI32(s, c.host.IdxEnd(k, s[0], s[1], s[2])) })
	def(p+"_next", "ii", "i", func(c *call, s []uint64) {
		next, pk, err := c.host.IdxNext(k, int32(argI32(s, 0)))
		stepResult(c, s, next, pk, err)
	})
	def(p+"_previous", "ii", "i", func(c *call, s []uint64) {
		prev, pk, err := c.host.IdxPrevious(k, int32(argI32(s, 0)))
		stepResult(c, s, prev, pk, err)
	})
}

// checkKeySpan refuses an idx256 key span that is not two uint128 words.
func checkKeySpan(c *call, k IndexKind, s []uint64) {
	if k == Idx256 && argI32(s, 1) != 2 {
		raise(newException(3230002, "db_api_exception", "Database API Exception",
			fmt.Sprintf("invalid size of secondary key array for idx256: given %d bytes but expected 2 bytes", argI32(s, 1))))
	}
}

// readKey reads a secondary key from memory: idx64 a uint64, idx128 a
// uint128, idx256 two uint128 words (word 0 first, each little-endian, as
// CDT's fixed_bytes packs a checksum256: the key's bytes are word 0
// big-endian then word 1 big-endian), idx_double a double, idx_long_double
// the 16 bytes of a binary128. nan: refuse NaN, as nodeos's is_nan_check.
func readKey(c *call, k IndexKind, s []uint64, nan bool) antelope.TableKey {
	checkKeySpan(c, k, s)
	ptr := argI32(s, 0)
	switch k {
	case Idx64:
		return antelope.KeyUint64(c.u64(ptr))
	case Idx128:
		lo, hi := c.u128(ptr)
		return antelope.KeyUint128(antelope.Uint128{Lo: lo, Hi: hi})
	case Idx256:
		b := c.view(ptr, 32)
		var be antelope.Checksum256
		for i := range 16 {
			be[i] = b[15-i]
			be[16+i] = b[31-i]
		}
		return antelope.KeyI256(be)
	case IdxDouble:
		v := math.Float64frombits(c.u64(ptr))
		if nan && math.IsNaN(v) {
			raise(errNaN())
		}
		return antelope.KeyFloat64(v)
	}
	var f antelope.Float128
	copy(f[:], c.view(ptr, 16))
	if nan && isNaN128(binary.LittleEndian.Uint64(f[:8]), binary.LittleEndian.Uint64(f[8:])) {
		raise(errNaN())
	}
	return antelope.KeyFloat128(f)
}

// keyAlign is the alignment of an index type's key in memory.
var keyAlign = [...]uint32{Idx64: 8, Idx128: 16, Idx256: 16, IdxDouble: 8, IdxLongDouble: 16}

// writeBound writes a lower or upper bound's key and primary key in the
// order nodeos's pointer proxies do, which shows when the two overlap: an
// aligned pointer is written by the intrinsic itself (the primary key,
// then the key), an unaligned one through a copy written back afterwards
// (the key's, then the primary key's). leap's idx64_lowerbound test checks
// each combination.
func writeBound(c *call, k IndexKind, s []uint64, key antelope.TableKey, pkPtr uint32, pk uint64) {
	keyAligned, pkAligned := argI32(s, 0)%keyAlign[k] == 0, pkPtr%8 == 0
	if pkAligned {
		c.putU64(pkPtr, pk)
	}
	if keyAligned {
		writeKey(c, k, s, key)
	}
	if !keyAligned {
		writeKey(c, k, s, key)
	}
	if !pkAligned {
		c.putU64(pkPtr, pk)
	}
}

// writeKey writes a key back in readKey's layout.
func writeKey(c *call, k IndexKind, s []uint64, key antelope.TableKey) {
	ptr := argI32(s, 0)
	b := key.Bytes()
	switch k {
	case Idx64, IdxDouble:
		c.putU64(ptr, binary.BigEndian.Uint64(b[24:]))
	case Idx128:
		c.putU128(ptr, binary.BigEndian.Uint64(b[24:]), binary.BigEndian.Uint64(b[16:24]))
	case Idx256:
		var out [32]byte
		for i := range 16 {
			out[i] = b[15-i]
			out[16+i] = b[31-i]
		}
		c.write(ptr, out[:])
	case IdxLongDouble:
		c.write(ptr, b[16:])
	}
}
