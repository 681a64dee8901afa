package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"runtime"
	"sync"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"
)

// Formatting is most of generation's time (go/parser and go/printer over
// the whole output; gofmt's own work). types.go, nine tenths of the output
// on large contracts, is therefore formatted in pieces on every core: the
// generator marks the top-level declarations where it may be cut (each
// begins with a doc comment, so gofmt separates it from the one before by
// exactly one blank line whatever precedes it), and each piece is
// formatted as a file of its own and the pieces joined. TestFormatPieces
// holds the result to formatting the file whole, cut at every mark.

// splitMark is the line splitPoint writes: a comment no ABI text can
// produce (commentText turns control characters into spaces).
const splitMark = "//\x01split"

// splitPoint marks that the file may be cut before the next declaration,
// which must begin with a doc comment.
func splitPoint(f *jen.File) { f.Comment(splitMark) }

// pieceSize is the size of raw source, in bytes, a piece aims at: pieces
// much smaller cost more in goroutines and package clauses than they gain.
var pieceSize = 64 << 10

// formatFiles formats each raw file, the pieces of all of them in
// parallel, and returns them in the same order.
func formatFiles(names []string, raw [][]byte) ([][]byte, error) {
	type job struct {
		file, piece int
		src         []byte
		out         []byte
		err         error
	}
	var jobs []*job
	pieces := make([]int, len(names))
	for i := range names {
		parts := cutPieces(raw[i], pieceSize)
		pieces[i] = len(parts)
		for k, p := range parts {
			jobs = append(jobs, &job{file: i, piece: k, src: p})
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if j.piece == 0 {
				j.out, j.err = formatSource(names[j.file], j.src)
			} else {
				j.out, j.err = formatPiece(j.src)
			}
		}()
	}
	wg.Wait()
	out := make([][]byte, len(names))
	for _, j := range jobs {
		if j.err != nil {
			return nil, fmt.Errorf("gen: formatting %s: %v (this is a bug in abigen; please report it with the ABI)", names[j.file], j.err)
		}
		if j.piece > 0 {
			out[j.file] = append(out[j.file], '\n') // the blank line before a doc comment
		}
		out[j.file] = append(out[j.file], j.out...)
	}
	return out, nil
}

// cutPieces removes the split marks from src and cuts it at some of them
// into pieces of about size bytes; the first piece holds the package clause
// and imports, every other one starts with a declaration's doc comment.
func cutPieces(src []byte, size int) [][]byte {
	mark := []byte(splitMark + "\n")
	if !bytes.Contains(src, mark) {
		return [][]byte{src}
	}
	segs := bytes.Split(src, mark)
	var pieces [][]byte
	var cur []byte
	for i, s := range segs {
		if i > 0 && len(cur) >= size {
			pieces = append(pieces, cur)
			cur = nil
		}
		cur = append(cur, s...)
	}
	return append(pieces, cur)
}

// formatPiece formats declarations cut from a file: as a file of their own
// under a package clause, which is then taken off again.
func formatPiece(decls []byte) ([]byte, error) {
	const clause = "package p\n\n"
	src := append([]byte(clause), decls...)
	out, err := format.Source(src)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(out, []byte(clause)) {
		return nil, fmt.Errorf("a piece does not format as declarations after the package clause")
	}
	return out[len(clause):], nil
}

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
