package ship_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/ship"
)

// A password or token in the user info that holds an unescaped '/', '?'
// or '#' makes the URL parse otherwise than meant: its first part becomes
// the host (and port), the rest the path, query or fragment. Neither the
// stream's error nor a line WithLogger prints on each retry may show any
// part of it: the URLError's reason quoted the misread "port"
// (`invalid port ":s3cr3t" after host`), and a URL that parsed (a token
// "ab/cd…" read as host "ab") was shown with the token whole and dialed,
// its first part in the DNS error logged on each retry. Such a URL is not
// the address meant: the stream ends at once with a *URLError.
func TestMisparsedUserInfoShowsNoSecret(t *testing.T) {
	for _, tc := range []struct{ url, secret string }{
		{"ws://me:s3cr3tpart/more@127.0.0.1:9/ship", "s3cr3tpart"},
		{"ws://me:s3cr3tpart?more@127.0.0.1:9/ship", "s3cr3tpart"},
		{"ws://me:s3cr3tpart#more@127.0.0.1:9/ship", "s3cr3tpart"},
		{"ws://me:480213/s3cr3tpart@127.0.0.1:9/ship", "480213"},
		{"ws://me:480213/s3cr3tpart@127.0.0.1:9/ship", "s3cr3tpart"},
		{"wss://tokenhead.invalid/s3cr3tpart@node.example/ship", "tokenhead"},
		{"wss://tokenhead.invalid/s3cr3tpart@node.example/ship", "s3cr3tpart"},
		{"wss://tokenhead.invalid?s3cr3tpart@node.example/ship", "tokenhead"},
		{"wss://tokenhead.invalid#s3cr3tpart@node.example/ship", "tokenhead"},
		// Dialable (nothing listens on port 9): retried, each retry logged.
		{"ws://me:s3cr3tpart@127.0.0.1:9/ship?token=s3cr3tpart", "s3cr3tpart"},
		{"ws://me:s3cr%74part@127.0.0.1:9/ship#s3cr3tpart", "s3cr"},
	} {
		dialable := strings.HasPrefix(tc.url, "ws://me:s3cr") && !strings.ContainsAny(tc.url[len("ws://me:"):strings.LastIndexByte(tc.url, '@')], "/?#")
		var mu sync.Mutex
		var logged []string
		logf := func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, args...))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a guard only
		c := fastClient(tc.url, ship.WithMaxReconnects(1), ship.WithStallTimeout(time.Second), ship.WithLogger(logf))
		var errs []string
		for _, err := range c.Stream(ctx, ship.Request{Start: 1}) {
			if err != nil {
				errs = append(errs, err.Error())
			}
			var bad *ship.URLError
			if !errors.As(err, &bad) && !dialable {
				t.Errorf("%q: not a *URLError (the address is not the one meant): %v", tc.url, err)
			}
		}
		if _, err := c.Status(ctx); err != nil {
			errs = append(errs, err.Error())
		}
		cancel()
		mu.Lock()
		if dialable && len(logged) == 0 {
			t.Errorf("%q: no retry logged", tc.url)
		}
		for _, text := range append(errs, logged...) {
			if strings.Contains(text, tc.secret) {
				t.Errorf("%q: shows %q: %s", tc.url, tc.secret, text)
			}
		}
		mu.Unlock()
	}
}

// CheckURL refuses what a stream would end on at once, and takes the
// addresses a stream dials.
func TestCheckURL(t *testing.T) {
	for _, url := range []string{"htp://127.0.0.1:8080", "127.0.0.1:8080", "ws://", "ws://me:s3cr3t/x@127.0.0.1:8080", "wss://ab/cd@node.example"} {
		var bad *ship.URLError
		if err := ship.CheckURL(url); !errors.As(err, &bad) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("CheckURL(%q) = %v", url, err)
		}
	}
	for _, url := range []string{"ws://127.0.0.1:8080", "wss://me:pw@node.example/ship?token=t", "http://[::1]:8080/", "https://node.example/v1/%40x"} {
		if err := ship.CheckURL(url); err != nil {
			t.Errorf("CheckURL(%q) = %v", url, err)
		}
	}
}
