package fetch

import (
	"context"
	"time"

	"github.com/antelopego/abigen/model"
)

// Fetched is an ABI as a source gave it, with what the source said about
// it.
type Fetched struct {
	// Body is the ABI: as JSON or packed bytes from a service (Form names
	// the answer it came in), or a file's bytes in any form model.Load
	// reads (Form "").
	Body []byte
	// Source is where the ABI came from, with no credentials: a file's
	// path, or the service's URL and the account.
	Source string
	// Form is the answer the ABI came in, for messages ("nodeos get_abi
	// response", "state API response (packed ABI)"…); "" for a file.
	Form string
	// Account is the account the service answered for; "" for a file.
	Account string
	// BlockNum is the block the state service says the ABI was set in.
	BlockNum uint64
	// HasBlock is false when the source did not say (nodeos, a file).
	HasBlock bool
}

// Load reads the ABI (model.Load for a file; model.LoadABI, in the form
// the service gave it, otherwise) and adds what the source said: the
// account and the block the ABI was set in.
func (f *Fetched) Load() (*model.Source, error) {
	if f.Form == "" {
		return model.Load(f.Body)
	}
	src, err := model.LoadABI(f.Body, f.Form)
	if err != nil {
		return nil, err
	}
	src.Account = f.Account
	src.BlockNum, src.HasBlock = f.BlockNum, f.HasBlock
	return src, nil
}

// Within fetches from src within timeout (0: no limit but ctx's), retries
// included. When fetching takes longer than a second it calls slow, once,
// from another goroutine (the CLI prints a note then, so fast runs stay
// silent); slow has returned by the time Within does. slow may be nil.
func Within(ctx context.Context, src Source, timeout time.Duration, slow func()) (*Fetched, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if slow != nil {
		done := make(chan struct{})
		t := time.AfterFunc(time.Second, func() {
			defer close(done)
			slow()
		})
		// A note already being written finishes before the caller writes
		// again.
		defer func() {
			if !t.Stop() {
				<-done
			}
		}()
	}
	return src.Fetch(ctx)
}
