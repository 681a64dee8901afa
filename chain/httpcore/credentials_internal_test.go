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
// the password was shown whole. So is one that parses only because the
// secret's first part makes a host ("https://ab/cd@node": the token
// "ab/cd" as user info), which was shown whole.
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
		// They parse, with the secret's first part as the host.
		"https://alice:12/ss-word@node.example/x": "https://[redacted]",
		"https://secretpart/x@node.example/":      "https://[redacted]",
		"https://secretpart?x@node.example/":      "https://[redacted]",
		"https://secretpart#x@node.example/":      "https://[redacted]",
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

// A key in a base URL is echoed as the request line wrote it — '+' for a
// space or a plus, %2b in lower case — or JSON-escaped with '/' as '\/':
// every form is scrubbed, not only the decoded one and Go's escaping.
func TestURLKeyAsWritten(t *testing.T) {
	AddURLSecrets("https://node.example/?api_key=Kx7+q9/Zr%2bW4%2fP2&other=1")
	AddURLSecrets("https://user:pw+Sec%2bret%2f42@node.example/")
	for _, echo := range []string{
		"Kx7+q9/Zr%2bW4%2fP2",   // as written
		"Kx7 q9/Zr+W4/P2",       // decoded
		"Kx7+q9/Zr+W4/P2",       // '+' read as a plus
		"Kx7+q9%2FZr%2BW4%2FP2", // Go's query escaping
		"Kx7+q9%2fZr%2bW4%2fP2", // in lower case
		`Kx7 q9\/Zr+W4\/P2`,     // JSON with '\/'
		"Kx7%20q9%2FZr+W4%2FP2", // path escaping
		"pw+Sec%2bret%2f42",     // a password as written
		"pw+Sec+ret/42",         // decoded
		`pw+Sec+ret\/42`,        // JSON-escaped
		"pw%2BSec%2Bret%2F42",   // query-escaped
		"pw%2bSec%2bret%2f42",   // in lower case
	} {
		if got := Scrub("echo: " + echo + " end"); got != "echo: [redacted] end" {
			t.Errorf("%q: %q", echo, got)
		}
	}
}

// JoinURL, which every HTTP client of the project builds its request URLs
// with, refuses a base whose '@' comes after the host (a token as user
// info with its '/', '?' or '#' unescaped: the token's first part would be
// the host), naming none of it; an '@' escaped as %40, or in the path
// given to JoinURL, is kept.
func TestJoinURLRefusesAnAtAfterTheHost(t *testing.T) {
	for _, base := range []string{"https://secretpart/x@node.example", "https://secretpart?x@node.example",
		"https://secretpart#x@node.example", "https://node.example/v1/secretpart@x", "https://u:p@node.example/a@b"} {
		u, err := JoinURL(base, "/v1/chain/get_info")
		if err == nil {
			t.Errorf("%s: %v, want an error", RedactRawURL(base), u)
			continue
		}
		if strings.Contains(err.Error(), "secretpart") || strings.Contains(err.Error(), "node.example") {
			t.Errorf("the error shows the URL: %v", err)
		}
	}
	for _, base := range []string{"https://u:p%2Fq@node.example", "https://node.example/a%40b", "https://node.example"} {
		if _, err := JoinURL(base, "/v1/x@y"); err != nil {
			t.Errorf("%s: %v", RedactRawURL(base), err)
		}
	}
}
