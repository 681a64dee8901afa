package gen

import (
	"fmt"
	"sort"
	"strings"
)

// initialisms are the name parts written in capitals, as Go style writes
// them: "assoc_id" → AssocID, "ram_bytes" → RAMBytes. The list is Go's
// usual one plus ABI, EOS and NFT.
var initialisms = map[string]bool{
	"abi": true, "acl": true, "api": true, "ascii": true, "cpu": true, "css": true, "dns": true, "eof": true,
	"eos": true, "guid": true, "html": true, "http": true, "https": true, "id": true, "ip": true, "json": true,
	"lhs": true, "nft": true, "qps": true, "ram": true, "rhs": true, "rpc": true, "sla": true, "smtp": true,
	"sql": true, "ssh": true, "tcp": true, "tls": true, "ttl": true, "udp": true, "ui": true, "uid": true,
	"uri": true, "url": true, "utf8": true, "uuid": true, "vm": true, "xml": true, "xmpp": true, "xsrf": true,
	"xss": true,
}

// Initialisms returns the documented list, sorted.
func Initialisms() []string {
	var l []string
	for k := range initialisms {
		l = append(l, strings.ToUpper(k))
	}
	sort.Strings(l)
	return l
}

// GoName turns an ABI name into an exported Go identifier:
//
//   - split on every character that is not an ASCII letter or digit
//     ("assoc_id", "config.a", "foo-bar");
//   - capitalise each part, or upper-case it when it is an initialism
//     (a plural keeps its s: "job_ids" → JobIDs);
//   - a name that starts with a digit gets the prefix X ("1abc" → X1abc);
//   - a name with no ASCII letter or digit at all (empty, or only
//     non-ASCII) becomes X followed by the hex of its UTF-8 bytes ("" → X).
//
// Exported identifiers never clash with Go keywords or predeclared
// identifiers, which are all lower case.
func GoName(abiName string) string {
	parts := strings.FieldsFunc(abiName, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	var b strings.Builder
	for _, p := range parts {
		lower := strings.ToLower(p)
		if initialisms[lower] {
			b.WriteString(strings.ToUpper(p))
			continue
		}
		if stem, ok := strings.CutSuffix(lower, "s"); ok && initialisms[stem] {
			b.WriteString(strings.ToUpper(stem) + "s") // job_ids → JobIDs
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]))
		b.WriteString(p[1:])
	}
	s := b.String()
	if s == "" {
		return fmt.Sprintf("X%x", abiName)
	}
	if s[0] >= '0' && s[0] <= '9' {
		return "X" + s
	}
	return s
}

// scope hands out unique identifiers. A name already taken gets a trailing
// underscore, repeated until it is free — the rule protoc-gen-go follows —
// and the renaming is recorded as a note for the user.
type scope struct {
	taken map[string]string // Go name → what took it
	notes *[]string
}

func newScope(notes *[]string) *scope { return &scope{taken: map[string]string{}, notes: notes} }

// reserve takes names that generated code itself declares.
func (s *scope) reserve(what string, names ...string) {
	for _, n := range names {
		s.taken[n] = what
	}
}

// claim returns a free identifier for want, on behalf of what.
func (s *scope) claim(want, what string) string {
	name := want
	for s.taken[name] != "" {
		name += "_"
	}
	if name != want && s.notes != nil {
		*s.notes = append(*s.notes, fmt.Sprintf("%s is named %s: %s is taken by %s (use --rename to choose a name)", what, name, want, s.taken[want]))
	}
	s.taken[name] = what
	return name
}

// isExportedIdent reports whether s can be used as an exported identifier.
func isExportedIdent(s string) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
