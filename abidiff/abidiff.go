package abidiff

import (
	"sort"
	"strings"

	"github.com/antelopego/abigen/gen"
	"github.com/antelopego/abigen/model"
)

// Kind classifies a change by whom it breaks.
type Kind string

// The kinds of change, from the most to the least dangerous.
const (
	BreaksData    Kind = "breaks stored data" // table rows already on chain no longer decode, or decode to other values
	BreaksSenders Kind = "breaks senders"     // clients that send an action (or read its result) the old way fail
	BreaksGo      Kind = "breaks Go code"     // regenerated bindings drop or change names that user code uses
	Compatible    Kind = "compatible"         // nothing that worked stops working
)

var kindOrder = map[Kind]int{BreaksData: 0, BreaksSenders: 1, BreaksGo: 2, Compatible: 3}

// Change is one difference between the two ABIs.
type Change struct {
	Kind  Kind   `json:"kind"`  // whom it breaks, or Compatible
	Where string `json:"where"` // "table accounts", "action transfer", "Go: func Contract.Transfer"
	What  string `json:"what"`  // "field balance: type changed from asset to extended_asset"
}

// Report is what changed from one ABI to another.
type Report struct {
	Changes []Change `json:"changes"` // the most breaking first
}

// Breaking reports whether any change breaks something.
func (r *Report) Breaking() bool {
	for _, c := range r.Changes {
		if c.Kind != Compatible {
			return true
		}
	}
	return false
}

// Compare judges the change from old to new: tables by their row types'
// encodings (breaks stored data), actions and results by theirs (breaks
// senders), the Go API of bindings generated from each (breaks Go code),
// and everything else as compatible. Declarations are matched by name, so
// reordering them changes nothing. oldSrc and newSrc supply what
// generation needs (the account, for Default).
func Compare(old, new *model.Model, oldSrc, newSrc *model.Source) (*Report, error) {
	r := &Report{}
	add := func(k Kind, where, what string) { r.Changes = append(r.Changes, Change{k, where, what}) }
	c := newComparer()

	// Tables: the rows already stored.
	oldTables, newTables := map[string]*model.Table{}, map[string]*model.Table{}
	for _, t := range old.Tables {
		oldTables[t.Name] = t
	}
	for _, t := range new.Tables {
		newTables[t.Name] = t
	}
	for _, name := range sortedKeys(oldTables) {
		o, n := oldTables[name], newTables[name]
		where := "table " + name
		if n == nil {
			add(BreaksData, where, "removed: rows stored in it can no longer be read through the ABI")
			continue
		}
		for _, f := range c.compare(o.Type, n.Type, "") {
			switch {
			case f.breaking:
				add(BreaksData, where, findingText(f))
			case f.jsonOnly, f.reread:
				add(Compatible, where, findingText(f)+"; stored rows still decode")
			default:
				add(Compatible, where, findingText(f))
			}
		}
		if o.IndexType != n.IndexType {
			add(BreaksData, where, "index type changed from "+o.IndexType+" to "+n.IndexType)
		}
	}
	for _, name := range sortedKeys(newTables) {
		if oldTables[name] == nil {
			add(Compatible, "table "+name, "added")
		}
	}

	// Actions: what senders send.
	oldActions, newActions := map[string]*model.Action{}, map[string]*model.Action{}
	for _, a := range old.Actions {
		oldActions[a.Name] = a
	}
	for _, a := range new.Actions {
		newActions[a.Name] = a
	}
	for _, name := range sortedKeys(oldActions) {
		o, n := oldActions[name], newActions[name]
		where := "action " + name
		if n == nil {
			what := "removed: senders of it fail"
			for _, cand := range sortedKeys(newActions) {
				if oldActions[cand] == nil && len(c.compare(o.Type, newActions[cand].Type, "")) == 0 {
					what = "removed (renamed to " + cand + "?): senders of " + name + " fail"
					break
				}
			}
			add(BreaksSenders, where, what)
			continue
		}
		for _, f := range c.compare(o.Type, n.Type, "") {
			switch {
			case f.breaking, f.jsonOnly:
				add(BreaksSenders, where, findingText(f))
			case f.reread && !f.integerish:
				add(BreaksSenders, where, findingText(f)+": binary senders are unaffected, JSON senders write it differently")
			default:
				add(Compatible, where, findingText(f))
			}
		}
		if o.Ricardian != n.Ricardian {
			add(Compatible, where, "ricardian contract text changed")
		}
	}
	for _, name := range sortedKeys(newActions) {
		if oldActions[name] == nil {
			add(Compatible, "action "+name, "added")
		}
	}

	// Action results: what callers read back.
	oldResults, newResults := map[string]*model.ActionResult{}, map[string]*model.ActionResult{}
	for _, a := range old.ActionResults {
		oldResults[a.Name] = a
	}
	for _, a := range new.ActionResults {
		newResults[a.Name] = a
	}
	for _, name := range sortedKeys(oldResults) {
		where := "result of " + name
		n := newResults[name]
		if n == nil {
			add(BreaksSenders, where, "removed: callers reading it fail")
			continue
		}
		for _, f := range c.compare(oldResults[name].Type, n.Type, "") {
			if f.breaking || f.jsonOnly {
				add(BreaksSenders, where, findingText(f))
			} else {
				add(Compatible, where, findingText(f))
			}
		}
	}
	for _, name := range sortedKeys(newResults) {
		if oldResults[name] == nil {
			add(Compatible, "result of "+name, "added")
		}
	}

	// Prose: never breaks anything.
	if clauses(old) != clauses(new) {
		add(Compatible, "ricardian clauses", "changed")
	}
	if errorMessages(old) != errorMessages(new) {
		add(Compatible, "error messages", "changed")
	}

	// The Go API of the regenerated bindings.
	goChanges, err := compareGo(old, new, oldSrc, newSrc)
	if err != nil {
		return nil, err
	}
	r.Changes = append(r.Changes, goChanges...)

	sort.SliceStable(r.Changes, func(i, j int) bool { return kindOrder[r.Changes[i].Kind] < kindOrder[r.Changes[j].Kind] })
	return r, nil
}

// findingText is a finding as a report says it: its path, and for a
// change to a variant's alternatives the variant type with the path to it
// ("variant payload (field val): alternatives 0 and 1 swapped").
func findingText(f finding) string {
	switch {
	case f.variant != "" && f.path != "":
		return "variant " + f.variant + " (" + shortPath(f.path) + "): " + f.what
	case f.variant != "":
		return "variant " + f.variant + ": " + f.what
	case f.path == "":
		return f.what
	}
	return shortPath(f.path) + ": " + f.what
}

// shortPath keeps the first three and the last two steps of a deep path.
func shortPath(p string) string {
	parts := strings.Split(p, ".")
	if len(parts) <= 6 {
		return p
	}
	return strings.Join(parts[:3], ".") + ".….(" + itoa(len(parts)-5) + " more)." + strings.Join(parts[len(parts)-2:], ".")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func clauses(m *model.Model) string {
	s := ""
	for _, c := range m.Clauses {
		s += c.ID + "\x00" + c.Body + "\x00"
	}
	return s
}

func errorMessages(m *model.Model) string {
	var list []string
	for _, e := range m.ErrorMessages {
		list = append(list, e.Message)
	}
	sort.Strings(list)
	s := ""
	for _, e := range list {
		s += e + "\x00"
	}
	return s
}

// generate is the package both versions would generate, for comparing
// their Go API.
func generate(m *model.Model, src *model.Source) (map[string][]byte, error) {
	res, err := gen.Generate(m, src, gen.Options{Package: "bindings", Source: "diff"})
	if err != nil {
		return nil, err
	}
	return res.Files, nil
}
