package state

import (
	"context"
	"time"
)

// Token is an issued JWT and its expiry, as the token service returns them.
type Token struct {
	Token     string `json:"token"`               // the JWT; never printed
	ExpiresAt int64  `json:"expires_at"`          // Unix seconds
	IssuedAt  int64  `json:"issued_at,omitempty"` // Unix seconds, recorded by abigen
	// Replaces fingerprints (hash prefixes, not the tokens; separated by
	// spaces) the token this one was issued to replace when the state
	// service refused it, and the few that token replaced: requests
	// refused any of them use this one.
	Replaces string `json:"replaces,omitempty"`
}

// Usable reports whether the token may still be used at now: it is renewed
// max(60 s, 5 % of its lifetime) before it expires, so that a request never
// races the expiry; a token that lives no longer than that margin (a
// service issuing 30-second tokens) is renewed halfway through its life,
// not on every read.
func (t Token) Usable(now time.Time) bool {
	if t.Token == "" {
		return false
	}
	margin := int64(60)
	if life := t.ExpiresAt - t.IssuedAt; t.IssuedAt > 0 {
		if life <= 0 {
			// Issued after it expired (a store's token: the token
			// service's are refused so): a margin from a negative life
			// would push the expiry forward.
			return false
		}
		margin = max(margin, life/20)
		if margin >= life {
			margin = life / 2
		}
	}
	return now.Unix() < t.ExpiresAt-margin
}

// TokenStore keeps issued tokens beyond one Auth's life, keyed by token
// service and API key, so that many short runs (go generate) issue one
// token between them. fetch.TokenCache keeps them on disk.
type TokenStore interface {
	// Get returns the stored token, if there is one.
	Get(authURL, apiKey string) (Token, bool)
	// Put stores a token.
	Put(authURL, apiKey string, t Token) error
	// Drop forgets the stored token (after the state service refused it).
	// Auth calls it holding the issuing lock, once Get has shown that the
	// stored token is still the refused one, not a newer one another
	// process stored.
	Drop(authURL, apiKey string)
	// Lock takes the issuing lock for a key, waiting while another holder
	// (another process) issues one, so that parallel runs issue one token,
	// not a storm. When it fails for another reason than ctx's end (a
	// read-only directory), the Auth issues and keeps its own token.
	Lock(ctx context.Context, authURL, apiKey string) (unlock func(), err error)
}
