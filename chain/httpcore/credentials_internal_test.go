package httpcore

import (
	"fmt"
	"strings"
	"testing"
)

// A long-lived process is issued many tokens; its API key must stay
// scrubbed however many (it was forgotten after ~100 tokens when keys and
// tokens shared one bounded list).
func TestAPIKeyOutlivesManyTokens(t *testing.T) {
	const key = "server_key_that_lives_for_weeks"
	AddSecret(key)
	var last string
	for i := range 2000 {
		last = fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0b2tlbi0lMDRkIiwiaSI6%06d.c2lnbmF0dXJlLW9mLXRva2Vu%06d", i, i)
		AddToken(last)
	}
	got := Scrub(`{"api_key":"` + key + `","token":"` + last + `"}`)
	if strings.Contains(got, key) || strings.Contains(got, last) {
		t.Fatalf("not scrubbed: %s", got)
	}
	if _, tokens := registered(); len(tokens) > maxTokenForms {
		t.Fatalf("%d token forms remembered, at most %d", len(tokens), maxTokenForms)
	}
	if got := string(scrubBytes([]byte("key " + key))); got != "key [redacted]" {
		t.Fatalf("scrubBytes: %q", got)
	}
}
