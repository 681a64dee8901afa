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

// A URL that does not parse is shown without anything that may be a
// password: a password holding a '/', '?' or '#' (not escaped, which is
// what makes the URL fail to parse) made the host part end early, and
// the password was shown whole.
func TestRedactRawURLPasswordWithDelimiters(t *testing.T) {
	for raw, want := range map[string]string{
		"https://u:p@h%zz/x?y=1#z":                    "https://h%zz/x",
		"https://alice:hunter2@no de.example/v1?k=K1": "https://no de.example/v1",
		"https://alice:pa/ss-word@node.example/":      "https://[redacted]",
		"https://alice:pw?secretpart@node.example/x":  "https://[redacted]",
		"https://alice:pw#secretpart@node.example/x":  "https://[redacted]",
		"alice:pa/ss-word@node.example":               "[redacted]",
		"alice:pa//ss-word@node.example":              "[redacted]",
		"https://h%zz/x?user=a@b.c&key=secretpart":    "https://[redacted]",
		"node.example?api_key=secretpart":             "node.example",
	} {
		got := RedactRawURL(raw)
		if got != want {
			t.Errorf("RedactRawURL(%q) = %q, want %q", raw, got, want)
		}
		for _, secret := range []string{"alice", "pa/ss", "ss-word", "secretpart", "hunter2", "K1"} {
			if strings.Contains(got, secret) {
				t.Errorf("RedactRawURL(%q) = %q shows %q", raw, got, secret)
			}
		}
	}
}
