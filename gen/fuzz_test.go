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
	"sort"
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
func (c *typeChecker) check(files map[string][]byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, 0, len(files))
	for n := range files {
		if strings.HasSuffix(n, ".go") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var parsed []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(c.fset, n, files[n], parser.ParseComments)
		if err != nil {
			return err
		}
		parsed = append(parsed, f)
	}
	conf := types.Config{Importer: c.imp}
	_, err := conf.Check(parsed[0].Name.Name, c.fset, parsed, nil)
	return err
}

// FuzzGenerate: on any input the model accepts, Generate does not panic,
// and what it returns parses and type-checks. Inputs the model refuses are
// FuzzLoad's concern.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := generateBytes(data, Options{Package: "fuzzed", Source: "fuzz"})
		if err != nil {
			if strings.Contains(err.Error(), "bug in abigen") {
				t.Fatal(err)
			}
			return // refused by the model (FuzzLoad's concern) or by a limit
		}
		if err := checker().check(res.Files); err != nil {
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
	})
}
