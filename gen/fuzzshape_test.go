package gen

import (
	"crypto/sha256"
	"go/scanner"
	"go/token"
	"go/types"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Type-checking a generated package takes several times as long as
// generating it, so FuzzGenerate type-checks a package only when its shape
// is new: its Go tokens with comments left out, string literals emptied
// (import paths kept), integers kept as the smallest Go integer type they fit, and every
// identifier the package itself names (an ABI's names end up there)
// replaced by the order in which it first appears. Two packages of the same
// shape are the same program up to a one-to-one renaming of their own
// identifiers, and differ only in texts and in constants of the same size,
// which type-checks the same. Identifiers whose spelling means something
// on its own stay as written: Go's predeclared names, init, main and _,
// and everything the imported packages export (their names, and their
// types' fields and methods, which the generated code reaches or
// implements). A name the ABI gives that collides with one of those, or
// with another, changes the shape and is type-checked.

// shapes remembers the shapes that type-checked, and what the packages
// imported by them export.
type shapes struct {
	mu      sync.Mutex
	checked map[[sha256.Size]byte]bool
	exports map[string]map[string]bool // by import path
}

var seenShapes = &shapes{checked: map[[sha256.Size]byte]bool{}, exports: map[string]map[string]bool{}}

// maxShapes bounds the memory a long fuzzing run spends on shapes.
const maxShapes = 1 << 16

// universal are the identifiers meaningful whatever the package declares.
var universal = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"init": true, "main": true, "_": true}
	for _, n := range types.Universe.Names() {
		m[n] = true
	}
	return m
})

// shapeOf returns the shape of the .go files, and false if a file imports a
// package whose exports are not known yet (no package importing it has
// been type-checked): then the shape cannot tell its names apart.
func (s *shapes) shapeOf(files map[string][]byte) ([sha256.Size]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	known := true
	h := sha256.New()
	for _, w := range s.words(files, &known) {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum, known
}

// words are the shape's tokens, in order; known is cleared if an import's
// exports are unknown. s.mu is held.
func (s *shapes) words(files map[string][]byte, known *bool) []string {
	names := goFiles(files)
	var out []string
	own := map[string]int{}
	for _, n := range names {
		out = append(out, "file "+n)
		src := files[n]
		fset := token.NewFileSet()
		var sc scanner.Scanner
		sc.Init(fset.AddFile(n, -1, len(src)), src, nil, 0)
		var imports []string
		inImport, depth := false, 0
		for {
			_, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			word := tok.String()
			switch tok {
			case token.IMPORT:
				inImport = true
			case token.LPAREN:
				if inImport {
					depth++
				}
			case token.RPAREN:
				if inImport {
					if depth--; depth == 0 {
						inImport = false
					}
				}
			case token.STRING:
				if inImport {
					word = lit
					path, _ := strconv.Unquote(lit)
					imports = append(imports, path)
					if depth == 0 {
						inImport = false
					}
				} else {
					word = `""`
				}
			case token.INT:
				v, ok := new(big.Int).SetString(strings.ReplaceAll(lit, "_", ""), 0)
				if ok {
					word = "int" + strconv.Itoa(sizeClass(v.BitLen()))
				} else {
					word = lit
				}
			case token.FLOAT, token.IMAG, token.CHAR:
				word = lit
			case token.IDENT:
				if universal()[lit] || s.exported(lit, imports) {
					word = lit
				} else {
					if _, ok := own[lit]; !ok {
						own[lit] = len(own)
					}
					word = "$" + strconv.Itoa(own[lit])
				}
			}
			if tok == token.SEMICOLON && lit == "\n" {
				word = ";"
			}
			out = append(out, word)
		}
		for _, path := range imports {
			if s.exports[path] == nil {
				*known = false
			}
		}
	}
	return out
}

// sizeClass is the smallest width of a Go integer type, signed (one bit
// less) or not, that holds a constant of bits bits: constants of one class
// fit the same types.
func sizeClass(bits int) int {
	for _, w := range []int{0, 7, 8, 15, 16, 31, 32, 63, 64} {
		if bits <= w {
			return w
		}
	}
	return bits
}

// exported reports whether name is exported by one of the imports (an
// identifier before the import declaration ends is the package clause's).
func (s *shapes) exported(name string, imports []string) bool {
	for _, path := range imports {
		if s.exports[path][name] {
			return true
		}
	}
	return false
}

// seen reports whether a package of this shape type-checked.
func (s *shapes) seen(sum [sha256.Size]byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.checked[sum]
}

// add records a shape that type-checked.
func (s *shapes) add(sum [sha256.Size]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.checked) >= maxShapes {
		clear(s.checked)
	}
	s.checked[sum] = true
}

// learnImports records what the packages pkg imports export.
func (s *shapes) learnImports(pkg *types.Package) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, imp := range pkg.Imports() {
		if s.exports[imp.Path()] == nil {
			s.exports[imp.Path()] = exportedNames(imp)
		}
	}
}

// exportedNames are the names pkg declares at package level, and the fields
// and methods of its types.
func exportedNames(pkg *types.Package) map[string]bool {
	m := map[string]bool{pkg.Name(): true}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		m[n] = true
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		t := tn.Type()
		for _, ms := range []*types.MethodSet{types.NewMethodSet(t), types.NewMethodSet(types.NewPointer(t))} {
			for i := range ms.Len() {
				m[ms.At(i).Obj().Name()] = true
			}
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				m[u.Field(i).Name()] = true
			}
		case *types.Interface:
			for i := range u.NumMethods() {
				m[u.Method(i).Name()] = true
			}
		}
	}
	return m
}

// goFiles are the names of the .go files, sorted.
func goFiles(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		if strings.HasSuffix(n, ".go") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// TestShapes: renaming an ABI's own names (to names of the same size) or
// changing its texts keeps the shape; a name that collides with another,
// or with one the imports or Go predeclare, does not.
func TestShapes(t *testing.T) {
	abi := func(s, f, a string) []byte {
		return []byte(`{"version":"eosio::abi/1.1","structs":[{"name":"` + s + `","base":"","fields":[{"name":"` + f + `","type":"name"},{"name":"memo","type":"string"}]}],` +
			`"actions":[{"name":"` + a + `","type":"` + s + `","ricardian_contract":"` + a + ` pays"}]}`)
	}
	sh := &shapes{checked: map[[sha256.Size]byte]bool{}, exports: map[string]map[string]bool{}}
	shape := func(data []byte) [sha256.Size]byte {
		res, err := generateBytes(data, Options{Package: "fuzzed", Source: "fuzz"})
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := checker().check(res.Files)
		if err != nil {
			t.Fatal(err)
		}
		sh.learnImports(pkg)
		sum, known := sh.shapeOf(res.Files)
		if !known {
			t.Fatal("imports unknown after a type-check")
		}
		return sum
	}
	base := shape(abi("payment", "to", "pay"))
	if got := shape(abi("refund", "from", "zap")); got != base {
		t.Error("renaming the ABI's names changed the shape")
	}
	for _, c := range [][3]string{
		{"payment", "string", "pay"}, // a predeclared name
		{"decoder", "to", "pay"},     // antelope.Decoder
		{"payment", "to", "payment"}, // the action is named as its struct
	} {
		if shape(abi(c[0], c[1], c[2])) == base {
			t.Errorf("%v: same shape as without the collision", c)
		}
	}
}
