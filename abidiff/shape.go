package abidiff

import (
	"strconv"

	"github.com/antelopego/abigen/model"
)

// Comparing two versions of a type by what they encode, not by how they
// are spelled: aliases are followed, equal encodings are equal whatever
// their names, and only differences that change the bytes (or what old
// bytes mean) are findings.

// finding is one difference inside a type, with the path to it.
type finding struct {
	path     string // "field balance", "field owner.key"
	variant  string // the variant type whose alternatives changed, when the finding is one of those
	what     string
	breaking bool // old bytes no longer decode (or decode to other values)
	jsonOnly bool // the bytes are unchanged but JSON senders must change (a renamed field)
	// reread: the same bytes, read as another type of the same width and
	// family (uint64 as time_point, int8 as uint8): stored data decodes;
	// JSON senders change unless both are plain integers.
	reread     bool
	integerish bool // both sides of a reread are plain integers: JSON is unchanged
}

// builtinShape is what a built-in type's encoding means to a comparison.
type builtinShape struct {
	// class groups built-ins whose encodings and values are the same: a
	// name is a uint64 (bytes are a uint8[], which bytesClass handles).
	class string
	// width groups the fixed-size integer and time types that read any
	// bytes of their width: reading one as another never fails. "" for
	// the others.
	width string
	// integer marks the plain integers, whose JSON is a number whatever
	// their width.
	integer bool
}

// builtinShapes has the shape of every built-in type (model.BuiltinTypes;
// a test keeps them in step).
var builtinShapes = map[string]builtinShape{
	"bool":                 {class: "bool"},
	"int8":                 {class: "int8", width: "1", integer: true},
	"uint8":                {class: "uint8", width: "1", integer: true},
	"int16":                {class: "int16", width: "2", integer: true},
	"uint16":               {class: "uint16", width: "2", integer: true},
	"int32":                {class: "int32", width: "4", integer: true},
	"uint32":               {class: "uint32", width: "4", integer: true},
	"int64":                {class: "int64", width: "8", integer: true},
	"uint64":               {class: "uint64", width: "8", integer: true},
	"int128":               {class: "int128", width: "16", integer: true},
	"uint128":              {class: "uint128", width: "16", integer: true},
	"varint32":             {class: "varint32"},
	"varuint32":            {class: "varuint32"},
	"float32":              {class: "float32"},
	"float64":              {class: "float64"},
	"float128":             {class: "float128"},
	"time_point":           {class: "time_point", width: "8"},
	"time_point_sec":       {class: "time_point_sec", width: "4"},
	"block_timestamp_type": {class: "block_timestamp_type", width: "4"},
	"name":                 {class: "uint64", width: "8"}, // a name is a uint64
	"bytes":                {class: "uint8[]"},
	"string":               {class: "string"},
	"checksum160":          {class: "checksum160"},
	"checksum256":          {class: "checksum256"},
	"checksum512":          {class: "checksum512"},
	"public_key":           {class: "public_key"},
	"private_key":          {class: "private_key"},
	"signature":            {class: "signature"},
	"symbol":               {class: "symbol"},
	"symbol_code":          {class: "symbol_code"},
	"asset":                {class: "asset"},
	"extended_asset":       {class: "extended_asset"},
	"bitset":               {class: "bitset"},
}

// shapeOf is the shape of a built-in; one the table lacks is a class of
// its own.
func shapeOf(name string) builtinShape {
	if s, ok := builtinShapes[name]; ok {
		return s
	}
	return builtinShape{class: name}
}

// bytesClass names the encodings that are spelled as a built-in by one
// version and as an array by the other: bytes and uint8[].
func bytesClass(t *model.Type) string {
	switch {
	case t.Kind == model.Builtin && t.Name == "bytes":
		return "uint8[]"
	case t.Kind == model.Array && t.Elem.Resolved().Kind == model.Builtin && t.Elem.Resolved().Name == "uint8":
		return "uint8[]"
	}
	return ""
}

// shapeName prints a type by its encoding, for messages.
func shapeName(t *model.Type) string {
	if t == nil {
		return "?"
	}
	return t.Name
}

type comparer struct {
	busy map[[2]*model.Type]bool // pairs being compared: recursion is taken as equal
}

func newComparer() *comparer { return &comparer{busy: map[[2]*model.Type]bool{}} }

// compare reports how new differs from old. A nil result means the bytes
// of either read as the other.
func (c *comparer) compare(old, new *model.Type, path string) []finding {
	if old == nil || new == nil {
		return nil
	}
	a, b := old.Resolved(), new.Resolved()
	key := [2]*model.Type{a, b}
	if c.busy[key] {
		return nil
	}
	c.busy[key] = true
	defer delete(c.busy, key)
	if ca, cb := bytesClass(a), bytesClass(b); ca != "" && ca == cb {
		return nil
	}
	changed := func() []finding {
		return []finding{{path: path, what: "type changed from " + shapeName(old) + " to " + shapeName(new), breaking: true}}
	}
	if a.Kind != b.Kind {
		// A struct of one field is not its field's type: the encodings
		// happen to match only in that degenerate case; judged as changed.
		return changed()
	}
	switch a.Kind {
	case model.Builtin:
		sa, sb := shapeOf(a.Name), shapeOf(b.Name)
		if sa.class == sb.class {
			return nil
		}
		if sa.width != "" && sa.width == sb.width {
			return []finding{{path: path, what: "read as " + shapeName(new) + " instead of " + shapeName(old) + " (the same " + sa.width + " bytes)",
				reread: true, integerish: sa.integer && sb.integer}}
		}
		return changed()
	case model.Array, model.Optional:
		return c.elements(a.Elem, b.Elem, path, changed)
	case model.FixedArray:
		if a.Len != b.Len {
			return changed()
		}
		return c.elements(a.Elem, b.Elem, path, changed)
	case model.StructKind:
		return c.compareStructs(a.Struct, b.Struct, path)
	case model.VariantKind:
		return c.compareVariants(a.Variant, b.Variant, path)
	}
	return nil
}

// elements compares the elements of two arrays or optionals: a reread
// element is a reread container; anything else changes the container.
func (c *comparer) elements(old, new *model.Type, path string, changed func() []finding) []finding {
	f := c.compare(old, new, path)
	for _, x := range f {
		if !x.reread && !x.jsonOnly && x.breaking {
			return changed()
		}
		if !x.reread && !x.jsonOnly {
			return changed() // an extension inside an array cannot be left out: the shapes differ
		}
	}
	return f
}

func join(path, part string) string {
	if path == "" {
		return part
	}
	return path + "." + part
}

func (c *comparer) compareStructs(old, new *model.Struct, path string) []finding {
	of, nf := old.AllFields(), new.AllFields()
	var out []finding
	fieldPath := func(name string) string {
		if path == "" {
			return "field " + name
		}
		return join(path, name)
	}
	for i, o := range of {
		if i >= len(nf) {
			out = append(out, finding{path: fieldPath(o.Name), what: "removed", breaking: true})
			continue
		}
		n := nf[i]
		if o.Name != n.Name {
			switch {
			case indexOf(nf, o.Name) > i:
				out = append(out, finding{path: fieldPath(n.Name), what: "inserted before " + o.Name + ": every later field moves", breaking: true})
				return out
			case indexOf(nf, o.Name) >= 0:
				out = append(out, finding{path: fieldPath(o.Name), what: "moved from position " + strconv.Itoa(i+1) + " to " + strconv.Itoa(indexOf(nf, o.Name)+1), breaking: true})
				return out
			case len(c.compare(o.Type, n.Type, "")) == 0 && o.Extension == n.Extension:
				out = append(out, finding{path: fieldPath(o.Name), what: "renamed to " + n.Name + " (same bytes; JSON names it differently)", jsonOnly: true})
				continue
			default:
				out = append(out, finding{path: fieldPath(o.Name), what: "replaced by " + n.Name + " " + shapeName(n.Type), breaking: true})
				continue
			}
		}
		out = append(out, c.compare(o.Type, n.Type, fieldPath(o.Name))...)
		if o.Extension && !n.Extension {
			out = append(out, finding{path: fieldPath(o.Name), what: "no longer a binary extension: data that ends before it no longer decodes", breaking: true})
		}
	}
	for _, n := range nf[min(len(of), len(nf)):] {
		if n.Extension {
			out = append(out, finding{path: fieldPath(n.Name), what: "binary extension " + shapeName(n.Type) + "$ appended"})
		} else {
			out = append(out, finding{path: fieldPath(n.Name), what: "appended without $: data written before it ends early and no longer decodes", breaking: true})
		}
	}
	return out
}

func indexOf(fields []*model.Field, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func (c *comparer) compareVariants(old, new *model.Variant, path string) []finding {
	name := old.Name
	if new.Name != old.Name {
		name += " (now " + new.Name + ")"
	}
	var out []finding
	add := func(what string, breaking, jsonOnly bool) {
		out = append(out, finding{path: path, variant: name, what: what, breaking: breaking, jsonOnly: jsonOnly})
	}
	same := func(o, n *model.Type) bool { return len(c.compare(o, n, "")) == 0 }
	alt := func(i int) string { return "alternative " + strconv.Itoa(i) }
	swapped := map[int]bool{}
	for i, o := range old.Members {
		if i >= len(new.Members) {
			add(alt(i)+": "+shapeName(o)+" removed", true, false)
			continue
		}
		n := new.Members[i]
		switch {
		case swapped[i]:
		case !same(o, n):
			// Two alternatives that traded places: every stored index of
			// either now means the other.
			j := i + 1
			for ; j < len(old.Members) && j < len(new.Members); j++ {
				if !swapped[j] && same(o, new.Members[j]) && same(old.Members[j], n) {
					break
				}
			}
			if j < len(old.Members) && j < len(new.Members) {
				swapped[j] = true
				add("alternatives "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" swapped ("+shapeName(o)+" and "+shapeName(n)+")", true, false)
				continue
			}
			add(alt(i)+": changed from "+shapeName(o)+" to "+shapeName(n), true, false)
		case o.Name != n.Name:
			add(alt(i)+": renamed from "+o.Name+" to "+n.Name+" (same bytes; JSON names it differently)", false, true)
		}
	}
	for i := len(old.Members); i < len(new.Members); i++ {
		add(alt(i)+": "+shapeName(new.Members[i])+" appended (old data and senders keep their indexes)", false, false)
	}
	return out
}
