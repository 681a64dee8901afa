package httpcore

import (
	"strings"
	"testing"

	"github.com/antelopego/abigen/internal/allocs"
)

// Scrubbing a short text costs what the text does, whatever the secrets
// registered: a token service's answer (a token of 100 KB of '/', each
// three bytes in its URL-escaped forms) made every later error text and
// error body scrubbed allocate those forms again, in lower case.
func TestScrubCostsTheText(t *testing.T) {
	tok := "eyJ." + strings.Repeat("/", 100<<10) + ".sig/" + strings.Repeat("+", 100<<10)
	AddToken(tok)
	AddSecret("key/" + strings.Repeat("=", 100<<10))
	const text = `{"code":"bad_request","message":"no such table"}`
	if ok, n := allocs.Within(4<<10, func() { _ = Scrub(text) }); !ok {
		t.Errorf("Scrub of %d bytes allocated %d", len(text), n)
	}
	if ok, n := allocs.Within(4<<10, func() { _ = scrubBytes([]byte(text)) }); !ok {
		t.Errorf("scrubBytes of %d bytes allocated %d", len(text), n)
	}
	if got := Scrub("a " + tok[:4] + strings.ReplaceAll(tok[4:], "/", "%2f") + " b"); got != "a [redacted] b" {
		t.Errorf("an escaped form in lower case is not scrubbed: %.40q", got)
	}
}

// A client registers its token before each request (the token in use must
// stay among the most recent): doing so again costs nothing, not its
// escaped forms made anew at every request.
func TestTokenRegisteredAgainCostsNothing(t *testing.T) {
	tok := "eyJhbGciOiJIUzI1NiJ9." + strings.Repeat("eyJzdWIi/+", 1000) + ".c2lnbmF0dXJl/+c2lnbmF0dXJl"
	AddToken(tok)
	if ok, n := allocs.Within(0, func() { AddToken(tok) }); !ok {
		t.Errorf("registering the same token again allocated %d bytes", n)
	}
	if got := Scrub(tok); got != redacted {
		t.Errorf("not scrubbed: %.40q", got)
	}
}
