package gen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antelopego/abigen/model"
)

// antelopeAPI lists the runtime's exported types, functions and the
// methods of its Decoder and JSONReader, from its source.
func antelopeAPI(t *testing.T) map[string]bool {
	t.Helper()
	names, err := filepath.Glob("../antelope/*.go")
	if err != nil {
		t.Fatal(err)
	}
	api := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						api["antelope."+ts.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					api[d.Name.Name] = true
					continue
				}
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					api[id.Name+"."+d.Name.Name] = true
				}
			}
		}
	}
	return api
}

// Every built-in type of the model has a Go mapping here, and what the
// mapping names exists in the runtime: the Go type, and the functions and
// methods generated code calls. A built-in added to model.BuiltinTypes
// fails here, by name, before any ABI reaches it.
func TestEveryBuiltinMapped(t *testing.T) {
	api := antelopeAPI(t)
	for _, name := range model.BuiltinTypes {
		bi, ok := builtins[name]
		if !ok || bi.goType == nil {
			t.Errorf("built-in %s: no Go mapping in gen/typemap.go", name)
			continue
		}
		need := []string{}
		goType := fmt.Sprintf("%#v", bi.goType())
		if !bi.plain {
			need = append(need, goType)
		}
		if bi.bin != "" {
			need = append(need, bi.bin)
		}
		if bi.dec != "" {
			need = append(need, "Decoder."+bi.dec)
		}
		if bi.decConv != "" {
			need = append(need, "Decoder."+bi.decConv)
		}
		if bi.json != "" {
			need = append(need, bi.json)
		}
		if bi.jdec != "" {
			need = append(need, "JSONReader."+bi.jdec)
		}
		if bi.plain && (bi.bin == "" || bi.dec == "" || bi.json == "" || bi.jdec == "") {
			t.Errorf("built-in %s: a plain Go type needs its Append, Decoder, JSON and JSONReader functions", name)
		}
		for _, n := range need {
			if !api[n] {
				t.Errorf("built-in %s: gen/typemap.go names %s, which package antelope does not have", name, n)
			}
		}
	}
	for name := range builtins {
		if !model.IsBuiltin(name) {
			t.Errorf("gen/typemap.go maps %s, which is not one of model.BuiltinTypes", name)
		}
	}
}

// A built-in type gen has no mapping for is an error that names it, not a
// panic.
func TestUnmappedBuiltinIsAnError(t *testing.T) {
	src, err := model.Load([]byte(`{"version":"eosio::abi/1.1","structs":[{"name":"s","base":"","fields":[{"name":"f","type":"uint64"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Resolve(src.ABI)
	if err != nil {
		t.Fatal(err)
	}
	m.Structs[0].Fields[0].Type = &model.Type{Kind: model.Builtin, Name: "uint256"} // a built-in of a future ABI version
	_, err = Generate(m, src, Options{Package: "x"})
	if err == nil || !strings.Contains(err.Error(), `built-in type "uint256" has no Go mapping`) {
		t.Errorf("got %v", err)
	}
}
