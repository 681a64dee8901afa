package chain_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
	"github.com/antelopego/abigen/fetch"
)

// The credential cases of issue #20: no API key or token this process
// holds reaches an error, whatever a service echoes; URLs are redacted even
// when they do not parse; credentials never follow a redirect to another
// origin.

const (
	testKey = "server_0123456789abcdef-credential"
	testJWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmlnZW4tdGVzdCIsImV4cCI6OTk5OTk5OTk5OX0.c2lnbmF0dXJlLW9mLXRoZS1qd3QtdG9rZW4"
)

// noSecret fails when text shows the key or the token, or a part of it.
func noSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range append([]string{testKey, testJWT}, strings.Split(testJWT, ".")[1:]...) {
		if strings.Contains(text, s) {
			t.Errorf("%s shows a credential: %s", what, text)
		}
	}
}

// stateService is a token service and a state service in one server,
// each answering as its handler says.
func stateService(t *testing.T, issue, state http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/auth/issue":
			issue(w, r)
		case state != nil:
			state(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func issueJWT(life time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `{"token":%q,"expires_at":%d}`, testJWT, time.Now().Add(life).Unix())
	}
}

func stateClient(u string) *state.Client {
	return state.New(u, &state.Auth{Transport: &httpcore.Transport{Sleep: noSleep}, AuthURL: u, APIKey: testKey})
}

func readScopes(s *state.Client) error {
	_, err := s.ScopeList(context.Background(), antelope.MustName("eosio.token"), antelope.MustName("accounts"))
	return err
}

// A token service or a state service that echoes the key, the request
// body or the token in its error: the error shows none of them.
func TestCredentialsScrubbedFromErrors(t *testing.T) {
	echoKey := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"code":"auth_invalid_api_key_error","message":"The API key %s is not valid (request %s)"}`, testKey, body)
	}
	echoPage := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintf(w, "<html><body><h1>502</h1><pre>POST %s\n%s</pre></body></html>", r.URL, body)
	}
	quoteToken := func(w http.ResponseWriter, r *http.Request) {
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"code":"auth_invalid_token_error","message":"Unable to decode provided token %s (payload %s)"}`, tok, strings.Split(tok, ".")[1])
	}
	for _, c := range []struct {
		name         string
		issue, state http.HandlerFunc
		auth         bool // errors.Is(err, ErrAuth)
	}{
		{"a 401 echoing the API key", echoKey, nil, true},
		{"an HTML page echoing the request body", echoPage, nil, false},
		{"a state-service message quoting the JWT", issueJWT(time.Hour), quoteToken, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := readScopes(stateClient(stateService(t, c.issue, c.state)))
			if err == nil || errors.Is(err, state.ErrAuth) != c.auth {
				t.Fatalf("%v (ErrAuth %v)", err, errors.Is(err, state.ErrAuth))
			}
			noSecret(t, "the error", err.Error())
			noSecret(t, "the error, %+v", fmt.Sprintf("%+v", err))
			var he *httpcore.HTTPError
			if errors.As(err, &he) {
				noSecret(t, "HTTPError.Body", string(he.Body))
				noSecret(t, "HTTPError.Message", he.Message)
			}
		})
	}
}

// A URL that does not parse is shown redacted: no password, no query.
func TestUnparsableURLRedacted(t *testing.T) {
	bad := "https://alice:hunter2-password@no de.example/?api_key=" + testKey
	_, err := chain.New(bad).GetInfo(t.Context())
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("chain: %v", err)
	}
	noSecret(t, "chain", fmt.Sprint(err))
	err = readScopes(state.New(bad, &state.Auth{AuthURL: "https://ok.example", APIKey: testKey}))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("state: %v", err)
	}
	noSecret(t, "state", fmt.Sprint(err))
	err = readScopes(state.New("https://ok.example", &state.Auth{AuthURL: bad, APIKey: testKey}))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("token service: %v", err)
	}
	noSecret(t, "token service", fmt.Sprint(err))
	_, err = (&fetch.ChainAPI{URL: "ftp://bob:hunter2-password@x/?k=" + testKey}).FetchABI(t.Context(), "eosio", false)
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("fetch: %v", err)
	}
	noSecret(t, "fetch", fmt.Sprint(err))
	if got := httpcore.RedactRawURL("https://u:p@h%zz/x?y=1#z"); got != "https://h%zz/x" {
		t.Errorf("RedactRawURL: %q", got)
	}
}

// A 307 from the token service to another host: Go would resend the body
// with the API key there. Refused; a redirect within the origin is
// followed. The state service's bearer token is not taken elsewhere
// either.
func TestNoCrossOriginRedirectWithCredentials(t *testing.T) {
	var mu sync.Mutex
	var stolen []string
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		stolen = append(stolen, r.URL.Path+" "+string(body)+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprintf(w, `{"token":%q,"expires_at":%d,"scopes":[]}`, testJWT, time.Now().Add(time.Hour).Unix())
	}))
	defer evil.Close()
	u := stateService(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evil.URL+"/v1/auth/issue", http.StatusTemporaryRedirect)
	}, nil)
	err := readScopes(stateClient(u))
	if err == nil || !strings.Contains(err.Error(), "redirect to another origin") {
		t.Errorf("token service redirect: %v", err)
	}
	// Within the origin: followed.
	var self string
	self = stateService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("moved") == "" {
			http.Redirect(w, r, self+"/v1/auth/issue?moved=1", http.StatusPermanentRedirect)
			return
		}
		issueJWT(time.Hour)(w, r)
	}, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v0/state/table_scopes" {
			http.Redirect(w, r, evil.URL+r.URL.Path, http.StatusTemporaryRedirect)
			return
		}
	})
	err = readScopes(stateClient(self))
	if err == nil || !strings.Contains(err.Error(), "redirect to another origin") {
		t.Errorf("state service redirect: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(stolen) != 0 {
		t.Errorf("another origin was sent: %q", stolen)
	}
}

// A base URL with a query string (a provider's ?api_key=): the API path goes
// in the path, the query stays, and the key shows in no error.
func TestBaseURLWithQuery(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+" "+r.URL.Query().Get("api_key")+" "+r.URL.Query().Get("account"))
		mu.Unlock()
		if r.URL.Path == "/v1/auth/issue" {
			issueJWT(time.Hour)(w, r)
			return
		}
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, "upstream failed for %s", r.URL) // echoes the key
	}))
	defer srv.Close()
	base := srv.URL + "/?api_key=" + testKey
	_, err := chain.New(base, chain.WithTransport(&httpcore.Transport{Sleep: noSleep, MaxAttempts: 1})).GetInfo(t.Context())
	noSecret(t, "the chain error", fmt.Sprint(err))
	err = readScopes(state.New(base, &state.Auth{Transport: &httpcore.Transport{Sleep: noSleep, MaxAttempts: 1}, AuthURL: srv.URL, APIKey: "another-key-123"}))
	noSecret(t, "the state error", fmt.Sprint(err))
	mu.Lock()
	defer mu.Unlock()
	want := []string{"/v1/chain/get_info " + testKey + " ", "/v1/auth/issue  ", "/v0/state/table_scopes " + testKey + " eosio.token"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q\nwant %q", seen, want)
	}
}

// The state service refusing the re-issued token too is an ErrAuth.
func TestReissuedTokenRefused(t *testing.T) {
	issued := 0
	u := stateService(t, func(w http.ResponseWriter, r *http.Request) {
		issued++
		issueJWT(time.Hour)(w, r)
	}, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"code":"auth_invalid_token_error","message":"Unable to correctly decode provided token."}`))
	})
	err := readScopes(stateClient(u))
	if !errors.Is(err, state.ErrAuth) || issued != 2 {
		t.Errorf("%v after %d tokens", err, issued)
	}
}

// A token that lives under a minute is used for the first half of its
// life, not re-issued on every read.
func TestShortLivedTokenReused(t *testing.T) {
	issued := 0
	now := time.Now()
	u := stateService(t, func(w http.ResponseWriter, _ *http.Request) {
		issued++
		fmt.Fprintf(w, `{"token":%q,"expires_at":%d}`, testJWT, now.Add(30*time.Second).Unix())
	}, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"scopes":[]}`)) })
	clock := now
	s := state.New(u, &state.Auth{AuthURL: u, APIKey: testKey, Now: func() time.Time { return clock }})
	for range 5 {
		if err := readScopes(s); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(2 * time.Second)
	}
	if issued != 1 {
		t.Errorf("%d tokens for 5 reads in 10 s of a 30 s token", issued)
	}
	clock = now.Add(20 * time.Second)
	if err := readScopes(s); err != nil || issued != 2 {
		t.Errorf("past half its life: %d tokens, %v", issued, err)
	}
}

// A size cap under 1 MiB says its size.
func TestSizeCapMessage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("x", 2000)))
	}))
	defer srv.Close()
	for limit, want := range map[int64]string{512: "larger than 512 bytes", 1 << 10: "larger than 1 KiB", 3 << 20: ""} {
		_, err := chain.New(srv.URL, chain.WithTransport(&httpcore.Transport{MaxResponseSize: limit})).Call(t.Context(), "/x", nil)
		if want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("cap %d: %v", limit, err)
		}
	}
}

// A Retry-After longer than the caller's deadline: the error says the
// service rate-limited the request, at once.
func TestRetryAfterBeyondDeadline(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := chain.New(srv.URL).GetInfo(ctx)
	if err == nil || !strings.Contains(err.Error(), "rate-limited") || !strings.Contains(err.Error(), "429") || time.Since(start) > time.Second {
		t.Errorf("%v after %v", err, time.Since(start))
	}
	// Canceled while waiting: the error still says what it was waiting for.
	// The cancel comes as the wait starts (a cancel 50 ms after the call
	// could come before the 429 on a slow machine: "gave up", nothing
	// waited for).
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	cancelWhileWaiting := &httpcore.Transport{Sleep: func(ctx context.Context, _ time.Duration) error {
		cancel()
		<-ctx.Done()
		return ctx.Err()
	}}
	_, err = chain.New(srv.URL, chain.WithTransport(cancelWhileWaiting)).GetInfo(ctx)
	if err == nil || !strings.Contains(err.Error(), "rate-limited") || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled while waiting: %v", err)
	}
}

// A node (or a gateway before it) that echoes the key of the URL in its
// error: as the request line wrote it ('+', %2b in lower case), or
// decoded and JSON-escaped with '/' as '\/'. No form reaches an error's
// text, nodeos's *APIError's included.
func TestURLKeyEchoedInNodeosError(t *testing.T) {
	const written, decoded = "Zk/9qL+4mW2%2bxY7", "Zk/9qL 4mW2+xY7"
	for _, echo := range []string{written, `Zk\/9qL 4mW2+xY7`, "Zk/9qL+4mW2+xY7", "Zk%2F9qL+4mW2%2bxY7"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"code":401,"message":"UnAuthorized %s","error":{"code":3090003,"name":"unsatisfied_authorization","what":"key %s","details":[{"message":"api key %s refused","file":"x","line_number":1,"method":"x"}]}}`, echo, echo, echo)
		}))
		cl := chain.New(srv.URL+"/?api_key="+written, chain.WithTransport(&httpcore.Transport{Sleep: noSleep}))
		_, err := cl.GetInfo(t.Context())
		srv.Close()
		var ae *chain.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("want nodeos's error, got %v", err)
		}
		text := err.Error() + ae.What + ae.Category + fmt.Sprint(ae.Details)
		for _, form := range []string{written, decoded, echo, "4mW2"} {
			if strings.Contains(text, form) {
				t.Errorf("echoed as %q, the error shows %q: %s", echo, form, text)
			}
		}
	}
}

// A node that quotes the base URL's key in a successful answer's fields
// (a vote weight, a page's next key, a producer's flag): the errors that
// quote those fields show no key. The HTTP core scrubs failed requests'
// bodies; these are 200 answers.
func TestKeyQuotedInSuccessfulAnswerScrubbed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/chain/get_producers":
			if strings.Contains(r.URL.RawQuery, "weight") {
				fmt.Fprintf(w, `{"rows":[],"total_producer_vote_weight":"%s","more":""}`, testKey)
				return
			}
			fmt.Fprintf(w, `{"rows":[{"owner":"alice","is_active":"%s"}],"total_producer_vote_weight":"1.0","more":""}`, testKey)
		case "/v1/chain/get_table_by_scope":
			fmt.Fprintf(w, `{"rows":[],"more":"%s"}`, testKey)
		case "/v1/chain/get_table_rows":
			fmt.Fprintf(w, `{"rows":[],"more":true,"next_key":"%s"}`, testKey)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := t.Context()
	tok := antelope.MustName("eosio.token")
	var errs []error
	for _, weight := range []bool{true, false} {
		base := srv.URL + "/?api_key=" + testKey
		if weight {
			base += "&weight=1"
		}
		c := chain.New(base, chain.WithTransport(&httpcore.Transport{Sleep: noSleep, MaxAttempts: 1}))
		_, err := c.GetProducers(ctx, "", 10)
		errs = append(errs, err)
		if weight {
			errs = append(errs, firstErr(c.Scopes(ctx, chain.ScopeQuery{Code: tok})))
			errs = append(errs, firstErr(c.TableRows(ctx, antelope.TableQuery{Code: tok, Scope: tok, Table: antelope.MustName("accounts")})))
		}
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("answer %d: no error", i)
			continue
		}
		noSecret(t, fmt.Sprintf("answer %d's error", i), err.Error())
	}
}

// firstErr is the first error of a sequence; nil if it has none.
func firstErr[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// A token or password in the user info whose '/', '?' or '#' is not
// escaped makes url.Parse take its first part for the host
// ("https://ab/cd@node": host "ab"). The client must neither call that
// host (a DNS lookup and its error carrying the token) nor show the
// token: every call is refused as an invalid URL, redacted, before any
// request. The state, Hyperion and fetch clients build their URLs with the
// same httpcore.JoinURL (TestJoinURLRefusesAnAtAfterTheHost).
func TestMisparsedUserInfoIsRefusedUnshown(t *testing.T) {
	var hits sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Store(r.URL.String(), true)
		http.Error(w, "no", http.StatusNotFound)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, raw := range []string{
		"http://tokenhead/s3cr3tpart@" + host,
		"http://me:s3cr3t/part@" + host,
		"http://tok?s3cr3tpart@" + host,
		"http://tok#s3cr3tpart@" + host,
		"http://" + host + "/v1/s3cr3tpart@x",
	} {
		_, err := chain.New(raw, chain.WithTransport(&httpcore.Transport{Sleep: func(context.Context, time.Duration) error { return nil }})).GetInfo(context.Background())
		if err == nil || !strings.Contains(err.Error(), "invalid URL") {
			t.Errorf("%s: %v, want an invalid URL", httpcore.RedactRawURL(raw), err)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "part") {
			t.Errorf("the error shows the secret: %v", err)
		}
	}
	hits.Range(func(k, _ any) bool { t.Errorf("a request reached the server: %v", k); return true })
}
