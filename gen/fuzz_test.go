package gen

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/imports"
)

// typeChecker type-checks generated packages in process, against the
// runtime's source, so a fuzz target can check thousands of them without
// running the compiler. The importer caches what it has loaded.
type typeChecker struct {
	mu   sync.Mutex
	fset *token.FileSet
	imp  types.Importer
}

var checker = sync.OnceValue(func() *typeChecker {
	fset := token.NewFileSet()
	return &typeChecker{fset: fset, imp: importer.ForCompiler(fset, "source", nil)}
})

// check parses and type-checks the .go files of one generated package.
func (c *typeChecker) check(files map[string][]byte) (*types.Package, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parsed []*ast.File
	for _, n := range goFiles(files) {
		f, err := parser.ParseFile(c.fset, n, files[n], parser.ParseComments)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, f)
	}
	conf := types.Config{Importer: c.imp}
	return conf.Check(parsed[0].Name.Name, c.fset, parsed, nil)
}

// FuzzGenerate: on any input the model accepts, Generate does not panic,
// and what it returns parses, type-checks and is formatted as
// imports.Process formats it. Inputs the model refuses are FuzzLoad's
// concern.
//
// Type-checking a generated package and formatting it again took three
// times as long as generating it, and formatting is three quarters of
// generating (tens of kilobytes of Go through go/parser and go/printer):
// an input the model accepted cost some 20 ms, then 7 ms, and the target
// ran at 500 a second on CI (#31). Both checks, and formatting, depend only
// on the package's shape (fuzzshape_test.go: the same program up to a
// renaming of its own names, texts and constants of the same size), and
// the shape is the same before formatting as after (go/format changes
// layout, not tokens; the shape counts every statement's end, so both
// parse to the same tree). So the target renders the package, takes the
// shape of the unformatted files, and stops there if it is a shape already
// checked; only a new shape is formatted, as Generate formats it, and
// checked. Every seed's shape is checked in go test's own run. Generate is
// render then format, so what a known shape skips is go/format's work on a
// program it has formatted before under other names.
func FuzzGenerate(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "golden", "*", "input*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil && len(data) < 16<<10 {
			f.Add(data)
		}
	}
	// Type-check the runtime from source once, before any input: it takes
	// seconds, and inside the first input it made a worker on a loaded
	// machine look hung to the fuzz coordinator.
	if _, err := checker().imp.Import("github.com/antelopego/abigen/antelope"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(checkGenerate)
}

// checkGenerate is FuzzGenerate's check of one input.
func checkGenerate(t *testing.T, data []byte) {
	u, err := renderBytes(data, Options{Package: "fuzzed", Source: "fuzz"})
	if err != nil {
		if strings.Contains(err.Error(), "bug in abigen") {
			t.Fatal(err)
		}
		return // refused by the model (FuzzLoad's concern) or by a limit
	}
	raw := make(map[string][]byte, len(u.names))
	for i, n := range u.names {
		raw[n] = u.raw[i]
	}
	rawShape, rawKnown := seenShapes.shapeOf(raw)
	if rawKnown && seenShapes.seen(rawShape) {
		return
	}
	res, err := u.format()
	if err != nil {
		t.Fatal(err)
	}
	shape, known := seenShapes.shapeOf(res.Files)
	if known && seenShapes.seen(shape) {
		if rawKnown {
			seenShapes.add(rawShape)
		}
		return
	}
	pkg, err := checker().check(res.Files)
	if err != nil {
		t.Fatalf("generated code does not type-check: %v", err)
	}
	// formatSource must give what imports.Process gives: its output is
	// a fixed point of imports.Process.
	for n, src := range res.Files {
		if !strings.HasSuffix(n, ".go") {
			continue
		}
		again, err := imports.Process(n, src, &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
		if err != nil || !bytes.Equal(again, src) {
			t.Fatalf("%s is not as imports.Process formats it (%v)", n, err)
		}
	}
	if !known {
		seenShapes.learnImports(pkg)
		shape, _ = seenShapes.shapeOf(res.Files)
		rawShape, _ = seenShapes.shapeOf(raw)
	}
	seenShapes.add(shape)
	seenShapes.add(rawShape)
}
