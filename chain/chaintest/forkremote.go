package chaintest

import (
	"fmt"
	"net/http"

	"github.com/antelopego/abigen/chain/httpcore"
)

// The remote side of a fork (WithFork), as a test names it: the live
// chain asked (internal/fork reads it) and what the fork asked of it.

// Remote says which live chain WithFork forks and at which block.
type Remote struct {
	// NodeURL is the live chain's nodeos chain API: accounts and code are
	// always read there, as they are at the node's head when read, and
	// tables too when StateURL is empty.
	NodeURL string
	// StateURL (with AuthURL and APIKey, as state.Auth takes them) is its
	// state service: tables and ABIs are then read as they were at Block,
	// a consistent snapshot. Empty: nodeos only, which forks at its head.
	StateURL, AuthURL, APIKey string
	// Block is the fork block: the fork's first own block is Block+1. 0:
	// the node's head when the fork is made (with a cache: the cache's
	// block). A past block needs StateURL.
	Block uint32
	// Cache is a directory recording every answer (e.g. under testdata):
	// a later fork replays it, asking the network only for what it lacks.
	// A cache of another chain, source or block is refused.
	Cache string
	// Offline forbids the network: every answer must be in Cache.
	Offline bool
	// HTTP is the HTTP client of both services (nil: http.DefaultClient).
	HTTP *http.Client
}

// ForkStats counts what a fork asked of the live chain.
type ForkStats struct {
	Requests int64 // HTTP requests sent to the live chain (retries included)
	Bytes    int64 // bytes of their answers' bodies
	Cached   int64 // answers replayed from the fork cache
}

// String describes the remote without its API key and its URLs' secrets
// (user info, query), so that printing a Remote (%v, %+v) never shows them.
func (r Remote) String() string {
	key := ""
	if r.APIKey != "" {
		key = "<redacted>"
	}
	// Node providers take keys in URLs too (?api_key=, user:password@).
	u := func(raw string) string {
		if raw == "" {
			return ""
		}
		return httpcore.RedactRawURL(raw)
	}
	return fmt.Sprintf("chaintest.Remote{NodeURL: %q, StateURL: %q, AuthURL: %q, APIKey: %q, Block: %d, Cache: %q, Offline: %v}",
		u(r.NodeURL), u(r.StateURL), u(r.AuthURL), key, r.Block, r.Cache, r.Offline)
}

// GoString is String, for %#v.
func (r Remote) GoString() string { return r.String() }
