package gen

import (
	"go/format"
	"go/scanner"
	"go/token"

	"golang.org/x/tools/imports"
)

// formatSource gives src the layout imports.Process (FormatOnly) gives it,
// at half the cost. imports.Process parses and prints a file twice (it
// ends with go/format.Source); on eosio.system's 18,000 lines that was two
// thirds of abigen's time. Here the whole file goes through go/format once,
// and only its head, up to the end of the import declaration, where the
// two differ (import grouping), goes through imports.Process. The golden
// tests hold the output byte-identical to imports.Process on the whole file.
func formatSource(name string, src []byte) ([]byte, error) {
	gofmted, err := format.Source(src)
	if err != nil {
		return nil, err
	}
	end := importsEnd(gofmted)
	head, err := imports.Process(name, gofmted[:end], &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
	if err != nil {
		return nil, err
	}
	return append(head, gofmted[end:]...), nil
}

// importsEnd returns the offset just past the line that ends the file's
// import declarations, or just past the package clause's line if it has
// none. src is gofmt-formatted.
func importsEnd(src []byte) int {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	end := 0
	depth := 0
	inImport := false
	for {
		pos, tok, _ := s.Scan()
		switch {
		case tok == token.EOF:
			return lineEnd(src, end)
		case tok == token.IMPORT:
			inImport = true
		case tok == token.LPAREN && inImport:
			depth++
		case tok == token.RPAREN && inImport:
			depth--
			if depth == 0 {
				inImport = false
				end = file.Offset(pos) + 1
			}
		case tok == token.STRING && inImport && depth == 0:
			inImport = false
			end = file.Offset(pos) + 1
		case tok == token.IDENT && end == 0: // the package name
			end = file.Offset(pos) + 1
		case tok == token.SEMICOLON || inImport:
		default:
			if end > 0 && !inImport && tok != token.PACKAGE {
				return lineEnd(src, end)
			}
		}
	}
}

func lineEnd(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' {
		off++
	}
	if off < len(src) {
		off++
	}
	return off
}
