package docsnippets

import (
	"go/types"
	"path"
	"strings"
	"testing"
)

// emptyImporter gives every import an empty package: the fragments below
// use none of what Source imports.
var emptyImporter = importerFunc(func(p string) (*types.Package, error) {
	pkg := types.NewPackage(p, path.Base(p))
	pkg.MarkComplete()
	return pkg, nil
})

// Check reports a name a snippet declares and never uses (an err a loop
// drops, a result read before its error is checked), and leaves the ones
// the prose uses: in elided code, or shown by the fragment's last
// statement.
func TestCheckUnused(t *testing.T) {
	for _, c := range []struct {
		code   string
		unused []string // the names reported, in order
	}{
		// The README tour that passed: a loop body that drops err.
		{"for i, err := range []error{nil} {\n\tprintln(i)\n}\n", []string{"err"}},
		{"n, err := 1, error(nil)\nprintln(n)\nm := 2\nprintln(m)\n", []string{"err"}},
		{"n, err := 1, error(nil)\nn, err = 2, nil\nprintln(n)\n", []string{"err"}},
		{"var x int\nprintln(1)\n", []string{"x"}},
		{"if x := 1; true {\n\tprintln(2)\n}\n", []string{"x"}},
		// An elision in a nested block is not where the name's own code is.
		{"x := 1\nif true { … }\nprintln(2)\n", []string{"x"}},
		{"func() {\n\ty := 1\n}()\n", []string{"y"}},
		// Used by the prose.
		{"n, err := 1, error(nil)\n", nil},
		{"println(1)\nn, err := 1, error(nil) // n is …\n", nil},
		{"for i, err := range []error{nil} { … i and err … }\n", nil},
		{"for i, err := range []error{nil} {\n\t… i and err …\n}\n", nil},
		{"x := 1\n… then x …\nprintln(2)\n", nil},
		{"if x := 1; true { … }\n", nil},
		{"n, err := 1, error(nil)\nif err != nil { return err }\nprintln(n)\n", nil},
	} {
		errs := Check(Snippet{File: "doc.md", Line: 10, Code: c.code}, emptyImporter)
		var got []string
		for _, e := range errs {
			te, ok := e.(types.Error)
			name, found := strings.CutPrefix(te.Msg, "declared and not used: ")
			if !ok || !found {
				t.Errorf("%q: %v", c.code, e)
				continue
			}
			if !strings.HasPrefix(e.Error(), "doc.md:") {
				t.Errorf("%q: %v does not point into the Markdown", c.code, e)
			}
			got = append(got, name)
		}
		if strings.Join(got, ",") != strings.Join(c.unused, ",") {
			t.Errorf("%q: reported %v unused, want %v", c.code, got, c.unused)
		}
	}
}

// A whole file's own unused import is reported; the imports Source adds to
// a fragment are not.
func TestCheckUnusedImports(t *testing.T) {
	if errs := Check(Snippet{File: "doc.md", Line: 1, Code: "println(1)\n"}, emptyImporter); len(errs) != 0 {
		t.Errorf("a fragment: %v", errs)
	}
	errs := Check(Snippet{File: "doc.md", Line: 1, Code: "package p\n\nimport \"strings\"\n"}, emptyImporter)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `"strings" imported and not used`) {
		t.Errorf("a whole file: %v", errs)
	}
}
