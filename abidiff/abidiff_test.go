package abidiff_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antelopego/abigen/abidiff"
	"github.com/antelopego/abigen/model"
)

var update = flag.Bool("update", false, "rewrite the expected reports")

func load(t *testing.T, path string) (*model.Model, *model.Source) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src, err := model.Load(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	m, err := model.Resolve(src.ABI)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m, src
}

// TestGolden: each testdata/<case> holds two ABIs (case.json names them)
// and report.txt, the expected report (go test ./abidiff -update rewrites
// it); the JSON report must agree on whether anything breaks.
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/*/case.json")
	if len(dirs) < 20 {
		t.Fatalf("only %d cases", len(dirs))
	}
	for _, c := range dirs {
		dir := filepath.Dir(c)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var cs struct{ Note, Old, New string }
			data, _ := os.ReadFile(c)
			if err := json.Unmarshal(data, &cs); err != nil {
				t.Fatal(err)
			}
			om, os1 := load(t, filepath.Join(dir, cs.Old))
			nm, ns := load(t, filepath.Join(dir, cs.New))
			r, err := abidiff.Compare(om, nm, os1, ns)
			if err != nil {
				t.Fatal(err)
			}
			var text bytes.Buffer
			if err := r.WriteText(&text, filepath.Base(cs.Old), filepath.Base(cs.New), false); err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(dir, "report.txt")
			if *update {
				if err := os.WriteFile(want, text.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test ./abidiff -update)", err)
			}
			if !bytes.Equal(text.Bytes(), exp) {
				t.Errorf("report differs from %s:\n%s", want, text.String())
			}
			var js bytes.Buffer
			_ = r.WriteJSON(&js, cs.Old, cs.New)
			var parsed struct {
				Breaking bool `json:"breaking"`
			}
			if err := json.Unmarshal(js.Bytes(), &parsed); err != nil || parsed.Breaking != r.Breaking() {
				t.Errorf("JSON report: %v", err)
			}
			// A comparison with itself finds nothing.
			if same, _ := abidiff.Compare(nm, nm, ns, ns); len(same.Changes) != 0 {
				t.Errorf("the new ABI differs from itself: %+v", same.Changes)
			}
		})
	}
}

// expectations that do not depend on report wording.
func TestClassification(t *testing.T) {
	for name, want := range map[string]struct {
		breaking bool
		kinds    []abidiff.Kind
	}{
		"extension-appended":         {false, []abidiff.Kind{abidiff.Compatible}},
		"field-appended-without-ext": {true, []abidiff.Kind{abidiff.BreaksData}},
		"field-removed":              {true, []abidiff.Kind{abidiff.BreaksSenders, abidiff.BreaksGo}},
		"field-inserted":             {true, []abidiff.Kind{abidiff.BreaksData}},
		"fields-reordered":           {true, []abidiff.Kind{abidiff.BreaksSenders}},
		"type-changed":               {true, []abidiff.Kind{abidiff.BreaksData, abidiff.BreaksGo}},
		"same-bytes":                 {true, []abidiff.Kind{abidiff.BreaksGo}},
		"alias-retyped":              {false, []abidiff.Kind{abidiff.Compatible}},
		"field-renamed":              {true, []abidiff.Kind{abidiff.BreaksSenders, abidiff.BreaksGo}},
		"action-renamed":             {true, []abidiff.Kind{abidiff.BreaksSenders, abidiff.BreaksGo}},
		"reordered-declarations":     {false, nil},
		"variant-appended":           {false, []abidiff.Kind{abidiff.Compatible}},
		"variant-reordered":          {true, []abidiff.Kind{abidiff.BreaksData, abidiff.BreaksSenders}},
		"cycle":                      {false, []abidiff.Kind{abidiff.Compatible}},
		"extension-made-required":    {true, []abidiff.Kind{abidiff.BreaksData}},
		"prose":                      {false, []abidiff.Kind{abidiff.Compatible}},
		"result-changed":             {true, []abidiff.Kind{abidiff.BreaksSenders}},
	} {
		dir := filepath.Join("testdata", name)
		om, os1 := load(t, filepath.Join(dir, "old.abi.json"))
		nm, ns := load(t, filepath.Join(dir, "new.abi.json"))
		r, err := abidiff.Compare(om, nm, os1, ns)
		if err != nil {
			t.Fatal(err)
		}
		if r.Breaking() != want.breaking {
			t.Errorf("%s: breaking = %v: %+v", name, r.Breaking(), r.Changes)
		}
		have := map[abidiff.Kind]bool{}
		for _, c := range r.Changes {
			have[c.Kind] = true
		}
		for _, k := range want.kinds {
			if !have[k] {
				t.Errorf("%s: no %q change: %+v", name, k, r.Changes)
			}
		}
		if name == "reordered-declarations" && len(r.Changes) != 0 {
			t.Errorf("reordering declarations is no change: %+v", r.Changes)
		}
		if name == "same-bytes" && (have[abidiff.BreaksData] || have[abidiff.BreaksSenders]) {
			t.Errorf("same bytes judged as a data or sender break: %+v", r.Changes)
		}
	}
}

// TestManyTypes: an ABI of 1,000 types against itself with one appended
// extension deep in a chain of structs.
func TestManyTypes(t *testing.T) {
	build := func(ext bool) []byte {
		var structs []string
		for i := range 1000 {
			next := "uint64"
			if i < 999 {
				next = fmt.Sprintf("s%d", i+1)
			}
			fields := fmt.Sprintf(`{"name":"v","type":"%s"}`, next)
			if ext && i == 999 {
				fields += `,{"name":"w","type":"string$"}`
			}
			structs = append(structs, fmt.Sprintf(`{"name":"s%d","base":"","fields":[%s]}`, i, fields))
		}
		return []byte(`{"version":"eosio::abi/1.1","structs":[` + strings.Join(structs, ",") +
			`],"tables":[{"name":"big","index_type":"i64","key_names":[],"key_types":[],"type":"s0"}]}`)
	}
	get := func(data []byte) (*model.Model, *model.Source) {
		src, err := model.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.Resolve(src.ABI)
		if err != nil {
			t.Fatal(err)
		}
		return m, src
	}
	om, os1 := get(build(false))
	nm, ns := get(build(true))
	r, err := abidiff.Compare(om, nm, os1, ns)
	if err != nil {
		t.Fatal(err)
	}
	if r.Breaking() {
		t.Errorf("an extension at the end of a 1,000-deep chain breaks: %+v", r.Changes)
	}
	found := false
	for _, c := range r.Changes {
		if c.Where == "table big" && strings.Contains(c.What, "binary extension") {
			found = true
		}
	}
	if !found {
		t.Errorf("the extension was not reported: %+v", r.Changes)
	}
}

// A change to a variant's alternatives names the variant type as well as
// the field path, and a swap is called one.
func TestVariantChangesNameTheVariant(t *testing.T) {
	dir := filepath.Join("testdata", "variant-reordered")
	om, os1 := load(t, filepath.Join(dir, "old.abi.json"))
	nm, ns := load(t, filepath.Join(dir, "new.abi.json"))
	r, err := abidiff.Compare(om, nm, os1, ns)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"table things: variant thing (field v): alternatives 0 and 1 swapped (a and b)": false,
		"action put: variant thing (field v): alternatives 0 and 1 swapped (a and b)":   false,
	}
	for _, c := range r.Changes {
		if _, ok := want[c.Where+": "+c.What]; ok {
			want[c.Where+": "+c.What] = true
		}
	}
	for w, found := range want {
		if !found {
			t.Errorf("no %q in %+v", w, r.Changes)
		}
	}
	dir = filepath.Join("testdata", "variant-appended")
	om, os1 = load(t, filepath.Join(dir, "old.abi.json"))
	nm, ns = load(t, filepath.Join(dir, "new.abi.json"))
	if r, err = abidiff.Compare(om, nm, os1, ns); err != nil {
		t.Fatal(err)
	}
	if c := r.Changes[0]; c.What != "variant thing (field v): alternative 2: c appended (old data and senders keep their indexes)" {
		t.Errorf("appended: %+v", c)
	}
}
