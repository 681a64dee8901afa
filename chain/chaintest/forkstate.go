package chaintest

import (
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/fork"
	"github.com/antelopego/abigen/chain/chaintest/internal/store"
)

// The fork of a live chain as a test sees it: its options, what it
// fetched, and the one answer an HTTP request gets when a lookup could not
// be filled. The fork itself — the lazy fill behind store.Filler,
// store.AccountFiller and exec.Fork — is internal/fork's fork.State; the
// chain answers what it asks through forkChain.

// NewerCode is a contract whose code at the live chain was set after the
// fork block: its code at the fork block is not available, and the fork
// refuses to run the newer one in its place.
type NewerCode struct {
	Account     antelope.Name // the contract
	CodeUpdated time.Time     // the account's last_code_update at the node
	ForkBlock   uint32        // the fork block
	ForkTime    time.Time     // its time
}

// String says what is newer than what.
func (n NewerCode) String() string { return fork.NewerCode(n).String() }

// WithFork makes the chain a fork of a live chain at f.Block (see Remote):
// its chain id is the live chain's and its first block f.Block+1, 500 ms
// after the fork block. New panics when the live chain (or the cache)
// cannot say where the fork is; NewFork returns that error instead.
func WithFork(f Remote) Option { return func(o *options) { o.fork = &f } }

// NewFork is New for a chain made WithFork: an error when the fork block
// cannot be read.
func NewFork(f Remote, opts ...Option) (*Chain, error) {
	fs, err := openFork(f)
	if err != nil {
		return nil, err
	}
	return newChain(fs, append(opts, WithFork(f))...), nil
}

func openFork(f Remote) (*fork.State, error) {
	return fork.Open(fork.Config{NodeURL: f.NodeURL, StateURL: f.StateURL, AuthURL: f.AuthURL, APIKey: f.APIKey,
		Block: f.Block, Cache: f.Cache, Offline: f.Offline, HTTP: f.HTTP})
}

// ForkStats counts what the fork asked of the live chain and its cache
// (zero for a chain that is no fork).
func (c *Chain) ForkStats() ForkStats {
	var s ForkStats
	if c.fork == nil {
		return s
	}
	s.Requests, s.Bytes, s.Cached = c.fork.Stats()
	return s
}

// ForkBlock is the block the chain was forked at, 0 for a chain that is
// no fork.
func (c *Chain) ForkBlock() uint32 {
	if c.fork == nil {
		return 0
	}
	return c.fork.Point().Block
}

// NewerCode lists the contracts found so far whose code at the live chain
// is newer than the fork block (a transaction that runs one fails).
func (c *Chain) NewerCode() []NewerCode {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fork == nil {
		return nil
	}
	var out []NewerCode
	for _, n := range c.fork.NewerCode() {
		out = append(out, NewerCode(n))
	}
	return out
}

// takeForkFailure returns and clears the failure of the operation under
// way.
func (c *Chain) takeForkFailure() error {
	if c.fork == nil {
		return nil
	}
	return c.fork.TakeFailure()
}

// forkChain is the chain as the fork fills it (fork.Chain).
type forkChain struct{ c *Chain }

func (f forkChain) Engine() *exec.Engine     { return f.c.engine }
func (f forkChain) SavedTables() []*store.DB { return f.c.history }
func (f forkChain) SavedStates() []*exec.State {
	out := make([]*exec.State, len(f.c.blocklog.Records))
	for i := range f.c.blocklog.Records {
		out[i] = f.c.blocklog.Records[i].State
	}
	return out
}

// forkChecked answers a request of the chain API or state service with
// serve, unless a lookup it made could not be filled from the live chain:
// then with that failure, never with an answer made of a partial state.
func (c *Chain) forkChecked(serve func() (int, any)) (int, any) {
	if c.fork == nil {
		return serve()
	}
	c.mu.Lock()
	c.takeForkFailure()
	c.mu.Unlock()
	status, out := serve()
	c.mu.Lock()
	err := c.takeForkFailure()
	c.mu.Unlock()
	if err != nil {
		return nodeosError(500, "Internal Service Error", exec.ForkExceptionCode, "chaintest_fork_exception", "The fork could not read the live chain's state", err.Error())
	}
	return status, out
}
