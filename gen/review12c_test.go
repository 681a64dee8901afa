package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// member is one key and raw value of a JSON object, in input order.
type member struct {
	key string
	val json.RawMessage
}

// objectMembers splits a JSON object into its members, in order.
func objectMembers(j []byte) ([]member, bool) {
	d := json.NewDecoder(bytes.NewReader(j))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var ms []member
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, false
		}
		ms = append(ms, member{k.(string), v})
	}
	return ms, true
}

// keyText is key as a JSON string, with one byte of an ASCII key escaped
// as \u00XX when escape is set: the same name to a JSON reader, another
// text to a comparison of raw bytes.
func keyText(key string, escape bool, r *rand.Rand) string {
	q, _ := json.Marshal(key)
	if !escape || key == "" || string(q) != `"`+key+`"` {
		return string(q)
	}
	i := r.IntN(len(key))
	if key[i] >= 0x80 {
		return string(q)
	}
	return fmt.Sprintf(`"%s\u%04x%s"`, key[:i], key[i], key[i+1:])
}

// rewriteObject prints the members in a random order, some keys escaped,
// white space around the colons, and keys that are a prefix or an
// extension of a real one (unknown, so ignored) before some members.
func rewriteObject(ms []member, r *rand.Rand) []byte {
	order := r.Perm(len(ms))
	if r.IntN(2) == 0 {
		for i := range order {
			order[i] = i // the printed order, the shortcut's case
		}
	}
	names := map[string]bool{}
	for _, m := range ms {
		names[m.key] = true
	}
	spaces := []string{"", "", " ", "\n\t"}
	var b strings.Builder
	b.WriteByte('{')
	for n, i := range order {
		if n > 0 {
			b.WriteString(spaces[r.IntN(len(spaces))] + ",")
		}
		m := ms[i]
		if r.IntN(4) == 0 {
			near := m.key + "x"
			if len(m.key) > 1 && r.IntN(2) == 0 {
				near = m.key[:len(m.key)-1]
			}
			if !names[near] {
				b.WriteString(keyText(near, false, r) + `:{"x":[1]},`)
			}
		}
		b.WriteString(keyText(m.key, r.IntN(4) == 0, r))
		b.WriteString(spaces[r.IntN(len(spaces))] + ":" + spaces[r.IntN(len(spaces))])
		b.Write(m.val)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// TestStructKeysInAnyForm: a generated struct decoder reads the same value
// whatever the order of the keys, their escapes, the white space around
// the colons and the unknown keys next to them (prefixes and extensions of
// real ones, which the expected-key shortcut must not take for them); a
// key given twice, in any form, is an error. Every struct type of every
// generated package, from a value decoded from zeros or its zero value.
func TestStructKeysInAnyForm(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 3))
	rounds := 20
	if testing.Short() {
		rounds = 4
	}
	checked := 0
	for _, d := range allDecoders(t) {
		if d.kind != "type" {
			continue
		}
		v := d.pkg.NewValue(d.name)
		for n := range 64 { // a value with a few non-empty parts, if any
			if w, err := d.decode(make([]byte, 64-n)); err == nil {
				v = w
				break
			}
		}
		want, err := v.MarshalBinary()
		if err != nil {
			continue
		}
		j, err := v.MarshalJSON()
		if err != nil {
			continue
		}
		ms, ok := objectMembers(j)
		if !ok || len(ms) == 0 {
			continue // not a struct, or one without fields
		}
		checked++
		for range rounds {
			in := rewriteObject(ms, r)
			again := d.pkg.NewValue(d.name)
			if err := again.UnmarshalJSON(in); err != nil {
				t.Fatalf("%s: %v\n%s", d, err, in)
			}
			if got, err := again.MarshalBinary(); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s: %s reads as %x, want %x (%v)", d, in, got, want, err)
			}
			dup := append(ms[:len(ms):len(ms)], ms[r.IntN(len(ms))])
			in = rewriteObject(dup, r)
			if err := again.UnmarshalJSON(in); err == nil || !strings.Contains(err.Error(), "duplicate") {
				t.Fatalf("%s: a key given twice is not refused as a duplicate: %v\n%s", d, err, in)
			}
		}
	}
	t.Logf("%d struct types, %d rewrites each", checked, rounds)
	if checked < 100 {
		t.Fatalf("only %d struct types checked", checked)
	}
}
