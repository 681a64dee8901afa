package blocklog

import (
	"time"

	"github.com/antelopego/abigen/antelope"
)

// Encoding state history's values: chaintest's own, which always encode.

// Timestamp is t as a block_timestamp_type (half seconds since 2000).
func Timestamp(t time.Time) antelope.BlockTimestamp {
	return antelope.BlockTimestamp((t.UnixMilli() - 946684800000) / 500)
}

// EncodeList packs values as an ABI array: a varuint32 count, then each.
func EncodeList[T antelope.BinaryAppender](list []T) []byte {
	b := antelope.AppendVarUint32(nil, uint32(len(list)))
	for _, v := range list {
		b = MustAppend(b, v)
	}
	return b
}

// MustMarshal is v's encoding.
func MustMarshal(v antelope.BinaryAppender) []byte { return MustAppend(nil, v) }

// MustAppend appends v's encoding: chaintest's own values, which always
// encode (an error is chaintest's bug, not the test's).
func MustAppend(b []byte, v antelope.BinaryAppender) []byte {
	b, err := v.AppendBinary(b)
	if err != nil {
		panic("chaintest: encoding a state-history value: " + err.Error())
	}
	return b
}

// NonNil is s, or an empty (non-nil) slice for nil.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
