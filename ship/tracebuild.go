package ship

import (
	"encoding/binary"
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// Traces built outside a stream (read from a history service such as
// Hyperion, or made by a test) have no wire bytes for the lists that
// Authorization and AuthSequence decode on demand; these setters encode
// them the way state history sends them, so that the accessors answer the
// same for a trace from either source.

// SetAuthorization sets the action's authorization list, in the order
// given, as Authorization returns it.
func (a *ActionTrace) SetAuthorization(levels []antelope.PermissionLevel) {
	b := antelope.AppendVarUint32(make([]byte, 0, 5+16*len(levels)), uint32(len(levels)))
	for _, l := range levels {
		b = binary.LittleEndian.AppendUint64(b, uint64(l.Actor))
		b = binary.LittleEndian.AppendUint64(b, uint64(l.Permission))
	}
	a.auth = b
}

// SetAuthSequence sets the receipt's auth_sequence, as AuthSequence returns
// it. nodeos keeps it as a flat_map, ordered by account name; it is
// encoded in that order.
func (a *ActionTrace) SetAuthSequence(seq map[antelope.Name]uint64) {
	names := make([]antelope.Name, 0, len(seq))
	for n := range seq {
		names = append(names, n)
	}
	slices.Sort(names)
	b := antelope.AppendVarUint32(make([]byte, 0, 5+16*len(names)), uint32(len(names)))
	for _, n := range names {
		b = binary.LittleEndian.AppendUint64(b, uint64(n))
		b = binary.LittleEndian.AppendUint64(b, seq[n])
	}
	a.authSeq = b
}
