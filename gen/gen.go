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
	u, err := render(m, src, opts)
	if err != nil {
		return nil, err
	}
	return u.format()
}

// unformatted is a generated package before formatting, most of
// generation's time: raw[i] is the Go file names[i] as jennifer renders
// it, files the others. FuzzGenerate formats only a package whose shape it
// has not seen.
type unformatted struct {
	names []string
	raw   [][]byte
	files map[string][]byte
	notes []string
}

// format formats u's Go files into the Result.
func (u *unformatted) format() (*Result, error) {
	formatted, err := formatFiles(u.names, u.raw)
	if err != nil {
		return nil, err
	}
	for i, n := range u.names {
		u.files[n] = formatted[i]
	}
	return &Result{Files: u.files, Notes: u.notes}, nil
}

// render generates the package's files, its Go files unformatted.
func render(m *model.Model, src *model.Source, opts Options) (*unformatted, error) {
	if err := CheckPackageName(opts.Package); err != nil {
		return nil, fmt.Errorf("invalid package name %q: %v; use a lower-case Go identifier such as %q", opts.Package, err, "randcontract")
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
	if err := checkBuiltins(m); err != nil {
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
	raw := make([][]byte, len(names))
	for i, n := range names {
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
		raw[i] = buf.Bytes()
	}
	return &unformatted{names: names, raw: raw, files: out, notes: g.notes}, nil
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

func (g *generator) typesFile() *jen.File {
	f := g.newFile()
	for _, a := range g.m.Aliases {
		g.emitAlias(f, a)
	}
	for _, s := range g.m.Structs {
		splitPoint(f)
		g.emitStruct(f, s)
	}
	for _, v := range g.m.Variants {
		splitPoint(f)
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

func itoa(i int) string { return strconv.Itoa(i) }
