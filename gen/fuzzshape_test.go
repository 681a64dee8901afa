package gen

import (
	"crypto/sha256"
	"go/scanner"
	"go/token"
	"go/types"
	"math/big"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Formatting and type-checking a generated package take several times as
// long as generating it, so FuzzGenerate formats and type-checks a package
// only when its shape is new: its Go tokens with comments left out, string
// literals emptied (import paths kept), integers kept as the smallest Go
// integer type they fit, every identifier the package itself names (an
// ABI's names end up there) replaced by the order in which it first
// appears, and which tokens begin a line. Two packages of the same shape
// are the same program up to a one-to-one renaming of their own
// identifiers, and differ only in texts and in constants of the same size,
// which type-checks the same; and laid out on the same lines, which
// go/format formats into the same tokens (it drops parentheses and adds
// trailing commas by the tree and the lines; the rest is spaces, which the
// shape does not see, and comments). Identifiers whose spelling means something
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
	buf     []byte                     // shapeOf's words, reused
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
// been type-checked): then the shape cannot tell its names apart; or if a
// file does not scan.
func (s *shapes) shapeOf(files map[string][]byte) ([sha256.Size]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	known := true
	s.buf = s.appendWords(s.buf[:0], files, &known)
	return sha256.Sum256(s.buf), known
}

// appendWords appends the shape's tokens, in order, each ended by a 0 byte;
// known is cleared if an import's exports are unknown. s.mu is held.
func (s *shapes) appendWords(out []byte, files map[string][]byte, known *bool) []byte {
	names := goFiles(files)
	own := map[string]int{}
	word := func(w string) { out = append(append(out, w...), 0) }
	for _, n := range names {
		word("file " + n)
		src := files[n]
		fset := token.NewFileSet()
		var sc scanner.Scanner
		// A file that does not scan has no shape: of unformatted files,
		// one that would not format is then formatted, and fails.
		file := fset.AddFile(n, -1, len(src))
		sc.Init(file, src, func(token.Position, string) { *known = false }, 0)
		var imports []string
		inImport, depth, line := false, 0, 0
		for {
			pos, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			if l := file.Line(pos); l != line {
				line = l
				word("\n")
			}
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
					word(lit)
					path, _ := strconv.Unquote(lit)
					imports = append(imports, path)
					if depth == 0 {
						inImport = false
					}
				} else {
					word(`""`)
				}
				continue
			case token.INT:
				if b, ok := intBits(lit); ok {
					out = append(strconv.AppendInt(append(out, "int"...), int64(sizeClass(b)), 10), 0)
				} else {
					word(lit)
				}
				continue
			case token.FLOAT, token.IMAG, token.CHAR:
				word(lit)
				continue
			case token.IDENT:
				if universal()[lit] || s.exported(lit, imports) {
					word(lit)
				} else {
					k, ok := own[lit]
					if !ok {
						k = len(own)
						own[lit] = k
					}
					out = append(strconv.AppendInt(append(out, '$'), int64(k), 10), 0)
				}
				continue
			case token.SEMICOLON:
				word(";") // written or inserted at a line's end alike
				continue
			}
			word(tok.String())
		}
		for _, path := range imports {
			if s.exports[path] == nil {
				*known = false
			}
		}
	}
	return out
}

// intBits is the bit length of an integer literal's value.
func intBits(lit string) (int, bool) {
	if v, err := strconv.ParseUint(lit, 0, 64); err == nil {
		return bits.Len64(v), true
	}
	v, ok := new(big.Int).SetString(strings.ReplaceAll(lit, "_", ""), 0)
	if !ok {
		return 0, false
	}
	return v.BitLen(), true
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
// changing its texts keeps the shape, of the formatted files and of the
// unformatted ones FuzzGenerate looks at first; a name that collides with
// another, or with one the imports or Go predeclare, changes both; and a
// file that does not scan has no shape.
func TestShapes(t *testing.T) {
	abi := func(s, f, a string) []byte {
		return []byte(`{"version":"eosio::abi/1.1","structs":[{"name":"` + s + `","base":"","fields":[{"name":"` + f + `","type":"name"},{"name":"memo","type":"string"}]}],` +
			`"actions":[{"name":"` + a + `","type":"` + s + `","ricardian_contract":"` + a + ` pays"}]}`)
	}
	sh := &shapes{checked: map[[sha256.Size]byte]bool{}, exports: map[string]map[string]bool{}}
	type both struct{ formatted, raw [sha256.Size]byte }
	shape := func(data []byte) both {
		u, err := renderBytes(data, Options{Package: "fuzzed", Source: "fuzz"})
		if err != nil {
			t.Fatal(err)
		}
		raw := map[string][]byte{}
		for i, n := range u.names {
			raw[n] = u.raw[i]
		}
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
		rawSum, rawKnown := sh.shapeOf(raw)
		if !known || !rawKnown {
			t.Fatal("imports unknown after a type-check")
		}
		return both{sum, rawSum}
	}
	base := shape(abi("payment", "to", "pay"))
	if got := shape(abi("refund", "from", "zap")); got != base {
		t.Errorf("renaming the ABI's names changed the shape: %v", got != base)
	}
	for _, c := range [][3]string{
		{"payment", "string", "pay"}, // a predeclared name
		{"decoder", "to", "pay"},     // antelope.Decoder
		{"payment", "to", "payment"}, // the action is named as its struct
	} {
		got := shape(abi(c[0], c[1], c[2]))
		if got.formatted == base.formatted || got.raw == base.raw {
			t.Errorf("%v: same shape as without the collision", c)
		}
	}
	if _, known := sh.shapeOf(map[string][]byte{"a.go": []byte("package p\nvar s = \"unterminated\n")}); known {
		t.Error("a file that does not scan has a shape")
	}
}
