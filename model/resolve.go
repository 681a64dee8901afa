package model

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// Limits on what an ABI may declare, so that a hostile ABI cannot make
// generated code enormous.
const (
	maxFixedArrayLen = 1 << 16 // T[N]: N at most 65536
	maxTypeNesting   = 64      // suffixes and typedefs inside one another
	maxErrors        = 20      // errors reported at once
)

func checkVersion(v string) error {
	minor, ok := strings.CutPrefix(v, "eosio::abi/1.")
	if ok {
		if n, err := strconv.Atoi(minor); err == nil && n >= 0 && n <= 3 && strconv.Itoa(n) == minor {
			return nil
		}
	}
	return fmt.Errorf("unsupported ABI version %q: abigen reads eosio::abi/1.0 to 1.3", v)
}

// resolver holds the state of one Resolve call.
type resolver struct {
	abi      *ABI
	opts     ResolveOptions
	decls    map[string]string // type name → where it is declared, e.g. `structs[3] "jobs_a"`
	typedefs map[string]int
	structs  map[string]int
	variants map[string]int
	types    map[string]*Type // interned, by spelling
	aliases  map[string]*Alias
	resolved map[string]*Struct
	vars     map[string]*Variant
	stack    []string        // typedefs being resolved, for cycle detection
	failed   map[string]bool // typedefs already reported as broken
	errs     []error
}

// report records err at where, unless it was already reported at its source.
func (r *resolver) report(where string, err error) {
	if err != errReported {
		r.errorf("%s: %v", where, err)
	}
}

func (r *resolver) errorf(format string, args ...any) {
	if len(r.errs) < maxErrors {
		r.errs = append(r.errs, fmt.Errorf(format, args...))
	}
}

// ResolveOptions change what Resolve accepts.
type ResolveOptions struct {
	// OffChain declares the ABI one that never goes on chain, such as
	// nodeos's state-history ABI: its table names need not be valid names
	// (state history names its deltas "account_metadata",
	// "contract_index_long_double"). Without it such a table is kept with a
	// warning, since nodeos could not load the ABI on chain.
	OffChain bool
}

// Resolve validates abi and resolves its types. Every problem found is
// reported (up to 20), each naming the element and the offending value.
func Resolve(abi *ABI) (*Model, error) { return ResolveWith(abi, ResolveOptions{}) }

// ResolveWith is Resolve with options.
func ResolveWith(abi *ABI, opts ResolveOptions) (*Model, error) {
	if err := checkVersion(abi.Version); err != nil {
		return nil, err
	}
	r := &resolver{abi: abi, opts: opts, decls: map[string]string{}, typedefs: map[string]int{}, structs: map[string]int{},
		variants: map[string]int{}, types: map[string]*Type{}, aliases: map[string]*Alias{},
		resolved: map[string]*Struct{}, vars: map[string]*Variant{}, failed: map[string]bool{}}
	m := &Model{Version: abi.Version, Clauses: abi.RicardianClauses, ErrorMessages: abi.ErrorMessages}

	r.declare()
	for i, td := range abi.Types {
		if r.typedefs[td.NewTypeName] != i {
			continue // a duplicate, already reported
		}
		r.resolveTypedef(td.NewTypeName)
	}
	for i, sd := range abi.Structs {
		if r.structs[sd.Name] == i {
			r.structFor(sd.Name)
		}
	}
	for i, vd := range abi.Variants {
		if r.variants[vd.Name] == i {
			r.variantFor(vd.Name)
		}
	}
	for _, td := range abi.Types {
		if a := r.aliases[td.NewTypeName]; a != nil && !slices.Contains(m.Aliases, a) {
			m.Aliases = append(m.Aliases, a)
		}
	}
	for _, sd := range abi.Structs {
		if s := r.resolved[sd.Name]; s != nil && !slices.Contains(m.Structs, s) {
			m.Structs = append(m.Structs, s)
		}
	}
	for _, vd := range abi.Variants {
		if v := r.vars[vd.Name]; v != nil && !slices.Contains(m.Variants, v) {
			m.Variants = append(m.Variants, v)
		}
	}
	m.Actions = r.actions()
	m.Tables = r.tables(m)
	m.ActionResults = r.actionResults()
	r.errorCodes()
	if len(r.errs) == 0 {
		r.checkFiniteSize(m)
	}
	if len(r.errs) > 0 {
		return nil, errors.Join(r.errs...)
	}
	computeExtensionTails(m)
	computeMinSizes(m)
	return m, nil
}

// declare records every declared type name and rejects empty, malformed,
// built-in and duplicate names.
func (r *resolver) declare() {
	add := func(kind string, i int, name string, index map[string]int) {
		where := fmt.Sprintf("%s[%d] %q", kind, i, name)
		switch {
		case name == "":
			r.errorf("%s[%d]: empty name", kind, i)
		case strings.ContainsAny(name, "[]?$ \t\n"):
			r.errorf("%s: invalid type name: it contains one of []?$ or white space", where)
		case IsBuiltin(name):
			r.errorf("%s: redefines the built-in type %q", where, name)
		case r.decls[name] != "":
			r.errorf("%s: name already declared by %s", where, r.decls[name])
		default:
			r.decls[name] = where
			index[name] = i
		}
	}
	for i, td := range r.abi.Types {
		add("types", i, td.NewTypeName, r.typedefs)
	}
	for i, sd := range r.abi.Structs {
		add("structs", i, sd.Name, r.structs)
	}
	for i, vd := range r.abi.Variants {
		add("variants", i, vd.Name, r.variants)
	}
}

// errReported stands for an error already reported at its source, so that
// callers do not report its consequences again.
var errReported = errors.New("reported")

func (r *resolver) resolveTypedef(name string) *Type {
	if t := r.types[name]; t != nil {
		return t
	}
	if r.failed[name] {
		return nil
	}
	i := r.typedefs[name]
	td := r.abi.Types[i]
	where := fmt.Sprintf("types[%d] %q", i, name)
	for j, on := range r.stack {
		if on == name {
			loop := append(append([]string{}, r.stack[j:]...), name)
			r.errorf("%s: typedef cycle %s", where, strings.Join(loop, " → "))
			for _, n := range loop {
				r.failed[n] = true
			}
			return nil
		}
	}
	if strings.Contains(td.Type, "$") {
		r.errorf("%s: type %q: a typedef cannot be a binary extension ($)", where, td.Type)
		r.failed[name] = true
		return nil
	}
	r.stack = append(r.stack, name)
	target, err := r.typeOf(td.Type, 0)
	r.stack = r.stack[:len(r.stack)-1]
	if err != nil {
		if err != errReported {
			r.errorf("%s: %v", where, err)
		}
		r.failed[name] = true
		return nil
	}
	a := &Alias{Name: name, Target: target}
	r.aliases[name] = a
	t := &Type{Kind: AliasKind, Name: name, Elem: target, Alias: a}
	r.types[name] = t
	return t
}

// typeOf resolves a type spelling without "$".
func (r *resolver) typeOf(spelling string, depth int) (*Type, error) {
	if t := r.types[spelling]; t != nil {
		return t, nil
	}
	if depth > maxTypeNesting {
		return nil, fmt.Errorf("type %q nests more than %d levels", spelling, maxTypeNesting)
	}
	if strings.Contains(spelling, "$") {
		return nil, fmt.Errorf("type %q: a binary extension ($) is allowed only at the end of a struct field's type", spelling)
	}
	var t *Type
	switch {
	case strings.HasSuffix(spelling, "[]"):
		elem, err := r.typeOf(spelling[:len(spelling)-2], depth+1)
		if err != nil {
			return nil, err
		}
		t = &Type{Kind: Array, Name: spelling, Elem: elem}
	case strings.HasSuffix(spelling, "?"):
		elem, err := r.typeOf(spelling[:len(spelling)-1], depth+1)
		if err != nil {
			return nil, err
		}
		t = &Type{Kind: Optional, Name: spelling, Elem: elem}
	case strings.HasSuffix(spelling, "]"):
		open := strings.LastIndexByte(spelling, '[')
		if open <= 0 {
			return nil, fmt.Errorf("unknown type %q", spelling)
		}
		n, err := strconv.Atoi(spelling[open+1 : len(spelling)-1])
		if err != nil || n < 0 || strconv.Itoa(n) != spelling[open+1:len(spelling)-1] {
			return nil, fmt.Errorf("type %q: invalid array length", spelling)
		}
		if n > maxFixedArrayLen {
			return nil, fmt.Errorf("type %q: fixed array length above %d", spelling, maxFixedArrayLen)
		}
		elem, err := r.typeOf(spelling[:open], depth+1)
		if err != nil {
			return nil, err
		}
		t = &Type{Kind: FixedArray, Name: spelling, Elem: elem, Len: n}
	case IsBuiltin(spelling):
		t = &Type{Kind: Builtin, Name: spelling}
	default:
		if _, ok := r.typedefs[spelling]; ok {
			if at := r.resolveTypedef(spelling); at != nil {
				return at, nil
			}
			return nil, errReported
		}
		if _, ok := r.structs[spelling]; ok {
			t = &Type{Kind: StructKind, Name: spelling}
			r.types[spelling] = t
			t.Struct = r.structFor(spelling)
			return t, nil
		}
		if _, ok := r.variants[spelling]; ok {
			t = &Type{Kind: VariantKind, Name: spelling}
			r.types[spelling] = t
			t.Variant = r.variantFor(spelling)
			return t, nil
		}
		return nil, fmt.Errorf("unknown type %q", spelling)
	}
	r.types[spelling] = t
	return t, nil
}

// structFor resolves a struct once; recursion through its own fields finds
// the (partly filled) *Struct in r.resolved.
func (r *resolver) structFor(name string) *Struct {
	if s := r.resolved[name]; s != nil {
		return s
	}
	i := r.structs[name]
	sd := r.abi.Structs[i]
	where := fmt.Sprintf("structs[%d] %q", i, name)
	s := &Struct{Name: name}
	r.resolved[name] = s
	if sd.Base != "" {
		s.Base = r.baseOf(s, sd.Base, where)
	}
	seen := map[string]bool{}
	if s.Base != nil {
		for _, bf := range s.Base.AllFields() {
			seen[bf.Name] = true
		}
	}
	firstExt := ""
	for _, fd := range sd.Fields {
		fwhere := fmt.Sprintf("%s field %q", where, fd.Name)
		if seen[fd.Name] {
			r.errorf("%s: duplicate field name (in the struct or its base)", fwhere)
			continue
		}
		seen[fd.Name] = true
		spelling, ext := strings.CutSuffix(fd.Type, "$")
		if ext && firstExt == "" {
			firstExt = fd.Name
		}
		if !ext && firstExt != "" {
			r.errorf("%s: follows the binary-extension field %q but is not one itself (its type needs a trailing $)", fwhere, firstExt)
		}
		t, err := r.typeOf(spelling, 0)
		if err != nil {
			r.report(fwhere, err)
			continue
		}
		s.Fields = append(s.Fields, &Field{Name: fd.Name, Type: t, Extension: ext})
	}
	return s
}

func (r *resolver) baseOf(s *Struct, base, where string) *Struct {
	t, err := r.typeOf(base, 0)
	if err != nil {
		r.report(where+": base", err)
		return nil
	}
	rt := t.Resolved()
	if rt.Kind != StructKind {
		r.errorf("%s: base %q is not a struct", where, base)
		return nil
	}
	for b := rt.Struct; b != nil; b = b.Base {
		if b == s {
			r.errorf("%s: base %q leads back to %q (a base cycle)", where, base, s.Name)
			return nil
		}
	}
	return rt.Struct
}

func (r *resolver) variantFor(name string) *Variant {
	if v := r.vars[name]; v != nil {
		return v
	}
	i := r.variants[name]
	vd := r.abi.Variants[i]
	where := fmt.Sprintf("variants[%d] %q", i, name)
	v := &Variant{Name: name}
	r.vars[name] = v
	if len(vd.Types) == 0 {
		r.errorf("%s: a variant needs at least one type", where)
	}
	seen := map[string]bool{}
	for j, spelling := range vd.Types {
		if seen[spelling] {
			r.errorf("%s: types[%d] %q is listed twice; JSON could not tell them apart", where, j, spelling)
			continue
		}
		seen[spelling] = true
		t, err := r.typeOf(spelling, 0)
		if err != nil {
			r.report(fmt.Sprintf("%s: types[%d]", where, j), err)
			continue
		}
		v.Members = append(v.Members, t)
	}
	return v
}

func validName(s string) error {
	_, err := antelope.ParseName(s)
	return err
}

func (r *resolver) actions() []*Action {
	var out []*Action
	seen := map[string]bool{}
	for i, ad := range r.abi.Actions {
		where := fmt.Sprintf("actions[%d] %q", i, ad.Name)
		if err := validName(ad.Name); err != nil || ad.Name == "" {
			r.errorf("%s: not a valid action name (1 to 13 characters of .12345a-z)", where)
			continue
		}
		if seen[ad.Name] {
			r.errorf("%s: duplicate action", where)
			continue
		}
		seen[ad.Name] = true
		t, err := r.typeOf(ad.Type, 0)
		if err != nil {
			r.report(where, err)
			continue
		}
		out = append(out, &Action{Name: ad.Name, Type: t, Ricardian: ad.RicardianContract})
	}
	return out
}

func (r *resolver) tables(m *Model) []*Table {
	var out []*Table
	seen := map[string]bool{}
	for i, td := range r.abi.Tables {
		where := fmt.Sprintf("tables[%d] %q", i, td.Name)
		// Table names are not checked against the name alphabet: ABIs that
		// live off chain (the state-history ABI) use longer ones, and only
		// the text is used.
		if td.Name == "" {
			r.errorf("tables[%d]: empty table name", i)
			continue
		}
		if err := validName(td.Name); err != nil && !r.opts.OffChain {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s: not a valid name, so nodeos could not load this ABI on chain (kept; --off-chain says the ABI is meant for off chain, as state history's is)", where))
		}
		if seen[td.Name] {
			r.errorf("%s: duplicate table", where)
			continue
		}
		seen[td.Name] = true
		t, err := r.typeOf(td.Type, 0)
		if err != nil {
			r.report(where, err)
			continue
		}
		out = append(out, &Table{Name: td.Name, IndexType: td.IndexType, KeyNames: td.KeyNames, KeyTypes: td.KeyTypes, Type: t})
	}
	return out
}

func (r *resolver) actionResults() []*ActionResult {
	var out []*ActionResult
	seen := map[string]bool{}
	for i, ar := range r.abi.ActionResults {
		where := fmt.Sprintf("action_results[%d] %q", i, ar.Name)
		if err := validName(ar.Name); err != nil || ar.Name == "" {
			r.errorf("%s: not a valid action name", where)
			continue
		}
		if seen[ar.Name] {
			r.errorf("%s: duplicate action result", where)
			continue
		}
		seen[ar.Name] = true
		t, err := r.typeOf(ar.ResultType, 0)
		if err != nil {
			r.report(where, err)
			continue
		}
		out = append(out, &ActionResult{Name: ar.Name, Type: t})
	}
	return out
}

func (r *resolver) errorCodes() {
	seen := map[ErrorCode]int{}
	for i, em := range r.abi.ErrorMessages {
		if j, ok := seen[em.Code]; ok {
			r.errorf("error_messages[%d]: code %d already used by error_messages[%d]", i, em.Code, j)
			continue
		}
		seen[em.Code] = i
	}
}

// checkFiniteSize rejects a struct that contains itself by value (through
// fields, its base, fixed arrays or extensions, not through an array or an
// optional): no value of it could be written down, in binary or in Go.
func (r *resolver) checkFiniteSize(m *Model) {
	state := map[*Struct]int{} // 0 unvisited, 1 on the path, 2 done
	var visit func(s *Struct, path []string) bool
	var visitType func(t *Type, path []string) bool
	visitType = func(t *Type, path []string) bool {
		t = t.Resolved()
		switch t.Kind {
		case StructKind:
			return visit(t.Struct, path)
		case FixedArray:
			if t.Len == 0 {
				return false
			}
			return visitType(t.Elem, path)
		}
		return false // builtins, arrays, optionals and variants break the chain
	}
	visit = func(s *Struct, path []string) bool {
		switch state[s] {
		case 1:
			r.errorf("struct %q contains itself without an array or optional in between (%s)", s.Name, strings.Join(append(path, s.Name), " → "))
			return true
		case 2:
			return false
		}
		state[s] = 1
		path = append(path, s.Name)
		if s.Base != nil && visit(s.Base, path) {
			return true
		}
		for _, f := range s.Fields {
			if visitType(f.Type, path) {
				return true
			}
		}
		state[s] = 2
		return false
	}
	for _, s := range m.Structs {
		if visit(s, nil) {
			return
		}
	}
}

// computeExtensionTails marks the structs and variants whose encoding may
// stop early, to a fixed point (types may be recursive). Binary extensions
// may be left out at the end of the outermost value and, recursively, of its
// last field, through variants (nodeos passes the permission on to a
// variant's value), never through arrays; optionals are not followed.
func computeExtensionTails(m *Model) {
	for changed := true; changed; {
		changed = false
		for _, s := range m.Structs {
			if s.ExtensionTail {
				continue
			}
			for _, f := range s.Fields {
				if f.Extension {
					s.ExtensionTail = true
				}
			}
			if n := len(s.Fields); n > 0 && canEndEarly(s.Fields[n-1].Type) {
				s.ExtensionTail = true
			}
			changed = changed || s.ExtensionTail
		}
		for _, v := range m.Variants {
			if v.ExtensionTail {
				continue
			}
			for _, t := range v.Members {
				if canEndEarly(t) {
					v.ExtensionTail = true
				}
			}
			changed = changed || v.ExtensionTail
		}
	}
}

func canEndEarly(t *Type) bool {
	t = t.Resolved()
	return t.Kind == StructKind && t.Struct.ExtensionTail || t.Kind == VariantKind && t.Variant.ExtensionTail
}
