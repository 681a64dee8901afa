package chaintest_test

import (
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/antelopego/abigen/chain/chaintest"
)

// A chain made WithoutNetwork works inside a synctest bubble, whose fake
// clock makes a Delay instant: a request on a goroutine of its own ends
// with it, where a kept worker, started in the bubble, waits for the next
// request on a channel from outside it and holds synctest.Test forever
// (its idle timer runs on the bubble's clock, which stops while a
// goroutine of the bubble is not durably blocked).
func TestWithoutNetworkInSynctestBubble(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		synctest.Test(t, func(t *testing.T) {
			c := chaintest.New(chaintest.WithoutNetwork())
			defer c.Close()
			c.Delay(time.Second) // the request runs apart from its client
			resp, err := c.HTTPClient().Post(c.URL()+"/v1/chain/get_info", "application/json", strings.NewReader("{}"))
			if err != nil {
				t.Error(err)
				return
			}
			if b, _ := io.ReadAll(resp.Body); !strings.Contains(string(b), `"head_block_num"`) {
				t.Errorf("get_info: %s", b)
			}
		})
	}()
	// Not a timing assertion: the bubble ends at once or never.
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("synctest.Test never returned: a goroutine of the chain outlived the bubble")
	}
}
