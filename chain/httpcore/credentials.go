package httpcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Credentials never appear in an error or a log. The HTTP core scrubs
// every text it puts in an error of the credentials this process holds —
// API keys, issued tokens, a base URL's query values and password —
// registered with AddSecret, so that a service echoing a request (a 401
// body quoting the key, an HTML page showing the request body, a message
// quoting the JWT) cannot leak one. URLs are shown redacted, and a request
// carrying credentials never follows a redirect to another origin.

// redacted replaces a secret in a text.
const redacted = "[redacted]"

// maxTokenForms bounds the tokens remembered: a long-lived process is
// issued a token an hour, each registered in up to six forms; the oldest
// are forgotten first (an expired token opens nothing). Secrets registered
// with AddSecret — API keys, a URL's query values and password — are never
// forgotten: a key in use for weeks must stay scrubbed however many tokens
// it was issued meanwhile.
const maxTokenForms = 768

var secrets struct {
	sync.RWMutex
	// kept holds every AddSecret secret with its escaped forms; tokens the
	// most recent tokens' forms. Both are replaced, never appended to in
	// place, so a reader's snapshot stays valid without the lock.
	kept, tokens []secretForm
	// lastToken is the token registered last, whose forms end tokens: a
	// client registers its token before each request, and that costs a
	// comparison, not its forms made again.
	lastToken string
}

// secretForm is one form of a secret, with the same in ASCII lower case
// when it holds a %XX escape (Scrub matches those in any case), made once
// here: made at each Scrub, a long secret's forms cost every error text
// scrubbed many times the secret's size.
type secretForm struct{ text, folded string }

// foldedForms is forms, each with its lower-case form where Scrub needs it.
func foldedForms(forms []string) []secretForm {
	out := make([]secretForm, len(forms))
	for i, f := range forms {
		out[i].text = f
		if strings.Contains(f, "%") {
			out[i].folded = asciiLower(f)
		}
	}
	return out
}

// escapedForms is s with the forms a service may echo it in, where they
// differ from s: URL-query- and path-escaped (Scrub matches their escapes
// in any case: %2B and %2b), JSON-escaped, and JSON-escaped with '/' as
// '\/' (as PHP's json_encode and some gateways write it).
func escapedForms(s string) []string {
	forms := []string{s}
	add := func(f string) {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	add(url.QueryEscape(s))
	add(url.PathEscape(s))
	j, _ := json.Marshal(s)
	js := string(j[1 : len(j)-1])
	add(js)
	add(strings.ReplaceAll(js, "/", `\/`))
	return forms
}

// AddSecret registers a credential this process holds (an API key, a
// password) so that no error text of the HTTP core shows it, nor its JSON-
// or URL-escaped forms, for the life of the process. state.Auth registers
// its API key; chain.New and state.New the query values and password of
// their base URL; tokens go through AddToken. Strings under 6 bytes are not
// registered: no key or token is that short, and scrubbing them would
// garble messages.
func AddSecret(s string) {
	if len(s) < 6 {
		return
	}
	secrets.Lock()
	defer secrets.Unlock()
	if slices.ContainsFunc(secrets.kept, func(f secretForm) bool { return f.text == s }) {
		return
	}
	secrets.kept = append(slices.Clip(secrets.kept), foldedForms(escapedForms(s))...)
}

// AddToken registers an issued token, and for a JWT also its payload and
// signature, which a message may quote apart. Tokens expire, so only the
// most recently registered ones are remembered (maxTokenForms): a token
// registered again becomes the most recent, and a client registers the
// token it sends before each request (state.Auth does), so that a token in
// use is never forgotten however many others the process was issued since.
func AddToken(tok string) {
	if len(tok) < 6 {
		return
	}
	secrets.RLock()
	last := secrets.lastToken == tok
	secrets.RUnlock()
	if last {
		return
	}
	forms := escapedForms(tok)
	if strings.Count(tok, ".") == 2 { // not Split first: a token of dots
		for _, p := range strings.Split(tok, ".")[1:] {
			if len(p) >= 16 {
				forms = append(forms, escapedForms(p)...)
			}
		}
	}
	secrets.Lock()
	defer secrets.Unlock()
	if secrets.lastToken == tok {
		return // registered meanwhile: the most recent already
	}
	// Its forms move to the end: the list is replaced, never changed in
	// place (registered's snapshots).
	list := slices.DeleteFunc(slices.Clone(secrets.tokens), func(f secretForm) bool { return slices.Contains(forms, f.text) })
	list = append(list, foldedForms(forms)...)
	if len(list) > maxTokenForms {
		list = list[len(list)-maxTokenForms:]
	}
	secrets.tokens = list
	secrets.lastToken = tok
}

// registered is a snapshot of every secret to scrub.
func registered() (kept, tokens []secretForm) {
	secrets.RLock()
	defer secrets.RUnlock()
	return secrets.kept, secrets.tokens
}

// AddURLSecrets registers the query values and the password of a base URL
// (an API key in ?api_key=, a user:password@host), decoded and as written
// in raw: a service echoes the request line as it came ("a+b", "a%2bb"),
// and may read '+' as a '+' or as a space.
func AddURLSecrets(raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if p, ok := u.User.Password(); ok {
		AddSecret(p)
		if _, auth, ok := strings.Cut(raw, "://"); ok {
			if at := strings.LastIndexByte(auth, '@'); at >= 0 {
				if _, written, ok := strings.Cut(auth[:at], ":"); ok {
					AddSecret(written)
				}
			}
		}
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			AddSecret(v)
		}
	}
	for _, pair := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		_, v, _ := strings.Cut(pair, "=")
		AddSecret(v)
		if plus, err := url.PathUnescape(v); err == nil {
			AddSecret(plus) // '+' kept as '+'
		}
	}
}

// AnswerErrorf is fmt.Errorf for an error that quotes what a server
// answered with success (a field's value, a status text): scrubbed of
// every registered secret, as the bodies of failed requests are, since a
// server may quote the request's key or token in a 200 answer too. The
// text is the whole error: no %w.
func AnswerErrorf(format string, args ...any) error {
	return errors.New(Scrub(fmt.Sprintf(format, args...)))
}

// Scrub returns text with every registered secret replaced by
// "[redacted]". A form with a %XX escape matches with its letters in any
// case: a service may echo %2B, %2b, or a mix.
func Scrub(text string) string {
	kept, tokens := registered()
	var folded string // text in ASCII lower case, made once it is needed
	for _, list := range [2][]secretForm{kept, tokens} {
		for _, s := range list {
			if strings.Contains(text, s.text) {
				text = strings.ReplaceAll(text, s.text, redacted)
				folded = ""
			}
			if s.folded == "" {
				continue
			}
			if folded == "" {
				folded = asciiLower(text)
			}
			if strings.Contains(folded, s.folded) {
				text = replaceFolded(text, folded, s.folded)
				folded = asciiLower(text)
			}
		}
	}
	return text
}

// asciiLower is s with its ASCII letters in lower case, byte for byte (the
// same length: an index into it is an index into s).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// replaceFolded replaces in text each place where folded (text in ASCII
// lower case) holds low.
func replaceFolded(text, folded, low string) string {
	var b strings.Builder
	for {
		i := strings.Index(folded, low)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		b.WriteString(redacted)
		text, folded = text[i+len(low):], folded[i+len(low):]
	}
}

// scrubBytes is Scrub for a body, copied only when it may hold a secret.
func scrubBytes(b []byte) []byte {
	kept, tokens := registered()
	text := string(b)
	var folded string
	for _, list := range [2][]secretForm{kept, tokens} {
		for _, s := range list {
			if strings.Contains(text, s.text) {
				return []byte(Scrub(text))
			}
			if s.folded != "" {
				if folded == "" {
					folded = asciiLower(text)
				}
				if strings.Contains(folded, s.folded) {
					return []byte(Scrub(text))
				}
			}
		}
	}
	return b
}

// RedactRawURL is RedactURL for a URL given as text, even one that does
// not parse: without its user info, query and fragment, and scrubbed. In a
// URL, parsed or not, an '@' after a '/', '?' or '#' is either a
// password or token holding that character (unescaped: the URL does not
// parse, or parses with the secret's first part as its host) or part of
// the path or query: either may be a secret, so all but the scheme is
// redacted then.
func RedactRawURL(raw string) string {
	prefix, rest := "", raw
	if i := strings.Index(raw, "://"); i > 0 && isScheme(raw[:i]) {
		prefix, rest = raw[:i+3], raw[i+3:]
	}
	at, end := strings.LastIndexByte(rest, '@'), strings.IndexAny(rest, "/?#")
	if at >= 0 && end >= 0 && at > end {
		// Even a URL that parses: "https://ab/cd@host" (a token "ab/cd"
		// as user info, unescaped) parses with host "ab".
		return Scrub(prefix + redacted)
	}
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return Scrub(RedactURL(u))
	}
	if at >= 0 {
		rest = rest[at+1:] // the user info
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	return Scrub(prefix + rest)
}

// isScheme reports whether s can be a URL's scheme (RFC 3986: a letter,
// then letters, digits, '+', '-' or '.').
func isScheme(s string) bool {
	for i, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case i > 0 && ('0' <= r && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// AtAfterHost reports whether raw has an '@' after the end of its host
// (its first '/', '?' or '#' after "//"): user info whose '/', '?' or '#'
// is not percent-encoded. "https://ab/cd@host" parses with the host "ab",
// the first part of a token, which dialing would look up and show.
func AtAfterHost(raw string) bool {
	_, auth, ok := strings.Cut(raw, "//")
	if !ok {
		return false
	}
	end := strings.IndexAny(auth, "/?#")
	return end >= 0 && strings.Contains(auth[end:], "@")
}

// JoinURL is base with path appended to its path, its query kept: base
// "https://node.example/?api_key=K" and "/v1/chain/get_info" make
// "https://node.example/v1/chain/get_info?api_key=K". A base that does not
// parse, or is not http(s) with a host, is an error that shows it redacted.
func JoinURL(base, path string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid URL %q: an http(s) address with a host is needed", RedactRawURL(base))
	}
	if AtAfterHost(base) {
		// Calling it would put the token's first part in a DNS lookup and
		// its error, and AddURLSecrets never saw it as a secret.
		return nil, fmt.Errorf("invalid URL %q: an '@' after the host: a password or token in the user info must have its '/', '?' and '#' percent-encoded (%%2F, %%3F, %%23); an '@' meant in the path or query, as %%40", RedactRawURL(base))
	}
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawPath, u.Fragment = "", ""
	return u, nil
}

// WithQuery returns u with the parameters of q added to its own query
// (which may carry an API key).
func WithQuery(u *url.URL, q url.Values) *url.URL {
	c := *u
	v := c.Query()
	for k, vs := range q {
		v[k] = vs
	}
	c.RawQuery = v.Encode()
	return &c
}

type credentialsKey struct{}

// WithCredentials marks the requests sent with ctx as carrying credentials
// in their body (an API key): the HTTP core never follows a redirect to
// another origin with them, as it never does for a request with an
// Authorization header.
func WithCredentials(ctx context.Context) context.Context {
	return context.WithValue(ctx, credentialsKey{}, true)
}

// errCrossOrigin is a redirect refused: it would carry credentials to
// another origin.
var errCrossOrigin = errors.New("refused to follow a redirect to another origin with credentials")

// guarded is h with a redirect policy that refuses to take a request
// carrying credentials (an Authorization header, or a ctx marked
// WithCredentials) to another origin; h's own policy applies otherwise.
func guarded(ctx context.Context, h *http.Client) *http.Client {
	c := *h
	next := h.CheckRedirect
	creds := ctx.Value(credentialsKey{}) != nil
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if (creds || first.Header.Get("Authorization") != "") && !SameOrigin(first.URL, req.URL) {
			return fmt.Errorf("%w (%s)", errCrossOrigin, RedactURL(req.URL))
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// SameOrigin reports whether to is from's origin, or its host upgraded to
// https: where a redirect may take a request's credentials.
func SameOrigin(from, to *url.URL) bool {
	return strings.EqualFold(from.Host, to.Host) && (from.Scheme == to.Scheme || to.Scheme == "https")
}

// formatSize prints a byte count the way a size cap is set.
func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
