package chaintest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

// In process, a lost answer is a transport error and the client's retry of
// the same signed bytes still executes once; a truncated answer and a 503
// are retried; fetch reaches the chain through HTTPClient.
func TestWithoutNetworkFaults(t *testing.T) {
	c, keys := tokenChain(t, chaintest.WithoutNetwork())
	if !strings.HasSuffix(c.URL(), ".invalid") {
		t.Fatalf("URL %q: a chain without network has no real address", c.URL())
	}
	cl := c.Client()
	tr, _ := eosiotoken.Contract{Account: eosioToken}.Transfer(eosiotoken.Transfer{From: alice, To: bob, Quantity: wax(1)}, antelope.Active(alice))
	execs := c.Stats().Executions
	c.LoseNextAnswers(1)
	res, err := cl.Transact(t.Context(), keys[alice], tr)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Stats().Executions - execs; got != 1 || res.ID == (antelope.Checksum256{}) {
		t.Errorf("lost answer: %d executions, id %v", got, res.ID)
	}
	c.TruncateNext(1)
	if got := balance(t, cl, bob); got != 1 {
		t.Errorf("after a truncated page: bob has %d", got)
	}
	c.FailNext(1, http.StatusServiceUnavailable)
	if _, err := cl.GetInfo(t.Context()); err != nil {
		t.Errorf("after a 503: %v", err)
	}
	api := &fetch.StateAPI{Transport: &httpcore.Transport{HTTP: c.HTTPClient()}, BaseURL: c.URL(), AuthURL: c.AuthURL(), APIKey: "chaintest-key"}
	if f, err := api.FetchABI(t.Context(), "eosio.token", 0, false); err != nil || !strings.Contains(string(f.Body), `"transfer"`) {
		t.Errorf("fetch through HTTPClient: %v", err)
	}
	// The in-process client serves this chain only.
	if _, err := c.HTTPClient().Get("http://example.com/v1/chain/get_info"); err == nil || !strings.Contains(err.Error(), "not this chain") {
		t.Errorf("another host: %v", err)
	}
}

// The raw in-process view of the faults, as a client without retries sees
// them.
func TestWithoutNetworkRawFaults(t *testing.T) {
	c := chaintest.New(chaintest.WithoutNetwork())
	h := c.HTTPClient()
	post := func() (*http.Response, error) {
		return h.Post(c.URL()+"/v1/chain/get_info", "application/json", strings.NewReader("{}"))
	}
	c.LoseNextAnswers(1)
	if _, err := post(); err == nil {
		t.Error("a lost answer came back")
	}
	c.TruncateNext(1)
	resp, err := post()
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) || int64(len(body)) >= resp.ContentLength {
		t.Errorf("truncated: %d of %d bytes, %v", len(body), resp.ContentLength, err)
	}
	resp, err = post()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("plain: %v %v", resp, err)
	}
	body, err = io.ReadAll(resp.Body)
	if err != nil || !strings.Contains(string(body), `"head_block_num"`) {
		t.Errorf("get_info: %s %v", body, err)
	}
}

// A client that gives up does not wait for a slow chain in process either.
func TestWithoutNetworkDeadline(t *testing.T) {
	c := chaintest.New(chaintest.WithoutNetwork())
	const delay = 5 * time.Second
	c.Delay(delay)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.URL()+"/v1/chain/get_info", strings.NewReader("{}"))
	start := time.Now()
	if _, err := c.HTTPClient().Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("want the deadline, got %v", err)
	}
	// A hundred times the deadline: only waiting for the handler takes it.
	if time.Since(start) >= delay {
		t.Error("the client waited for the delayed answer")
	}
}

// hookABI is a contract with one action, "hook", that takes nothing.
const hookABI = `{"version":"eosio::abi/1.1","structs":[{"name":"hook","base":"","fields":[]}],` +
	`"actions":[{"name":"hook","type":"hook","ricardian_contract":""}]}`

// A request run on the caller's goroutine (the chain otherwise idle) whose
// client gives up while it runs: the client gets its context's error, not
// the answer, and the chain has done the work — as over a network.
func TestWithoutNetworkGivenUpWhileRunning(t *testing.T) {
	hookAcct := antelope.MustName("hook")
	var cancel context.CancelFunc
	c, key := contractChain(t, hookAcct, []byte(hookABI), func(*chaintest.Context) error {
		cancel() // the client gives up while its transaction executes
		return nil
	}, alice, chaintest.WithoutNetwork())
	ctx, cancelCtx := context.WithCancel(t.Context())
	cancel = cancelCtx
	execs := c.Stats().Executions
	act := antelope.Action{Account: hookAcct, Name: antelope.MustName("hook"), Authorization: []antelope.PermissionLevel{antelope.Active(alice)}}
	if _, err := c.Client().Transact(ctx, antelope.PrivateKeys{key}, act); !errors.Is(err, context.Canceled) {
		t.Errorf("a client that gave up: %v, want its context's error", err)
	}
	if got := c.Stats().Executions - execs; got != 1 {
		t.Errorf("the chain executed %d transactions, want the 1 the client gave up on", got)
	}
}

// A client behind another request (here one whose Go handler blocks) gives
// up at its deadline: its request waits on a goroutine of its own, not the
// client's.
func TestWithoutNetworkGivesUpBehindABusyChain(t *testing.T) {
	hookAcct := antelope.MustName("hook")
	entered, release := make(chan struct{}), make(chan struct{})
	c, key := contractChain(t, hookAcct, []byte(hookABI), func(*chaintest.Context) error {
		close(entered)
		<-release
		return nil
	}, alice, chaintest.WithoutNetwork())
	act := antelope.Action{Account: hookAcct, Name: antelope.MustName("hook"), Authorization: []antelope.PermissionLevel{antelope.Active(alice)}}
	sent := make(chan error, 1)
	go func() {
		_, err := c.Client().Transact(t.Context(), antelope.PrivateKeys{key}, act)
		sent <- err
	}()
	<-entered
	// Released in any case, so that a client waiting for the handler fails
	// the test below rather than hanging it.
	timer := time.AfterFunc(5*time.Second, func() { close(release) })
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.URL()+"/v1/chain/get_info", strings.NewReader("{}"))
	_, err := c.HTTPClient().Do(req)
	if timer.Stop() {
		close(release)
	} else {
		t.Error("the client waited for the request before it")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("behind a busy chain: %v, want the deadline", err)
	}
	if err := <-sent; err != nil {
		t.Errorf("the transaction ahead: %v", err)
	}
}
