package docsnippets

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	htmlNote  = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// anchor is GitHub's id for a heading: lower case, punctuation dropped
// (hyphens and underscores kept), spaces as hyphens.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f && !strings.ContainsRune("—–…→×≤≥·", r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors lists the heading ids of a Markdown file, outside code blocks.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	inCode := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if m := mdHeading.FindStringSubmatch(line); m != nil && !inCode {
			out[anchor(m[1])] = true
		}
	}
	return out
}

// Every relative link of README.md and docs/*.md names a file that exists
// and, with a #fragment, a heading in it (links in HTML comments, notes for
// the editor, are not links).
func TestDocLinksResolve(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	links := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, m := range mdLink.FindAllStringSubmatch(htmlNote.ReplaceAllString(string(text), ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, frag, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
			}
			body, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: link %s: %v", rel, target, err)
				continue
			}
			if frag != "" && !anchors(string(body))[frag] {
				t.Errorf("%s: link %s: no heading with id %q", rel, target, frag)
			}
		}
	}
	if links < 20 {
		t.Fatalf("only %d relative links found", links)
	}
}
