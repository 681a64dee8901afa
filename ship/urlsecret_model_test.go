package ship_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/antelopego/abigen/ship"
)

// refusingDialer fails every dial, as a refused connection does: what
// the client then says shows its own rendering of the URL.
type refusingDialer struct{}

func (refusingDialer) Dial(context.Context, string, int64) (ship.Conn, error) {
	return nil, errors.New("connection refused")
}

// Random URLs whose user info, query and fragment hold secrets written in
// letters no message of ship's uses (Q, X, Z, J, V, K) and any of the
// delimiters a user may leave unescaped ('/', '?', '#', '@', ':', '%'):
// none of those letters appears in what a stream (its error and each line
// it logs), Status or CheckURL say, dialable or not, nor what the
// websocket dialer says of a refused connection.
func TestURLSecretsNeverShownModel(t *testing.T) {
	const letters = "QXZJVK"
	const secretChars = letters + "/?#@:%"
	r := rand.New(rand.NewPCG(7, 7))
	secret := func() string {
		b := make([]byte, 6+r.IntN(10))
		for i := range b {
			b[i] = secretChars[r.IntN(len(secretChars))]
			if r.IntN(3) > 0 {
				b[i] = letters[r.IntN(len(letters))] // mostly letters
			}
		}
		// Not "://": before it, a secret would pass for the scheme.
		text := string(b)
		for strings.Contains(text, "://") {
			text = strings.ReplaceAll(text, "://", ":/")
		}
		return text
	}
	leaks := func(text string) bool { return strings.ContainsAny(text, letters) }
	dialed := 0 // URLs the websocket dialer tried
	for round := range 3000 {
		var u strings.Builder
		u.WriteString([]string{"ws://", "wss://", "http://", "htp://", "ws:/", ""}[r.IntN(6)])
		switch r.IntN(4) {
		case 0:
		case 1:
			u.WriteString(secret() + "@")
		default:
			u.WriteString("me:" + secret() + "@")
		}
		// Every sixth URL is dialed for real, where nothing listens (no
		// name to look up: the dialer's own words are checked too).
		real := round%6 == 0
		hosts := []string{"node.example", "127.0.0.1:8080", "[::1]:8080", "node.example:99999", ""}
		if real {
			hosts = []string{"127.0.0.1:1", "127.0.0.1:99999", ""}
		}
		u.WriteString(hosts[r.IntN(len(hosts))])
		u.WriteString([]string{"", "/", "/ship", "/v1/ship/"}[r.IntN(4)])
		if r.IntN(2) == 0 {
			u.WriteString("?token=" + secret())
		}
		if r.IntN(4) == 0 {
			u.WriteString("#" + secret())
		}
		raw := u.String()
		var dialer ship.Dialer = refusingDialer{}
		if real {
			dialer = ship.WebSocket{}
		}
		c := ship.NewClient(raw, ship.WithDialer(dialer), ship.WithMaxReconnects(1), ship.WithBackoff(0, 0),
			ship.WithLogger(func(format string, args ...any) {
				if line := fmt.Sprintf(format, args...); leaks(line) {
					t.Errorf("%q: logged %s", raw, line)
				}
			}))
		var texts []string
		for _, err := range c.Stream(context.Background(), ship.Request{Start: 1}) {
			texts = append(texts, err.Error())
		}
		if _, err := c.Status(context.Background()); err != nil {
			texts = append(texts, err.Error())
		}
		if err := ship.CheckURL(raw); err != nil {
			texts = append(texts, err.Error())
		}
		for _, text := range texts {
			if leaks(text) {
				t.Fatalf("%q: %s", raw, text)
			}
			if strings.Contains(text, "connect: connection refused") {
				dialed++
			}
		}
	}
	if dialed == 0 {
		t.Fatal("no URL was dialed for real")
	}
}
