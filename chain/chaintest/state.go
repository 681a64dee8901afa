package chaintest

import (
	"net/http"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest/internal/exec"
	"github.com/antelopego/abigen/chain/chaintest/internal/statesvc"
)

// The state service (its token service at AuthURL, the /v0/state
// endpoints at URL) lives in internal/statesvc; this is its public face and
// the chain as it reads it.

// RevokeTokens makes every issued state-service token invalid, as a
// revocation does: the next request gets a 401.
func (c *Chain) RevokeTokens() { c.tokens.RevokeAll() }

// RejectNextTokens makes the state service refuse the next n requests'
// tokens, valid as they are, with a 401, as the real service does for a
// token revoked behind the client's back.
func (c *Chain) RejectNextTokens(n int) { c.tokens.RejectNext(n) }

// stateAPI answers a /v0/state request, endpoint the path after
// /v0/state/, with the chain locked.
func (c *Chain) stateAPI(r *http.Request, endpoint string) (int, any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return statesvc.Serve(stateView{c}, c.tokens, r, endpoint)
}

// stateView is the chain as the state service reads it
// (statesvc.Chain), valid while c.mu is held.
type stateView struct{ c *Chain }

func (v stateView) Head() uint32                          { return v.c.headNum() }
func (v stateView) FirstBlock() uint32                    { return v.c.opts.firstBlock }
func (v stateView) StateAt(n uint32) *db                  { return v.c.history[v.c.index(n)] }
func (v stateView) BlockID(n uint32) antelope.Checksum256 { return v.c.block(n).ID }
func (v stateView) LastIrreversible() uint32              { return v.c.lastIrreversible() }

// ABIAt is the version set last at or before block n.
func (v stateView) ABIAt(account antelope.Name, n uint32) ([]byte, uint32, bool) {
	var found *exec.ABIVersion
	for i := range v.c.engine.ABIs[account] {
		if v.c.engine.ABIs[account][i].Block <= n {
			found = &v.c.engine.ABIs[account][i]
		}
	}
	if found == nil {
		return nil, 0, false
	}
	return found.JSON, found.Block, true
}
