package state_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
	"github.com/antelopego/abigen/chain/state"
)

// hostileState is a state service in front of c's whose answers rewrite
// changes; the token service is c's own.
func hostileState(t *testing.T, c *chaintest.Chain, rewrite func(path string, body []byte) []byte) *state.Client {
	t.Helper()
	target, _ := url.Parse(c.URL())
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		body = rewrite(r.Request.URL.Path, body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.Header.Set("Content-Length", fmt.Sprint(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return state.New(srv.URL, &state.Auth{AuthURL: c.AuthURL(), APIKey: "chaintest-key"})
}

// At(n) must read block n's state: an answer as of another block (the
// service's head, a cache's) is an error, not block n's table.
func TestAtChecksTheBlock(t *testing.T) {
	c := tokenChain(t)
	past := c.Head().Num
	c.ProduceBlocks(3)
	head := c.Head().Num
	upTo := regexp.MustCompile(`"(up_to_block_num|block_num)":\d+`)
	st := hostileState(t, c, func(_ string, body []byte) []byte {
		return upTo.ReplaceAll(body, []byte(fmt.Sprintf(`"$1":%d`, head)))
	})
	at := st.At(past)
	if _, err := at.Table(t.Context(), eosioToken, eosioToken, accounts); err == nil || !strings.Contains(err.Error(), "as of block") {
		t.Errorf("table: another block's answer: %v", err)
	}
	if _, _, err := at.Row(t.Context(), eosioToken, eosioToken, accounts, 1); err == nil {
		t.Error("row: another block's answer accepted")
	}
	if _, err := at.ScopeList(t.Context(), eosioToken, accounts); err == nil {
		t.Error("scopes: another block's answer accepted")
	}
	if _, err := at.ABI(t.Context(), eosioToken); err == nil {
		t.Error("abi: one set after the block accepted")
	}
	if _, err := c.State().At(past).ABI(t.Context(), eosioToken); err != nil {
		t.Errorf("abi at the block: %v", err)
	}
	// The head view takes the block the service answers as of.
	if _, err := st.Table(t.Context(), eosioToken, eosioToken, accounts); err != nil {
		t.Errorf("head: %v", err)
	}
	// The honest service's answer at the block passes.
	if _, err := c.State().At(past).Table(t.Context(), eosioToken, eosioToken, accounts); err != nil {
		t.Errorf("the block's own answer: %v", err)
	}
}

// A row the service sends twice is an error, never a row returned twice.
func TestRowTwice(t *testing.T) {
	c := tokenChain(t)
	row := `{"key":"1","payer":"alice","hex":"0100000000000000"}`
	st := hostileState(t, c, func(_ string, body []byte) []byte {
		return bytes.ReplaceAll(body, []byte(`"rows":[]`), []byte(`"rows":[`+row+`,`+row+`]`))
	})
	if tbl, err := st.Table(t.Context(), eosioToken, eosioToken, antelope.MustName("stat")); err == nil {
		t.Errorf("a row twice: %d rows, no error", len(tbl.Rows))
	}
	if m, err := st.TablesByScopes(t.Context(), eosioToken, antelope.MustName("stat"), []antelope.Name{eosioToken, eosioToken}); err == nil {
		t.Errorf("a row twice by scopes: %v, no error", m)
	}
}

// state.New(url, nil) is a client without an API key: its reads fail with
// ErrNoAPIKey, never a panic.
func TestNewNilAuth(t *testing.T) {
	st := state.New("http://127.0.0.1:1", nil)
	if _, err := st.ScopeList(t.Context(), eosioToken, accounts); !errors.Is(err, state.ErrNoAPIKey) {
		t.Errorf("nil auth: %v", err)
	}
}

// Block numbers are 32-bit, as nodeos's block_num: an answer naming a
// block past 2^32−1 is an error, never a number cut to 32 bits.
func TestBlockNumbersAre32Bit(t *testing.T) {
	c := tokenChain(t)
	blockNum := regexp.MustCompile(`"(up_to_block_num|block_num)":\d+`)
	st := hostileState(t, c, func(_ string, body []byte) []byte {
		return blockNum.ReplaceAll(body, []byte(`"$1":4294967297`))
	})
	if tb, err := st.Table(t.Context(), eosioToken, eosioToken, accounts); err == nil {
		t.Errorf("table as of block %d accepted", tb.UpToBlockNum)
	}
	if abi, err := st.ABI(t.Context(), eosioToken); err == nil {
		t.Errorf("abi set at block %d accepted", abi.BlockNum)
	}
	if got := st.At(1 << 31).Block(); got != 1<<31 {
		t.Errorf("At(2^31).Block() = %d", got)
	}
}
