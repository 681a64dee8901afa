package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxIdent is PostgreSQL's identifier length (NAMEDATALEN−1 bytes): a
// longer name is silently truncated there, and two long names could then
// become one.
const maxIdent = 63

// sanitize makes s an identifier both databases accept inside quotes:
// control characters, NUL and invalid UTF-8 become '_', and a name longer
// than maxIdent keeps its start and a hash of the whole, so it stays
// distinct.
func sanitize(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || unicode.IsControl(r) {
			r = '_'
		}
		b.WriteRune(r)
	}
	out := b.String()
	if out == "" {
		out = "_"
	}
	if len(out) > maxIdent {
		sum := sha256.Sum256([]byte(s))
		cut := maxIdent - 9
		for !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut] + "_" + hex.EncodeToString(sum[:4])
	}
	return out
}

// namer hands out distinct identifiers. SQLite compares identifiers without
// regard to ASCII case even when quoted, so "Amount" and "amount" are the
// same column there: names are compared folded.
type namer struct{ used map[string]bool }

func newNamer(reserved ...string) *namer {
	n := &namer{used: map[string]bool{}}
	for _, r := range reserved {
		n.used[strings.ToLower(r)] = true
	}
	return n
}

// name returns want, sanitized, or want_2, want_3… when taken.
func (n *namer) name(want string) string {
	base := sanitize(want)
	got := base
	for i := 2; n.used[strings.ToLower(got)]; i++ {
		suffix := "_" + strconv.Itoa(i)
		cut := min(len(base), maxIdent-len(suffix))
		for cut < len(base) && !utf8.RuneStart(base[cut]) {
			cut--
		}
		got = base[:cut] + suffix
	}
	n.used[strings.ToLower(got)] = true
	return got
}
