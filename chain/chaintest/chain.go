package chaintest

import (
	"crypto/sha256"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/faults"
	"github.com/antelopego/abigen/chain/chaintest/internal/fork"
	"github.com/antelopego/abigen/chain/chaintest/internal/nodeosapi"
	"github.com/antelopego/abigen/chain/chaintest/internal/statesvc"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
)

// Chain is an in-process Antelope chain with nodeos's rules, served over
// HTTP by httptest servers: the chain API (/v1/chain/*) and the state
// service (/v0/state/*) at URL, and the state service's token service
// (/v1/auth/issue) at AuthURL, a second address as in production. Every
// transaction is checked as a node checks it (TAPoS, expiration, duplicate
// id, signatures recovered and weighed against the authorizing permission)
// and executed by the Go handlers of its contracts, in a block of its own.
// A Chain is safe for concurrent use.
type Chain struct {
	mu   sync.Mutex
	srv  *httptest.Server
	opts options

	engine *exec.Engine // execution and the state it changes (internal/exec)

	// genesisSalt makes this chain's first block id differ from every
	// other chain's of this process (chainsMade when it was made).
	genesisSalt uint64
	blocks      []Block // blocks[i] is block opts.firstBlock+i
	history     []*db   // history[i] is the state at the end of block opts.firstBlock+i
	seen        map[antelope.Checksum256]uint32
	faults      *faults.Injector // internal/faults
	stats       Stats
	tokens      *statesvc.Tokens // the state service's token service (internal/statesvc)

	provider *ResourceProvider // served at /v1/resource_provider/ (provider.go)

	authSrv *httptest.Server // the token service, at its own address

	blocklog blockLog // what each block did, for state history and forks (blocklog.go)

	fork *fork.State // the live chain a fork fills its state from (internal/fork); nil: no fork

	handoff handoff // the last traces answered in process, for chain.Client (inprocess.go)
	// inFlight counts the in-process requests under way (inprocess.go).
	inFlight atomic.Int32
}

// Block is a produced block.
type Block struct {
	Num          uint32                 // the block number
	ID           antelope.Checksum256   // the block id (its first four bytes are its number)
	Previous     antelope.Checksum256   // the previous block's id
	Time         time.Time              // the block time, 500 ms after the previous
	Transactions []antelope.Checksum256 // ids of the transactions in it
}

// Stats counts what the chain did, for tests of retries.
type Stats struct {
	Executions int // transactions executed and committed
	Refused    int // transactions refused
	Requests   int // HTTP requests, the token service's included

	TokensIssued int // state-service tokens the token service issued
}

type options struct {
	tokenClock func() time.Time
	firstBlock uint32

	chainID   antelope.Checksum256
	start     time.Time
	pageSize  int
	apiKey    string
	tokenLife time.Duration
	lifetime  time.Duration
	inProcess bool

	deadline    time.Duration // per transaction
	interpreter bool          // wasm through wazero's interpreter
	ownCache    bool          // compiled code not shared with the process's other chains
	console     Logger        // where contracts' console output goes, besides the traces
	noStatus    bool          // get_transaction_status refused (WithoutTransactionStatus)

	manualFinality bool // WithManualFinality

	fork *Remote // WithFork

	apiListener, authListener net.Listener // WithListeners
}

// Logger is where WithConsoleLog writes: a *testing.T or *testing.B.
type Logger interface {
	Logf(format string, args ...any)
}

// WithDeadline sets how long one transaction may execute (default 5
// seconds): a contract still running then is stopped, and the transaction
// fails as a node's deadline fails it, with tx_cpu_usage_exceeded
// (chain.ErrCPU). Go handlers are checked when they return.
func WithDeadline(d time.Duration) Option { return func(o *options) { o.deadline = d } }

// WithConsoleLog writes every action's console output (prints) to l,
// usually the test's *testing.T, as nodeos's contracts-console does; it is
// always in the action traces.
func WithConsoleLog(l Logger) Option { return func(o *options) { o.console = l } }

// WithInterpreter runs wasm contracts with wazero's interpreter instead of
// its compiler: no compilation time (eosio.system compiles in about 0.2 s,
// a few seconds under the race detector), several times slower actions.
func WithInterpreter() Option { return func(o *options) { o.interpreter = true } }

// WithOwnCompilationCache keeps the chain's compiled contracts to itself.
// By default chains share them (a test binary compiles eosio.token once
// however many chains deploy it); a chain of its own compiles every
// contract anew, which is what measuring compile time needs.
func WithOwnCompilationCache() Option { return func(o *options) { o.ownCache = true } }

// Option configures New.
type Option func(*options)

// WithChainID sets the chain id (default: sha256 of "chaintest").
func WithChainID(id antelope.Checksum256) Option { return func(o *options) { o.chainID = id } }

// WithStartTime sets the genesis block's time (default: now, to the half
// second). Block times advance by 500 ms a block, as on a real chain.
func WithStartTime(t time.Time) Option { return func(o *options) { o.start = t } }

// WithPageSize makes get_table_rows and get_table_by_scope return at most n
// rows a page whatever limit is asked, the way nodeos's time limit cuts a
// page short — including its quirk: the next key is then the last returned
// row's, which starts the next page again.
func WithPageSize(n int) Option { return func(o *options) { o.pageSize = n } }

// WithAPIKey sets the API key the token service accepts (default
// "chaintest-key").
func WithAPIKey(key string) Option { return func(o *options) { o.apiKey = key } }

// WithTokenLifetime sets how long an issued state-service token lasts
// (default an hour).
func WithTokenLifetime(d time.Duration) Option { return func(o *options) { o.tokenLife = d } }

// WithTokenClock sets the clock the token service issues JWTs by and the
// state service checks their expiry by (default time.Now): a test moves it
// to expire a token under a client that still holds it.
func WithTokenClock(now func() time.Time) Option { return func(o *options) { o.tokenClock = now } }

// WithStartBlock makes the chain's first block num instead of 1, as a
// test chain that joins a real one at its height: block numbers, the
// blocks ABIs are set in and state-service answers then read as on that
// chain. There are no blocks before it.
func WithStartBlock(num uint32) Option { return func(o *options) { o.firstBlock = max(num, 1) } }

// New starts a chain with its genesis block and the account eosio, and
// serves it until Close. A chain made WithFork is a fork of a live chain:
// New panics when the fork block cannot be read (NewFork returns the
// error).
func New(opts ...Option) *Chain {
	var o options
	for _, f := range opts {
		f(&o)
	}
	var fs *fork.State
	if o.fork != nil {
		var err error
		if fs, err = openFork(*o.fork); err != nil {
			panic(err)
		}
	}
	return newChain(fs, opts...)
}

// chainsMade counts the chains this process made, for their genesisSalt.
var chainsMade atomic.Uint64

// newChain makes the chain of New, forked from fs when it is not nil.
func newChain(fs *fork.State, opts ...Option) *Chain {
	o := options{chainID: sha256.Sum256([]byte("chaintest")), start: time.Now().UTC().Truncate(500 * time.Millisecond),
		apiKey: "chaintest-key", tokenLife: time.Hour, tokenClock: time.Now, lifetime: time.Hour, deadline: 5 * time.Second, firstBlock: 1}
	for _, f := range opts {
		f(&o)
	}
	if fs != nil {
		// The fork continues the live chain: its id, and its first block
		// after the fork block.
		p := fs.Point()
		o.chainID, o.firstBlock, o.start = p.ChainID, p.Block+1, p.Time.Add(500*time.Millisecond)
	}
	c := &Chain{opts: o, seen: map[antelope.Checksum256]uint32{},
		tokens: statesvc.NewTokens(o.apiKey, o.tokenLife, o.tokenClock), genesisSalt: chainsMade.Add(1), faults: newFaults()}
	c.engine = exec.New(chainSeam{c}, exec.Config{ChainID: o.chainID, Deadline: o.deadline, Interpreter: o.interpreter, OwnCache: o.ownCache, Console: o.console})
	c.blocklog.Manual = o.manualFinality
	if fs != nil {
		fs.Attach(forkChain{c})
		c.fork, c.engine.DB.Lazy, c.engine.Fork = fs, fs, fs // eosio too is the live chain's
	} else {
		eosio := exec.NewAccount(exec.NameEosio, exec.EmptyAuthority(), exec.EmptyAuthority(), o.start)
		eosio.Privileged = true
		c.engine.Accounts[exec.NameEosio] = eosio
	}
	c.produce(nil)
	if !o.inProcess {
		c.srv = serveOn(o.apiListener, c.serve)
		c.authSrv = serveOn(o.authListener, c.serveAuth)
	}
	return c
}

// serveOn serves h on l, or on a loopback port of its own when l is nil.
func serveOn(l net.Listener, h http.HandlerFunc) *httptest.Server {
	if l == nil {
		return httptest.NewServer(h)
	}
	s := httptest.NewUnstartedServer(h)
	_ = s.Listener.Close()
	s.Listener = l
	s.Start()
	return s
}

// WithListeners serves the chain on the given listeners instead of
// loopback ports of its own: api for the chain API, the state service and
// state history (URL, SHiPURL), auth for the token service (AuthURL) — for
// a chain other processes reach at a known address (cmd/chaintest). Close
// closes them.
func WithListeners(api, auth net.Listener) Option {
	return func(o *options) { o.apiListener, o.authListener = api, auth }
}

// URL is the address of both the chain API and the state service; for a
// chain made WithoutNetwork, an address only HTTPClient reaches.
func (c *Chain) URL() string {
	if c.srv == nil {
		return inProcessURL
	}
	return c.srv.URL
}

// AuthURL is the address of the state service's token service, which URL
// does not serve: a client must be given both, as in production.
func (c *Chain) AuthURL() string {
	if c.authSrv == nil {
		return inProcessAuthURL
	}
	return c.authSrv.URL
}

// Close stops the servers (nothing, for a chain made WithoutNetwork) and
// releases the wasm engine.
func (c *Chain) Close() {
	c.closeSHiP()
	if c.srv != nil {
		c.srv.Close()
		c.authSrv.Close()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.engine.Close()
}

// Client returns a chain.Client of this chain (any options after the
// chain's own: no retry backoff sleeps).
func (c *Chain) Client(opts ...chain.Option) *chain.Client {
	base := []chain.Option{chain.WithTransport(&httpcore.Transport{HTTP: c.HTTPClient(), Sleep: noSleep}), chain.WithInfoCache(0)}
	return chain.New(c.URL(), append(base, opts...)...)
}

// State returns a state.Client of this chain's state service, with its
// token flow.
func (c *Chain) State() *state.Client {
	return state.New(c.URL(), &state.Auth{Transport: &httpcore.Transport{HTTP: c.HTTPClient(), Sleep: noSleep},
		AuthURL: c.AuthURL(), APIKey: c.opts.apiKey})
}

// ChainID is the chain's id.
func (c *Chain) ChainID() antelope.Checksum256 { return c.engine.ChainID }

// Head returns the head block.
func (c *Chain) Head() Block {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.blocks[len(c.blocks)-1]
}

// Stats returns the counters.
func (c *Chain) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.TokensIssued = c.tokens.Issued()
	return s
}

// Produce produces an empty block (time passes on the chain: 500 ms a
// block). n blocks at once with ProduceBlocks.
func (c *Chain) Produce() Block {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.produce(nil)
}

// ProduceBlocks produces n empty blocks.
func (c *Chain) ProduceBlocks(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range n {
		c.produce(nil)
	}
}

// nextBlockNum is the number of the block produce makes next.
func (c *Chain) nextBlockNum() uint32 { return c.opts.firstBlock + uint32(len(c.blocks)) }

// headNum is the head block's number.
func (c *Chain) headNum() uint32 { return c.nextBlockNum() - 1 }

// index is where block num, a block of the chain, is in c.blocks,
// c.history and c.blocklog.Records: the chain's first block is
// opts.firstBlock (WithStartBlock), not 1. Every lookup of a block by
// number goes through it.
func (c *Chain) index(num uint32) int { return int(num - c.opts.firstBlock) }

// block returns block num, or nil when the chain has no such block.
func (c *Chain) block(num uint32) *Block {
	if num < c.opts.firstBlock || num >= c.nextBlockNum() {
		return nil
	}
	return &c.blocks[c.index(num)]
}

// produce appends a block holding txs and records the state as of it.
func (c *Chain) produce(txs []antelope.Checksum256) Block {
	num := c.nextBlockNum()
	var prev antelope.Checksum256
	t := c.opts.start
	if len(c.blocks) > 0 {
		last := c.blocks[len(c.blocks)-1]
		prev, t = last.ID, last.Time.Add(500*time.Millisecond)
	}
	id := c.blockID(num, prev, t, txs, c.blocklog.Branch)
	b := Block{Num: num, ID: id, Previous: prev, Time: t, Transactions: txs}
	c.blocks = append(c.blocks, b)
	c.history = append(c.history, c.engine.DB.Snapshot())
	c.recordBlock(b)
	return b
}

// headTime is the head block's time.
func (c *Chain) headTime() time.Time { return c.blocks[len(c.blocks)-1].Time }

// serve is the handler of URL: the chain API, the state service and the
// fake resource provider (provider.go).
func (c *Chain) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == shipPath {
		c.SHiP().ServeHTTP(w, r) // state history: a websocket, apart from the API's faults
		return
	}
	c.answer(w, r, func(path string, body []byte) (int, any) {
		switch {
		case strings.HasPrefix(path, "/v1/chain/"):
			return c.forkChecked(func() (int, any) { return c.chainAPI(strings.TrimPrefix(path, "/v1/chain/"), body) })
		case strings.HasPrefix(path, "/v0/state/"):
			return c.forkChecked(func() (int, any) { return c.stateAPI(r, strings.TrimPrefix(path, "/v0/state/")) })
		case path == providerPath:
			return c.serveProvider(body)
		}
		return nodeosError(404, "Not Found", 0, "exception", "unspecified", "Unknown Endpoint")
	})
}

// serveAuth is the handler of AuthURL: the token service.
func (c *Chain) serveAuth(w http.ResponseWriter, r *http.Request) {
	c.answer(w, r, func(path string, body []byte) (int, any) {
		if r.Method != http.MethodPost || path != "/v1/auth/issue" {
			return statesvc.Error(404, "route_not_found_error", "Route not found.", nil)
		}
		return c.tokens.Issue(body)
	})
}

// answer serves one request of either address with route, through the
// faults.
func (c *Chain) answer(w http.ResponseWriter, r *http.Request, route func(path string, body []byte) (int, any)) {
	c.mu.Lock()
	c.stats.Requests++
	c.mu.Unlock()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	answered, step := c.faults.Before(w, r.URL.Path, body)
	if answered {
		return
	}
	status, out := route(r.URL.Path, body)
	data, ok := out.([]byte)
	if !ok {
		data, _ = json.Marshal(out)
	}
	c.faults.After(w, r.URL.Path, step, status, data)
}

func (c *Chain) chainAPI(endpoint string, body []byte) (int, any) {
	switch endpoint {
	case "get_info":
		return nodeosapi.GetInfo(chainView{tablesView{c}})
	case "get_block_info", "get_block":
		return nodeosapi.GetBlock(chainView{tablesView{c}}, endpoint, body)
	case "get_account":
		return nodeosapi.GetAccount(chainView{tablesView{c}}, body)
	case "get_abi", "get_raw_abi":
		return nodeosapi.GetABI(chainView{tablesView{c}}, endpoint, body)
	case "get_code_hash", "get_raw_code_and_abi", "get_code":
		return nodeosapi.GetCode(chainView{tablesView{c}}, endpoint, body)
	case "get_currency_balance":
		return nodeosapi.GetCurrencyBalance(chainView{tablesView{c}}, body)
	case "get_table_rows":
		return nodeosapi.GetTableRows(tablesView{c}, body)
	case "get_table_by_scope":
		return nodeosapi.GetTableByScope(tablesView{c}, body)
	case "get_required_keys":
		return nodeosapi.GetRequiredKeys(chainView{tablesView{c}}, body)
	case "get_transaction_status":
		return nodeosapi.GetTransactionStatus(chainView{tablesView{c}}, body)
	case "push_transaction", "send_transaction", "send_transaction2", "compute_transaction", "send_read_only_transaction":
		return c.transactionAPI(endpoint, body)
	}
	return nodeosError(404, "Not Found", 0, "exception", "unspecified", "Unknown Endpoint")
}

// tapos reports whether ref names a block of the last 65,536: the most
// recent block whose number ends in refNum, with that prefix.
func (c *Chain) tapos(refNum uint16, refPrefix uint32) bool {
	for i := len(c.blocks) - 1; i >= 0 && i >= len(c.blocks)-65536; i-- {
		b := c.blocks[i]
		if uint16(b.Num) == refNum {
			_, prefix := antelope.TaposFromBlockID(b.ID)
			return prefix == refPrefix
		}
	}
	return false
}

// executed reports whether transaction id is in one of the chain's blocks
// (the duplicate check).
func (c *Chain) executed(id antelope.Checksum256) bool {
	_, dup := c.seen[id]
	return dup
}
