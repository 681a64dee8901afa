package abidiff

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/antelopego/abigen/model"
)

// The Go side: bindings generated from each ABI, their exported API read
// from the source, and every name user code could use that is gone or has
// another type — what stops compiling after regeneration.

// goAPI maps each exported name of a generated package ("type Transfer",
// "field Transfer.Memo", "func Contract.Transfer", "var TableAccounts") to
// its type or signature. Types are printed with the package's aliases
// resolved (a typedef becomes `type AmountT = uint64`), so that two
// spellings of the identical Go type compare equal: a field retyped from
// uint64 to AmountT changes nothing a caller writes.
func goAPI(files map[string][]byte) (map[string]string, error) {
	fset := token.NewFileSet()
	api := map[string]string{}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var parsed []*ast.File
	for _, name := range names {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, files[name], 0)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, f)
	}
	text := newAliasResolver(fset, packageAliases(parsed)).text
	for _, f := range parsed {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				key := "func " + d.Name.Name
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok {
						recv = star.X
					}
					key = "func " + text(recv) + "." + d.Name.Name
				}
				api[key] = signature(d.Type, text)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						st, isStruct := s.Type.(*ast.StructType)
						if s.Assign.IsValid() {
							api["type "+s.Name.Name] = "alias of " + text(s.Type)
							continue
						}
						if !isStruct {
							api["type "+s.Name.Name] = text(s.Type)
							continue
						}
						api["type "+s.Name.Name] = "struct"
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								if n.IsExported() {
									api["field "+s.Name.Name+"."+n.Name] = text(fl.Type)
								}
							}
							if len(fl.Names) == 0 { // embedded
								api["field "+s.Name.Name+"."+text(fl.Type)] = "embedded"
							}
						}
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							kind := "var "
							if d.Tok == token.CONST {
								kind = "const "
							}
							typ := ""
							if s.Type != nil {
								typ = text(s.Type)
							} else if i < len(s.Values) {
								if cl, ok := s.Values[i].(*ast.CompositeLit); ok {
									typ = text(cl.Type)
									// A variable of an unnamed struct type (the
									// generated Actions) is compared field by
									// field, as a named struct is: a new field
									// breaks no user code.
									if st, ok := cl.Type.(*ast.StructType); ok {
										typ = "struct"
										for _, fl := range st.Fields.List {
											for _, fn := range fl.Names {
												api["field "+n.Name+"."+fn.Name] = text(fl.Type)
											}
										}
									}
								}
							}
							api[kind+n.Name] = typ
						}
					}
				}
			}
		}
	}
	return api, nil
}

// packageAliases maps each alias the package declares (type A = T) to T,
// and the predeclared aliases byte and rune to uint8 and int32.
func packageAliases(files []*ast.File) map[string]ast.Expr {
	out := map[string]ast.Expr{"byte": ast.NewIdent("uint8"), "rune": ast.NewIdent("int32")}
	for _, f := range files {
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.GenDecl); ok && d.Tok == token.TYPE {
				for _, spec := range d.Specs {
					if s := spec.(*ast.TypeSpec); s.Assign.IsValid() && s.TypeParams == nil {
						out[s.Name.Name] = s.Type
					}
				}
			}
		}
	}
	return out
}

// aliasResolver prints type expressions with every use of an alias
// replaced by its target, recursively (an alias of an alias). Identifiers
// that are not type uses (a selector's name, a field or parameter name) are
// left alone. The expressions it prints are parsed anew into its own file
// set, so that what it splices together prints on one line.
type aliasResolver struct {
	fset     *token.FileSet // the generated files'
	own      *token.FileSet // the resolved expressions'
	aliases  map[string]ast.Expr
	resolved map[string]string // alias → its resolved text
	busy     map[string]bool   // aliases being resolved: a cycle, which Go rejects, stops here
}

func newAliasResolver(fset *token.FileSet, aliases map[string]ast.Expr) *aliasResolver {
	return &aliasResolver{fset: fset, own: token.NewFileSet(), aliases: aliases, resolved: map[string]string{}, busy: map[string]bool{}}
}

func print(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, fset, n)
	return b.String()
}

// text prints n, resolving aliases when n is a type expression.
func (r *aliasResolver) text(n ast.Node) string {
	s := print(r.fset, n)
	if _, ok := n.(ast.Expr); !ok {
		return s
	}
	return r.resolve(s)
}

// resolve returns the type expression src with its aliases resolved.
func (r *aliasResolver) resolve(src string) string {
	e, err := parser.ParseExprFrom(r.own, "", src, 0)
	if err != nil {
		return src
	}
	e = astutil.Apply(e, func(c *astutil.Cursor) bool {
		id, ok := c.Node().(*ast.Ident)
		if !ok {
			return true
		}
		if _, isSel := c.Parent().(*ast.SelectorExpr); isSel && c.Name() == "Sel" {
			return true
		}
		if _, isField := c.Parent().(*ast.Field); isField && c.Name() == "Names" {
			return true
		}
		if target, ok := r.alias(id.Name); ok {
			if t, err := parser.ParseExprFrom(r.own, "", target, 0); err == nil {
				c.Replace(t)
			}
		}
		return true
	}, nil).(ast.Expr)
	return print(r.own, e)
}

// alias returns the resolved text of the alias name, if it is one.
func (r *aliasResolver) alias(name string) (string, bool) {
	if s, ok := r.resolved[name]; ok {
		return s, true
	}
	target, ok := r.aliases[name]
	if !ok || r.busy[name] {
		return "", false
	}
	r.busy[name] = true
	s := r.resolve(print(r.fset, target))
	delete(r.busy, name)
	r.resolved[name] = s
	return s, true
}

// signature prints a function type by its parameter and result types only:
// the generated code names results in some functions and not others, which
// is no change to a caller.
func signature(ft *ast.FuncType, text func(ast.Node) string) string {
	list := func(fl *ast.FieldList) string {
		if fl == nil {
			return ""
		}
		var parts []string
		for _, f := range fl.List {
			n := max(len(f.Names), 1)
			for range n {
				parts = append(parts, text(f.Type))
			}
		}
		return strings.Join(parts, ", ")
	}
	s := "func(" + list(ft.Params) + ")"
	if r := list(ft.Results); r != "" {
		s += " (" + r + ")"
	}
	return s
}

func compareGo(old, new *model.Model, oldSrc, newSrc *model.Source) ([]Change, error) {
	// The account the bindings are generated for is not part of the ABI:
	// where only one side names it (a fetched ABI against a file), both
	// are generated with it.
	acct := newSrc.Account
	if acct == "" {
		acct = oldSrc.Account
	}
	o, n := *oldSrc, *newSrc
	o.Account, n.Account = acct, acct
	oldSrc, newSrc = &o, &n
	of, err := generate(old, oldSrc)
	if err != nil {
		return []Change{{BreaksGo, "Go bindings", "the old ABI cannot be generated: " + err.Error()}}, nil
	}
	nf, err := generate(new, newSrc)
	if err != nil {
		return []Change{{BreaksGo, "Go bindings", "the new ABI cannot be generated: " + err.Error()}}, nil
	}
	oa, err := goAPI(of)
	if err != nil {
		return nil, err
	}
	na, err := goAPI(nf)
	if err != nil {
		return nil, err
	}
	var out []Change
	added := 0
	for _, key := range sortedKeys(oa) {
		nt, ok := na[key]
		switch {
		case !ok:
			out = append(out, Change{BreaksGo, "Go: " + key, "removed"})
		case nt != oa[key]:
			out = append(out, Change{BreaksGo, "Go: " + key, "changed from " + oa[key] + " to " + nt})
		}
	}
	for key := range na {
		if _, ok := oa[key]; !ok {
			added++
		}
	}
	if added > 0 {
		out = append(out, Change{Compatible, "Go bindings", plural(added, "exported name") + " added"})
	}
	return out, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}
