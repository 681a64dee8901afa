package fetch

import (
	"fmt"

	"github.com/antelopego/abigen/chain/httpcore"
)

// String describes the StateAPI without its API key and its URLs' secrets
// (user info, query), so that printing one (%v, %+v, %s) never shows them.
func (s StateAPI) String() string {
	u := func(raw string) string {
		if raw == "" {
			return ""
		}
		return httpcore.RedactRawURL(raw)
	}
	key := ""
	if s.APIKey != "" {
		key = "<redacted>"
	}
	return fmt.Sprintf("fetch.StateAPI{BaseURL: %q, AuthURL: %q, APIKey: %q, Cache: %T}", u(s.BaseURL), u(s.AuthURL), key, s.Cache)
}

// GoString is String, for %#v.
func (s StateAPI) GoString() string { return s.String() }

// String describes the ChainAPI without its URL's secrets (user info,
// query), so that printing one (%v, %+v, %s) never shows them.
func (c ChainAPI) String() string {
	u := ""
	if c.URL != "" {
		u = httpcore.RedactRawURL(c.URL)
	}
	return fmt.Sprintf("fetch.ChainAPI{URL: %q}", u)
}

// GoString is String, for %#v.
func (c ChainAPI) GoString() string { return c.String() }
