package state

import (
	"fmt"

	"github.com/antelopego/abigen/chain/httpcore"
)

// redacted stands for a secret that is set, "" for one that is not.
func redacted(secret string) string {
	if secret == "" {
		return ""
	}
	return "<redacted>"
}

// String describes the token without the token itself, so that printing
// a Token (%v, %+v, %s) never shows it.
func (t Token) String() string {
	return fmt.Sprintf("state.Token{Token: %q, ExpiresAt: %d, IssuedAt: %d, Replaces: %q}",
		redacted(t.Token), t.ExpiresAt, t.IssuedAt, t.Replaces)
}

// GoString is String, for %#v.
func (t Token) GoString() string { return t.String() }

// String describes the Auth without its API key and its token service
// URL's secrets (user info, query), so that printing an Auth never shows
// them.
func (s *Auth) String() string {
	u := ""
	if s.AuthURL != "" {
		u = httpcore.RedactRawURL(s.AuthURL)
	}
	return fmt.Sprintf("&state.Auth{AuthURL: %q, APIKey: %q, Cache: %T}", u, redacted(s.APIKey), s.Cache)
}

// GoString is String, for %#v.
func (s *Auth) GoString() string { return s.String() }
