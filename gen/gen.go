package gen

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
	"github.com/antelopego/abigen/templates"
	"github.com/dave/jennifer/jen"
)

// Options control generation.
type Options struct {
	// Package is the Go package name. Required.
	Package string
	// Renames override Go names: "abi_name" for a struct, variant or
	// typedef, "struct.field" for a field, "action:name" for an action's
	// Contract method, "table:name" for a table variable.
	Renames map[string]string
	// Source is what the header names as the ABI's origin: a file path as
	// given, or a URL without credentials.
	Source string
}

// Result is what Generate produces.
type Result struct {
	// Files maps a file name to its contents: doc.go, types.go, actions.go,
	// tables.go, abi.go and abi.json.
	Files map[string][]byte
	// Notes are things the user may want to know, such as a name changed to
	// avoid a clash.
	Notes []string
}

// generator holds the state of one Generate call.
type generator struct {
	m    *model.Model
	src  *model.Source
	opts Options

	notes      []string
	hasAccount bool

	structNames   map[*model.Struct]string
	variantNames  map[*model.Variant]string
	variantIfaces map[*model.Variant]string
	memberNames   map[*model.Variant][]string
	aliasNames    map[*model.Alias]string
	fieldNames    map[*model.Field]string
	docs          map[*model.Struct]string

	actionConsts    map[*model.Action]string
	contractMethods map[*model.Action]string
	actionValues    map[*model.Action]string
	tableVars       map[*model.Table]string
	actionsVar      string // the Actions descriptor variable, when there are actions
	tableValues     map[*model.Table]string
	resultValues    map[*model.ActionResult]string
	errorConsts     map[uint64]string
	tableMethods    map[*model.Table]string        // Contract's typed table accessors
	resultMethods   map[*model.ActionResult]string // Contract's typed result readers
	resultActions   map[*model.ActionResult]*model.Action
	indexOptions    map[*model.Table][]indexOption // typed secondary-index ranges

	recursion map[any]bool // see recursive

	helpers     map[string]*helper
	helperNames map[string]bool
	helperOrder []*helper
}

// Generate returns the files of the Go package for m. src supplies the
// embedded ABI JSON and the provenance; it is deterministic: the same input
// always gives the same bytes.
func Generate(m *model.Model, src *model.Source, opts Options) (*Result, error) {
	if !isPackageName(opts.Package) {
		return nil, fmt.Errorf("invalid package name %q: use a lower-case Go identifier such as %q", opts.Package, "randcontract")
	}
	g := &generator{m: m, src: src, opts: opts,
		structNames: map[*model.Struct]string{}, variantNames: map[*model.Variant]string{},
		variantIfaces: map[*model.Variant]string{}, memberNames: map[*model.Variant][]string{},
		aliasNames: map[*model.Alias]string{}, fieldNames: map[*model.Field]string{}, docs: map[*model.Struct]string{},
		actionConsts: map[*model.Action]string{}, contractMethods: map[*model.Action]string{},
		actionValues: map[*model.Action]string{}, tableVars: map[*model.Table]string{},
		tableValues: map[*model.Table]string{}, resultValues: map[*model.ActionResult]string{},
		errorConsts: map[uint64]string{}, recursion: map[any]bool{}, helpers: map[string]*helper{}, helperNames: map[string]bool{},
		tableMethods: map[*model.Table]string{}, resultMethods: map[*model.ActionResult]string{},
		resultActions: map[*model.ActionResult]*model.Action{}, indexOptions: map[*model.Table][]indexOption{}}
	if src.Account != "" {
		if _, err := antelope.ParseName(src.Account); err == nil {
			g.hasAccount = true
		}
	}
	if err := checkLimits(m); err != nil {
		return nil, err
	}
	if err := g.assignNames(); err != nil {
		return nil, err
	}
	g.structDocs()

	files := map[string]*jen.File{
		"doc.go":     g.docFile(),
		"types.go":   g.typesFile(),
		"actions.go": g.actionsFile(),
		"tables.go":  g.tablesFile(),
		"abi.go":     g.abiFile(),
	}
	header, err := g.header()
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{"abi.json": append(bytes.TrimRight(src.JSON, "\n"), '\n')}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := files[n]
		for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
			if line == "" {
				f.HeaderComment("//")
			} else {
				f.HeaderComment(line)
			}
		}
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			return nil, fmt.Errorf("gen: %s: %v (this is a bug in abigen; please report it with the ABI)", n, err)
		}
		formatted, err := formatSource(n, buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("gen: formatting %s: %v (this is a bug in abigen; please report it with the ABI)", n, err)
		}
		out[n] = formatted
	}
	return &Result{Files: out, Notes: g.notes}, nil
}

// MaxStructFields is the most fields, its bases' included, that a struct may
// have. Every field adds code to one Go function per codec, and the Go
// compiler's time grows with the square of a function's length: 1,000
// fields build in about 7 s, 2,000 in 24 s, 10,000 in well over 5 minutes
// and gigabytes. Real contracts stay far below it (the largest struct of
// eosio.system has about 30 fields), so a struct beyond it is refused
// rather than handed to go build.
const MaxStructFields = 1024

func checkLimits(m *model.Model) error {
	for _, s := range m.Structs {
		if n := len(s.AllFields()); n > MaxStructFields {
			return fmt.Errorf("struct %s has %d fields, more than the %d abigen generates code for (the Go compiler would take minutes on such long functions)",
				strconv.Quote(s.Name), n, MaxStructFields)
		}
	}
	return nil
}

func isPackageName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return !goKeywords[s]
}

var goKeywords = map[string]bool{"break": true, "case": true, "chan": true, "const": true, "continue": true,
	"default": true, "defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true,
	"goto": true, "if": true, "import": true, "interface": true, "map": true, "package": true, "range": true,
	"return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true}

func (g *generator) newFile() *jen.File {
	f := jen.NewFile(g.opts.Package)
	f.ImportName(rt, "antelope")
	f.NoFormat = true // imports.Process formats it, once
	return f
}

func (g *generator) header() (string, error) {
	h := templates.Header{
		Source:   commentText(g.opts.Source, 200),
		Account:  commentText(g.src.Account, 20),
		BlockNum: g.src.BlockNum,
		HasBlock: g.src.HasBlock,
		Version:  commentText(g.m.Version, 40),
		SHA256:   g.src.SHA256(),
	}
	if h.Source == "" {
		h.Source = "(not given)"
	}
	return templates.RenderHeader(h)
}

func (g *generator) docFile() *jen.File {
	f := g.newFile()
	p := templates.Package{Package: g.opts.Package, Structs: len(g.m.Structs), Variants: len(g.m.Variants),
		Aliases: len(g.m.Aliases), Actions: len(g.m.Actions), Tables: len(g.m.Tables), Results: len(g.m.ActionResults)}
	if g.hasAccount {
		p.Account = g.src.Account
	}
	for _, c := range g.m.Clauses {
		line := commentText(c.ID, 60)
		if body := firstLine(c.Body); body != "" {
			line += ": " + commentText(body, 160)
		}
		p.Clauses = append(p.Clauses, line)
	}
	text, err := templates.RenderPackage(p)
	if err != nil {
		panic(err) // the templates are embedded and tested; failure is a programming error
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			f.PackageComment("//")
		} else {
			f.PackageComment(line)
		}
	}
	return f
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "#")); l != "" {
			return l
		}
	}
	return ""
}

func (g *generator) typesFile() *jen.File {
	f := g.newFile()
	for _, a := range g.m.Aliases {
		g.emitAlias(f, a)
	}
	for _, s := range g.m.Structs {
		g.emitStruct(f, s)
	}
	for _, v := range g.m.Variants {
		g.emitVariant(f, v)
	}
	for _, a := range g.m.Actions {
		if n := g.actionValues[a]; n != "" {
			g.emitValueType(f, n, a.Type, "the data of the action "+a.Name)
		}
	}
	for _, t := range g.m.Tables {
		if n := g.tableValues[t]; n != "" {
			g.emitValueType(f, n, t.Type, "a row of the table "+commentText(t.Name, 80))
		}
	}
	for _, r := range g.m.ActionResults {
		if n := g.resultValues[r]; n != "" {
			g.emitValueType(f, n, r.Type, "the value the action "+r.Name+" returns")
		}
	}
	g.emitNewValue(f)
	g.emitHelpers(f)
	return f
}

// structDocs gives the struct of each action a doc line from its ricardian
// contract.
func (g *generator) structDocs() {
	for _, a := range g.m.Actions {
		t := a.Type.Resolved()
		if t.Kind != model.StructKind {
			continue
		}
		title, summary := ricardianSummary(a.Ricardian)
		line := "It is the data of the action " + a.Name + "."
		if s := joinNonEmpty(title, summary); s != "" {
			line += "\n" + s
		}
		if prev := g.docs[t.Struct]; prev != "" {
			line = prev + "\n" + line
		}
		g.docs[t.Struct] = line
	}
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

func itoa(i int) string { return strconv.Itoa(i) }

// docComment writes text as // comment lines (jennifer would use /* */ for
// a multi-line string). Blank lines become a bare //.
func docComment(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			f.Comment("//")
		} else {
			f.Comment(line)
		}
	}
}

func docCommentf(f *jen.File, format string, args ...any) {
	docComment(f, fmt.Sprintf(format, args...))
}
