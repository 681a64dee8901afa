package docsnippets

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Snippet is one ```go block of a Markdown file.
type Snippet struct {
	File string // the Markdown file, relative to the repository root
	Line int    // the line of the block's first code line
	Code string // the block's text
}

// Find returns the ```go blocks of README.md and docs/*.md under root.
func Find(root string) ([]Snippet, error) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var out []Snippet
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		s, err := findIn(f, filepath.ToSlash(rel))
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	return out, nil
}

func findIn(path, rel string) ([]Snippet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Snippet
	var cur *Snippet
	var inOther bool
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case cur != nil && trimmed == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.Code += line + "\n"
		case inOther && strings.HasPrefix(trimmed, "```"):
			inOther = false
		case !inOther && trimmed == "```go":
			cur = &Snippet{File: rel, Line: n + 1}
		case !inOther && strings.HasPrefix(trimmed, "```"):
			inOther = true
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: the go block does not end", rel, cur.Line)
	}
	return out, sc.Err()
}

// Imports are the packages every fragment may use, by the name it uses.
var Imports = map[string]string{
	"context":      "context",
	"json":         "encoding/json",
	"errors":       "errors",
	"fmt":          "fmt",
	"httptest":     "net/http/httptest",
	"os":           "os",
	"testing":      "testing",
	"time":         "time",
	"antelope":     "github.com/antelopego/abigen/antelope",
	"chain":        "github.com/antelopego/abigen/chain",
	"state":        "github.com/antelopego/abigen/chain/state",
	"chaintest":    "github.com/antelopego/abigen/chain/chaintest",
	"ship":         "github.com/antelopego/abigen/ship",
	"powerup":      "github.com/antelopego/abigen/powerup",
	"model":        "github.com/antelopego/abigen/model",
	"abicodec":     "github.com/antelopego/abigen/abicodec",
	"randcontract": "github.com/antelopego/abigen/generated/randcontract",
	"eosiotoken":   "github.com/antelopego/abigen/generated/eosiotoken",
	"hyperion":     "github.com/antelopego/abigen/ship/hyperion",
	"mirror":       "github.com/antelopego/abigen/ship/mirror",
	"sql":          "database/sql",
}

// Ambient are the names the guides' prose introduces and their snippets use
// without declaring, with their types.
var Ambient = map[string]string{
	"ctx":                     "context.Context",
	"t":                       "*testing.T",
	"me":                      "antelope.Name",
	"alice":                   "antelope.Name",
	"h":                       "*hyperion.Client",
	"shipURL":                 "string",
	"handle":                  "func(ship.ActionEvent[eosiotoken.Transfer])",
	"you":                     "antelope.Name",
	"shop":                    "antelope.Name",
	"token":                   "antelope.Name",
	"tokenAcct":               "antelope.Name",
	"dapp":                    "antelope.Name",
	"funder":                  "antelope.Name",
	"user":                    "antelope.Name",
	"payer":                   "antelope.Name",
	"receiver":                "antelope.Name",
	"mine":                    "antelope.Name",
	"scope":                   "antelope.Name",
	"act":                     "antelope.Action",
	"auth":                    "antelope.PermissionLevel",
	"q":                       "antelope.Asset",
	"price":                   "antelope.Asset",
	"v":                       "uint64",
	"n":                       "uint32",
	"m":                       "uint32",
	"first":                   "uint32",
	"data":                    "[]byte",
	"body":                    "[]byte",
	"chainID":                 "antelope.Checksum256",
	"lastIrreversibleBlockID": "antelope.Checksum256",
	"apiKey":                  "string",
	"baseURL":                 "string",
	"authURL":                 "string",
	"saved":                   "ship.Cursor",
	"userKey":                 "antelope.PrivateKey",
	"payKey":                  "antelope.PrivateKey",
	"funderKey":               "antelope.PrivateKey",
	"mypkg":                   "struct{ ABIJSON []byte }",
	"revert":                  "func([]ship.Position)",
	"c":                       "*chain.Client",
	"node":                    "*chaintest.Chain",
	"client":                  "*chain.Client",
	"stream":                  "ship.Stream",
	"amount":                  "antelope.Asset",
	"balances":                "map[antelope.Name]antelope.Asset",
	"credit":                  "func(antelope.Name, antelope.Asset)",
	"save":                    "func(...any)",
}

// elidedBody is "{ … }" (a body left out), elidedValue "{…}" (a composite
// literal's fields left out).
var (
	elidedBody  = regexp.MustCompile(`\{ …[^{}\n]*\}`)
	elidedValue = regexp.MustCompile(`\{…\}`)
)

// fragmentFunc names the function Source wraps a fragment's statements in.
const fragmentFunc = "_fragment"

// elidedPanic is what an elided body becomes.
const elidedPanic = `{ panic("elided") }`

// Source returns snip as a Go file, with //line directives that point back
// at the Markdown.
func Source(snip Snippet) string {
	code := elidedBody.ReplaceAllString(snip.Code, elidedPanic)
	code = elidedValue.ReplaceAllString(code, "{}")
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "…") {
			lines[i] = "// " + l
		}
	}
	code = strings.Join(lines, "\n")
	at := fmt.Sprintf("//line %s:%d\n", snip.File, snip.Line)
	if strings.HasPrefix(code, "package ") {
		return at + code
	}
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	names := make([]string, 0, len(Imports))
	for n := range Imports {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s %q\n", n, Imports[n])
	}
	b.WriteString(")\n\n")
	if _, err := parser.ParseFile(token.NewFileSet(), "", b.String()+code, parser.SkipObjectResolution); err == nil {
		return b.String() + at + code // declarations only
	}
	used, declared := names2(code)
	b.WriteString("func " + fragmentFunc + "() error {\n")
	for _, n := range used {
		if typ := Ambient[n]; typ != "" && !declared[n] {
			fmt.Fprintf(&b, "\tvar %s %s\n\t_ = %s\n", n, typ, n)
		}
	}
	b.WriteString(at)
	b.WriteString(code)
	b.WriteString("\nreturn nil\n}\n")
	return b.String()
}

// names2 lists the identifiers a fragment uses and the set it declares
// (with :=, var, const, type, or in a range clause).
func names2(code string) (used []string, declared map[string]bool) {
	declared = map[string]bool{}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+code+"\n}\n", parser.SkipObjectResolution)
	if f == nil {
		return nil, declared
	}
	_ = err // a fragment that does not parse fails in the type check, with its position
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if !seen[n.Name] {
				seen[n.Name] = true
				used = append(used, n.Name)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						declared[id.Name] = true
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						declared[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declared[id.Name] = true
			}
		case *ast.TypeSpec:
			declared[n.Name.Name] = true
		}
		return true
	})
	return used, declared
}
