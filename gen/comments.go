package gen

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/antelopego/abigen/model"
	"github.com/dave/jennifer/jen"
)

// commentText makes text from an ABI safe inside a // comment: line breaks
// of every kind (\n, \r, U+2028, U+2029, NEL…), other control and format
// characters (NUL, bidirectional overrides that could disguise code) are
// turned into spaces, runs of space are collapsed, and the result is cut to
// max runes. Nothing in it can end the comment, so nothing can become code,
// and gofmt leaves it alone.
func commentText(s string, max int) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
			n++
		}
		space = false
		if n >= max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// ricardianSummary extracts the title and summary of an action's ricardian
// contract (the YAML-like header CDT writes: "title: …", "summary: …").
func ricardianSummary(text string) (title, summary string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "title:"); ok && title == "" {
			title = unquoteYAML(v)
		}
		if v, ok := strings.CutPrefix(line, "summary:"); ok && summary == "" {
			summary = unquoteYAML(v)
		}
	}
	return commentText(title, 120), commentText(summary, 200)
}

func unquoteYAML(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}

// structDocs gives the struct of each action a doc line from its ricardian
// contract.
func (g *generator) structDocs() {
	for _, a := range g.m.Actions {
		t := a.Type.Resolved()
		if t.Kind != model.StructKind {
			continue
		}
		title, summary := ricardianSummary(a.Ricardian)
		line := "It is the data of the action " + a.Name + "."
		if s := joinNonEmpty(title, summary); s != "" {
			line += "\n" + s
		}
		if prev := g.docs[t.Struct]; prev != "" {
			line = prev + "\n" + line
		}
		g.docs[t.Struct] = line
	}
}

// docComment writes text as // comment lines (jennifer would use /* */ for
// a multi-line string). Blank lines become a bare //.
func docComment(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			f.Comment("//")
		} else {
			f.Comment(line)
		}
	}
}

func docCommentf(f *jen.File, format string, args ...any) {
	docComment(f, fmt.Sprintf(format, args...))
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "#")); l != "" {
			return l
		}
	}
	return ""
}
