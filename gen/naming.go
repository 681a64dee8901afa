package gen

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/model"
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

// packageReserved are the package-level names generated code declares.
var packageReserved = []string{"DecodeAction", "DecodeTableRow", "DecodeActionResult", "ABIJSON", "ABISHA256",
	"ABIVersion", "Contract", "DefaultAccount", "Default", "Tables", "ErrorMessage", "NewValue"}

// assignNames gives every ABI element its Go identifier, deterministically:
// user renames first, then structs, variants and typedefs in ABI order, then
// the names derived from actions, tables and error codes. A clash gets a
// trailing underscore and a note.
func (g *generator) assignNames() error {
	pkg := newScope(&g.notes)
	pkg.reserve("abigen itself", packageReserved...)
	used := map[string]bool{}
	rename := func(key string) (string, bool, error) {
		name, ok := g.opts.Renames[key]
		if !ok {
			return "", false, nil
		}
		used[key] = true
		if !isExportedIdent(name) {
			return "", false, fmt.Errorf("--rename %s=%s: %q is not an exported Go identifier", key, name, name)
		}
		return name, true, nil
	}
	claimType := func(abiName, what string) (string, error) {
		if name, ok, err := rename(abiName); err != nil || ok {
			if err == nil && pkg.taken[name] != "" {
				return "", fmt.Errorf("--rename %s=%s: %s is already used by %s", abiName, name, name, pkg.taken[name])
			}
			if err == nil {
				pkg.taken[name] = what
			}
			return name, err
		}
		return pkg.claim(GoName(abiName), what), nil
	}
	for _, s := range g.m.Structs {
		n, err := claimType(s.Name, "struct "+strconv.Quote(s.Name))
		if err != nil {
			return err
		}
		g.structNames[s] = n
	}
	for _, v := range g.m.Variants {
		n, err := claimType(v.Name, "variant "+strconv.Quote(v.Name))
		if err != nil {
			return err
		}
		g.variantNames[v] = n
	}
	for _, a := range g.m.Aliases {
		n, err := claimType(a.Name, "typedef "+strconv.Quote(a.Name))
		if err != nil {
			return err
		}
		g.aliasNames[a] = n
	}
	for _, v := range g.m.Variants {
		g.variantIfaces[v] = pkg.claim(g.variantNames[v]+"Value", "the interface of variant "+strconv.Quote(v.Name))
		names := make([]string, len(v.Members))
		for i, m := range v.Members {
			if !g.memberIsPointer(m) {
				names[i] = pkg.claim(g.variantNames[v]+g.shapeName(m), "an alternative of variant "+strconv.Quote(v.Name))
			}
		}
		g.memberNames[v] = names
	}
	needsValue := func(t *model.Type) bool {
		k := t.Resolved().Kind
		return k != model.StructKind && k != model.VariantKind
	}
	for _, a := range g.m.Actions {
		if needsValue(a.Type) {
			g.actionValues[a] = pkg.claim(GoName(a.Name)+"Data", "the data type of action "+strconv.Quote(a.Name))
		}
	}
	for _, t := range g.m.Tables {
		if needsValue(t.Type) {
			g.tableValues[t] = pkg.claim(GoName(t.Name)+"Row", "the row type of table "+strconv.Quote(t.Name))
		}
	}
	for _, r := range g.m.ActionResults {
		if needsValue(r.Type) {
			g.resultValues[r] = pkg.claim(GoName(r.Name)+"Result", "the result type of action "+strconv.Quote(r.Name))
		}
	}
	for _, a := range g.m.Actions {
		g.actionConsts[a] = pkg.claim("Action"+GoName(a.Name), "the name constant of action "+strconv.Quote(a.Name))
	}
	for _, t := range g.m.Tables {
		want := "Table" + GoName(t.Name)
		if name, ok, err := rename("table:" + t.Name); err != nil {
			return err
		} else if ok {
			want = name
		}
		g.tableVars[t] = pkg.claim(want, "the description of table "+strconv.Quote(t.Name))
	}
	if len(g.m.Actions) > 0 {
		g.actionsVar = pkg.claim("Actions", "the typed action descriptors") // see actionDescriptors
	}
	for _, em := range g.m.ErrorMessages {
		g.errorConsts[uint64(em.Code)] = pkg.claim("ErrorCode"+strconv.FormatUint(uint64(em.Code), 10), "error code")
	}

	// Contract methods: one per action, beside the Account field.
	methods := newScope(&g.notes)
	methods.reserve("the field Contract.Account", "Account")
	for _, a := range g.m.Actions {
		want := GoName(a.Name)
		if name, ok, err := rename("action:" + a.Name); err != nil {
			return err
		} else if ok {
			want = name
		}
		g.contractMethods[a] = methods.claim(want, "the Contract method of action "+strconv.Quote(a.Name))
	}
	// ... then one per table (its typed table at c.Account) and one per
	// action result (the typed return value in a transaction's result).
	for _, t := range g.m.Tables {
		g.tableMethods[t] = methods.claim(g.tableVars[t], "the Contract method of table "+strconv.Quote(t.Name))
	}
	for _, r := range g.m.ActionResults {
		for _, a := range g.m.Actions {
			if a.Name == r.Name {
				g.resultActions[r] = a
				g.resultMethods[r] = methods.claim(g.contractMethods[a]+"Result", "the result reader of action "+strconv.Quote(a.Name))
			}
		}
	}
	// Typed ranges over the secondary indexes that key_names and key_types
	// describe (the first entry is the primary key).
	for _, t := range g.m.Tables {
		for i := 1; i < len(t.KeyNames) && i < len(t.KeyTypes); i++ {
			kt, ok := indexKeyTypes[t.KeyTypes[i]]
			if !ok {
				continue
			}
			name := pkg.claim(GoName(t.Name)+"By"+GoName(t.KeyNames[i]), "the index option of "+strconv.Quote(t.Name+"."+t.KeyNames[i]))
			g.indexOptions[t] = append(g.indexOptions[t], indexOption{name: name, position: i + 1, key: t.KeyNames[i], typ: kt})
		}
	}

	// Fields: per struct, beside the codec methods and the embedded base.
	for _, s := range g.m.Structs {
		fs := newScope(&g.notes)
		fs.reserve("a generated method", codecMethods...)
		if s.Base != nil {
			fs.reserve("the embedded base struct", g.structNames[s.Base])
			// Promoted base fields are reached through the base; a field of
			// the same Go name here would shadow them, which is legal Go.
		}
		for _, f := range s.Fields {
			key := s.Name + "." + f.Name
			want := GoName(f.Name)
			if name, ok, err := rename(key); err != nil {
				return err
			} else if ok {
				if fs.taken[name] != "" {
					return fmt.Errorf("--rename %s=%s: %s is already used by %s", key, name, name, fs.taken[name])
				}
				want = name
			}
			g.fieldNames[f] = fs.claim(want, fmt.Sprintf("field %q of struct %q", f.Name, s.Name))
		}
	}

	var unused []string
	for k := range g.opts.Renames {
		if !used[k] {
			unused = append(unused, k)
		}
	}
	if len(unused) > 0 {
		sort.Strings(unused)
		return fmt.Errorf("--rename %s: the ABI has no struct, variant, typedef or field of that name (fields are struct.field, actions action:name, tables table:name)", strings.Join(unused, ", "))
	}
	return nil
}

// CheckPackageName says why s cannot be a generated package's name (nil
// when it can): abigen's rule is a lower-case Go identifier, so that the
// import path's last element reads as the package.
func CheckPackageName(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case goKeywords[s]:
		return errors.New("a Go keyword")
	case s[0] < 'a' || s[0] > 'z':
		return errors.New("not starting with a lower-case letter")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return fmt.Errorf("%q is not a lower-case letter, digit or _", c)
		}
	}
	return nil
}

var goKeywords = map[string]bool{"break": true, "case": true, "chan": true, "const": true, "continue": true,
	"default": true, "defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true, "range": true,
	"return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true}
