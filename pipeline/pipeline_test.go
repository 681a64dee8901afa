package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antelopego/abigen/fetch"
	"github.com/antelopego/abigen/model"
)

const orngState = "../testdata/fetch-responses/dfuse/state-abi.orng.wax.json-true.json"

// Run writes the package, and with Check finds it up to date, then finds
// the one file removed, and writes nothing.
func TestRunWritesAndChecks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "randcontract")
	job := Job{Source: fetch.FileSource{Path: orngState}, Package: "randcontract", Out: dir}
	res, err := Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	if res.Source.Account != "orng.wax" || res.Source.BlockNum != 9135393 || len(res.Files) != 6 || len(res.Drift) != 0 {
		t.Fatalf("result: %s at %d, %d files, %d drift", res.Source.Account, res.Source.BlockNum, len(res.Files), len(res.Drift))
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "doc.go"))
	if want := "// source:    " + filepath.ToSlash(relativeTo(orngState, dir)) + "\n"; !strings.Contains(string(doc), want) {
		t.Errorf("the header does not record the file relative to the output (%q):\n%s", want, doc[:300])
	}
	for name, data := range res.Files {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != string(data) {
			t.Errorf("%s was not written", name)
		}
	}
	job.Check = true
	if res, err = Run(context.Background(), job); err != nil || len(res.Drift) != 0 {
		t.Fatalf("fresh output: %v, drift %v", err, res.Drift)
	}
	// A file gone is drift too; Check puts nothing back.
	path := filepath.Join(dir, "tables.go")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), job)
	if err != nil || len(res.Drift) != 1 || res.Drift[0].Name != "tables.go" || !strings.HasPrefix(res.Drift[0].Diff, "--- "+filepath.ToSlash(path)+"\n") {
		t.Fatalf("a missing file: %v, drift %+v", err, res.Drift)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("Check wrote a file")
	}
}

// Each failure says its stage, with the CLI's message.
func TestRunStages(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		job   Job
		stage Stage
		msg   string
	}{
		{"missing file", Job{Source: fetch.FileSource{Path: "nosuch.json"}, Package: "x", Out: dir}, Fetching, "nosuch.json"},
		{"syntax error", Job{Source: fetch.FileSource{Path: "-", Stdin: strings.NewReader("{\n  v\n}")}, Package: "x", Out: dir}, Loading,
			"(stdin):2:3: invalid JSON: invalid character 'v'"},
		{"invalid ABI", Job{Source: fetch.FileSource{Path: "../testdata/abis/eosio.token.bad.abi.json"}, Package: "x", Out: dir}, Loading,
			`invalid ABI:` + "\n  " + `tables[2] "global": unknown type "global"`},
		{"account mismatch", Job{Source: fetch.FileSource{Path: orngState}, Account: "eosio", Package: "x", Out: dir}, Checking,
			"--account eosio, but " + orngState + " is the ABI of orng.wax"},
		{"bad package name", Job{Source: fetch.FileSource{Path: orngState}, Package: "Rand", Out: dir}, Generating, `invalid package name "Rand"`},
		{"unwritable output", Job{Source: fetch.FileSource{Path: orngState}, Package: "x", Out: filepath.Join(orngState, "sub")}, Writing, "creating"},
	} {
		_, err := Run(context.Background(), c.job)
		var pe *Error
		if !errors.As(err, &pe) || pe.Stage != c.stage || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (stage %v), want stage %v with %q", c.name, err, pe, c.stage, c.msg)
		}
	}
}

// Load keeps the model's error underneath its message.
func TestLoadWraps(t *testing.T) {
	_, _, err := Load("x.json", &fetch.Fetched{Body: []byte("{\"version\": }")})
	var se *model.SyntaxError
	if !errors.As(err, &se) || err.Error() != "x.json:1:13: invalid JSON: invalid character '}' looking for beginning of value" {
		t.Errorf("%v", err)
	}
}

func TestUnifiedDiff(t *testing.T) {
	if d := unifiedDiff("a", "b", "x\ny\n", "x\ny\n"); d != "" {
		t.Fatalf("equal inputs gave %q", d)
	}
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	b := "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n"
	want := "--- a\n+++ b\n@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n+11\n"
	if d := unifiedDiff("a", "b", a, b); d != want {
		t.Fatalf("diff:\n%s\nwant:\n%s", d, want)
	}
	if d := unifiedDiff("a", "b", "", "new\n"); d != "--- a\n+++ b\n@@ -1,0 +1,1 @@\n+new\n" {
		t.Fatalf("from empty: %q", d)
	}
}
