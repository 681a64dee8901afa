package chaintest

import (
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
	"github.com/antelopego/abigen/chain/chaintest/internal/wasm"
)

// The contract tables live in internal/store; these are its types under
// the names the rest of the package (execution, the served APIs, the
// fork) has always used for them.
type (
	tableID = store.TableID
	row     = store.Row
	secRow  = store.SecRow
	table   = store.Table
	db      = store.DB
)

// forkFiller is the fork's lazy remote fill (forkstate.go) as the store
// sees it: the fork's methods stay unexported on Chain.
type forkFiller struct{ c *Chain }

func (f forkFiller) FillTable(id tableID)                   { f.c.fillTable(id) }
func (f forkFiller) FillIndex(id tableID, k wasm.IndexKind) { f.c.fillIndex(id, k) }
func (f forkFiller) ListScopes(code antelope.Name)          { f.c.listScopes(code) }
func (f forkFiller) FillAccount(n antelope.Name)            { f.c.fork.loadAccount(f.c, n) }

// forkFiller is execution's seam to the fork too (exec.Fork).
func (f forkFiller) LoadContract(n antelope.Name) { f.c.fork.loadContract(f.c, n) }
func (f forkFiller) Fetches() int                 { return f.c.fork.fetches }
func (f forkFiller) TakeFailure() error           { return f.c.takeForkFailure() }
func (f forkFiller) Fail(err error)               { f.c.fork.fail(err) }

// chainSeam is the chain as execution asks it (exec.Chain): the chain's
// methods stay unexported on Chain.
type chainSeam struct{ c *Chain }

func (s chainSeam) TAPoS(refNum uint16, refPrefix uint32) bool { return s.c.tapos(refNum, refPrefix) }
func (s chainSeam) Executed(id antelope.Checksum256) bool      { return s.c.executed(id) }
func (s chainSeam) HeadTime() time.Time                        { return s.c.headTime() }
func (s chainSeam) NextBlockNum() uint32                       { return s.c.nextBlockNum() }
