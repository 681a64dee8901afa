package chaintest

import (
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// The contract tables live in internal/store; db is their state under
// the name the rest of the package has always used for it.
type db = store.DB

// chainSeam is the chain as execution asks it (exec.Chain): the chain's
// methods stay unexported on Chain.
type chainSeam struct{ c *Chain }

func (s chainSeam) TAPoS(refNum uint16, refPrefix uint32) bool { return s.c.tapos(refNum, refPrefix) }
func (s chainSeam) Executed(id antelope.Checksum256) bool      { return s.c.executed(id) }
func (s chainSeam) HeadTime() time.Time                        { return s.c.headTime() }
func (s chainSeam) NextBlockNum() uint32                       { return s.c.nextBlockNum() }
