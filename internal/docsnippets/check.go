package docsnippets

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// Check type-checks snip (as Source makes it a file) with imp resolving its
// imports, and returns the errors, each with its place in the Markdown.
//
// A name the snippet declares and never uses is an error, as it is to the
// compiler: a loop that drops its err, or a result read before its error
// is checked, is code a user must not copy. Two uses are the prose's and
// not the code's, and are not reported:
//   - a name the elided code may use: one declared by a statement whose
//     body is elided ("for row, err := range rows { … }"), or declared
//     before a "…" line of its own block;
//   - a name the fragment ends by declaring: its last statement, an
//     assignment or var, shows a call's results ("res, err := c.Transact(…)"), which the reader's own
//     code goes on to use.
//
// Only the imports Source adds to a fragment (all of Imports, each fragment
// using a few) may go unused; a whole file's own imports may not.
func Check(snip Snippet, imp types.Importer) []error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "snippet.go", Source(snip), parser.SkipObjectResolution|parser.ParseComments) // //line names the Markdown
	if err != nil {
		return []error{err}
	}
	var errs []error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok {
			switch {
			case strings.Contains(te.Msg, "imported and not used") && fset.Position(te.Pos).Filename != snip.File:
				return // an import Source added, before the //line directive
			case strings.HasPrefix(te.Msg, "declared and not used") && usedByProse(f, te.Pos):
				return
			}
		}
		errs = append(errs, err)
	}}
	conf.Check("snippet", fset, []*ast.File{f}, nil)
	return errs
}

// usedByProse reports whether the name declared at pos is one Check leaves
// to the prose: used by elided code, or shown by the fragment's last
// statement.
func usedByProse(f *ast.File, pos token.Pos) bool {
	path, _ := astutil.PathEnclosingInterval(f, pos, pos)
	var decl ast.Stmt
	var parent ast.Node
	for i, n := range path {
		if s, ok := n.(ast.Stmt); ok {
			decl = s
			if i+1 < len(path) {
				parent = path[i+1]
			}
			break
		}
	}
	if decl == nil {
		return false
	}
	// The statement's own body: a range's key and value, or an if's,
	// for's or switch's init.
	var body *ast.BlockStmt
	switch p := parent.(type) {
	case *ast.IfStmt:
		if p.Init == decl {
			body = p.Body
		}
	case *ast.ForStmt:
		if p.Init == decl {
			body = p.Body
		}
	case *ast.SwitchStmt:
		if p.Init == decl {
			body = p.Body
		}
	}
	if r, ok := decl.(*ast.RangeStmt); ok {
		body = r.Body
	}
	if body != nil && elidedIn(f, body, body.Lbrace) {
		return true
	}
	block, ok := parent.(*ast.BlockStmt)
	if !ok {
		return false
	}
	if elidedIn(f, block, decl.End()) {
		return true
	}
	// The fragment's last statement, before the "return nil" Source adds,
	// when it only declares (a loop's or an if's names have their own
	// code, its body).
	switch decl.(type) {
	case *ast.AssignStmt, *ast.DeclStmt:
	default:
		return false
	}
	for _, n := range path {
		if fd, ok := n.(*ast.FuncDecl); ok {
			l := fd.Body.List
			return fd.Name.Name == fragmentFunc && fd.Body == block && len(l) >= 2 && l[len(l)-2] == decl
		}
	}
	return false
}

// elidedIn reports whether code is left out of block after pos: the whole
// body ("{ … }", which Source makes a panic), or a "…" line directly in it.
func elidedIn(f *ast.File, block *ast.BlockStmt, after token.Pos) bool {
	if len(block.List) == 1 {
		if e, ok := block.List[0].(*ast.ExprStmt); ok {
			if call, ok := e.X.(*ast.CallExpr); ok && len(call.Args) == 1 {
				fn, _ := call.Fun.(*ast.Ident)
				arg, _ := call.Args[0].(*ast.BasicLit)
				if fn != nil && fn.Name == "panic" && arg != nil && arg.Value == `"elided"` {
					return true
				}
			}
		}
	}
	for _, g := range f.Comments {
		if g.Pos() <= after || g.End() >= block.Rbrace || !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(g.List[0].Text, "//")), "…") {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, g.Pos(), g.End())
		for _, n := range path {
			if b, ok := n.(*ast.BlockStmt); ok {
				if b == block {
					return true
				}
				break
			}
		}
	}
	return false
}
