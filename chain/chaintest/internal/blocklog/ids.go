package blocklog

import (
	"crypto/sha256"
	"encoding/binary"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// ID is the id of block num of chain chainID: a hash of what it holds and
// where it is (and, after the branch-th fork, of the fork, so that the new
// branch's blocks have new ids even when they hold the same), its first
// four bytes its number. salt makes the first block of each chain of a
// process its own.
func ID(chainID antelope.Checksum256, salt uint64, num uint32, prev antelope.Checksum256, t time.Time, txs []antelope.Checksum256, branch uint32) antelope.Checksum256 {
	h := sha256.New()
	h.Write(prev[:])
	h.Write(chainID[:])
	if prev == (antelope.Checksum256{}) {
		// Each chain's first block is its own, even for two chains made in
		// the same half second: a block id names one history, and clients
		// rely on that (chain.Client remembers what it built per
		// reference block, and the head times seen with it).
		_ = binary.Write(h, binary.BigEndian, salt)
	}
	_ = binary.Write(h, binary.BigEndian, t.UnixMilli())
	for _, id := range txs {
		h.Write(id[:])
	}
	if branch != 0 {
		_ = binary.Write(h, binary.BigEndian, branch)
	}
	var id antelope.Checksum256
	h.Sum(id[:0])
	binary.BigEndian.PutUint32(id[:4], num)
	return id
}
