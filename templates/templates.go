package templates

import (
	"bytes"
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var all = template.Must(template.New("").ParseFS(files, "*.tmpl"))

// Header holds the provenance of a generated package.
type Header struct {
	Source   string // file path as given, or URL without credentials
	Account  string
	BlockNum uint64
	HasBlock bool
	Version  string // eosio::abi/1.x
	SHA256   string // of the embedded ABI JSON
}

// Package holds what the package documentation says.
type Package struct {
	Package  string
	Account  string
	Structs  int
	Variants int
	Aliases  int
	Actions  int
	Tables   int
	Results  int
	Clauses  []string // one line each, already sanitized
}

// RenderHeader returns the header text, one comment line per line.
func RenderHeader(h Header) (string, error) { return render("header.tmpl", h) }

// RenderPackage returns the package documentation text.
func RenderPackage(p Package) (string, error) { return render("package.tmpl", p) }

func render(name string, data any) (string, error) {
	var buf bytes.Buffer
	if err := all.ExecuteTemplate(&buf, name, data); err != nil {
		return "", err
	}
	return buf.String(), nil
}
