package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// localRecipe returns the sh block under "### From a local checkout" in
// docs/generate.md: the recipe exactly as users read it.
func localRecipe(t *testing.T, root string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "generate.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n### From a local checkout\n")
	if !ok {
		t.Fatal(`docs/generate.md has no "### From a local checkout"`)
	}
	_, rest, ok = strings.Cut(rest, "\n```sh\n")
	if !ok {
		t.Fatal("docs/generate.md: no sh block in \"From a local checkout\"")
	}
	block, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatal("docs/generate.md: the recipe's block does not end")
	}
	return block
}

// TestGoGenerateRecipe runs the local-checkout recipe of docs/generate.md,
// as written (only ../abigen becomes this checkout's path), in a scratch
// module on a network where the module proxy has nothing — it answers 403,
// as some proxies do for a module they do not hold — and the checksum
// database cannot be reached. abigen's dependencies are in the module cache
// already (this test was built from them), as the recipe asks. Then the
// generate directive runs `go tool abigen`, and the result must build, run,
// and keep the tool through go mod tidy.
func TestGoGenerateRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds abigen in a scratch module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	recipe := localRecipe(t, root)
	if !strings.Contains(recipe, "../abigen") {
		t.Fatalf("the recipe does not name the checkout as ../abigen:\n%s", recipe)
	}
	recipe = strings.ReplaceAll(recipe, "../abigen", filepath.ToSlash(root))

	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "This module version is not available.", http.StatusForbidden)
	}))
	defer proxy.Close()
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY="+proxy.URL, "GONOSUMDB=", "GONOSUMCHECK=", "GOPRIVATE=",
		"GOSUMDB=sum.golang.org https://sumdb.invalid") // the checksum database is unreachable

	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/consumer\n\ngo 1.26.0\n")
	abi, err := os.ReadFile("../../testdata/abis/eosio.token.abi.json")
	if err != nil {
		t.Fatal(err)
	}
	write("token/token.abi.json", string(abi))
	write("token/generate.go", "package token\n\n//go:generate go tool abigen --abi token.abi.json --pkg token --out .\n")
	write("main.go", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/consumer/token\"\n\t\"github.com/antelopego/abigen/antelope\"\n)\n\n"+
		"func main() {\n\tc := token.Contract{Account: antelope.MustName(\"eosio.token\")}\n\tfmt.Println(c.Account)\n}\n")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(sh, "-e", "-x", "-c", recipe)
	run(goCmd, "build", "./...")
	run(goCmd, "mod", "tidy", "-diff")
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(mod), "tool github.com/antelopego/abigen/cmd/abigen") {
		t.Errorf("go mod tidy dropped the tool directive:\n%s", mod)
	}
	if out := run(goCmd, "run", "."); strings.TrimSpace(out) != "eosio.token" {
		t.Errorf("the program printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "token", "types.go")); err != nil {
		t.Error("go generate wrote no bindings")
	}
}

func TestVersionOf(t *testing.T) {
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: ""}}, true, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, true, "devel (0123456789ab, modified)"},
	} {
		if got := versionOf(c.bi, c.ok); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
}
