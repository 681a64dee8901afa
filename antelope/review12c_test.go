package antelope

import (
	"testing"
)

// sequenceNames are the keys a sequence test expects: real names, prefixes
// of each other, names JSON escapes, the empty name, the zero JSONKey.
var sequenceNames = []string{"owner", "own", "owner2", "a", "", "key\"q", "é", "b", "ab"}

// readObjectBoth reads the object at a with NextKey and at b with NextKeyOr,
// member by member, nested objects too, expecting the key picked by the
// next choice byte, and fails at the first difference in key, presence,
// error, offset or reader state.
func readObjectBoth(t *testing.T, a, b *JSONReader, choices []byte, c *int) {
	t.Helper()
	same := func(what string, ea, eb error) bool {
		if (ea == nil) != (eb == nil) || (ea != nil && ea.Error() != eb.Error()) ||
			a.pos != b.pos || a.first != b.first || a.depth != b.depth {
			t.Fatalf("%s differs on %q: NextKey %v at %d (first %v), NextKeyOr %v at %d (first %v)",
				what, a.data, ea, a.pos, a.first, eb, b.pos, b.first)
		}
		return ea == nil
	}
	if !same("BeginObject", a.BeginObject(), b.BeginObject()) {
		return
	}
	for {
		var likely JSONKey
		if *c < len(choices) {
			if i := int(choices[*c]); i < len(sequenceNames) {
				likely = NewJSONKey(sequenceNames[i])
			}
			*c++
		}
		ka, oka, ea := a.NextKey()
		kaCopy := string(ka)
		kb, okb, eb := b.NextKeyOr(likely)
		if kaCopy != string(kb) || oka != okb {
			t.Fatalf("key of %q differs: NextKey %q %v, NextKeyOr %q %v", a.data, kaCopy, oka, kb, okb)
		}
		if !same("NextKeyOr", ea, eb) || !oka {
			return
		}
		if a.Peek() == JSONObject {
			readObjectBoth(t, a, b, choices, c)
			if a.pos != b.pos {
				return
			}
			continue
		}
		if !same("Skip", a.Skip(), b.Skip()) {
			return
		}
	}
}

// FuzzNextKeyOrSequence reads whole objects, nested ones too, with NextKey
// and with NextKeyOr expecting fuzzed keys: the state a key leaves (first,
// the scratch buffer of an escaped key, the offset) must be NextKey's for
// every later call.
func FuzzNextKeyOrSequence(f *testing.F) {
	for _, s := range []string{`{"owner":1,"own":2}`, `{"own":{"owner":"x","a":{}},"owner2":[1]}`,
		`{"\u006fwner":1,"owner":2}`, `{"owner" :1, "own":2 , "":3}`, `{"é":"\u00e9","key\"q":1}`,
		`{"owner":`, `{"owner":1 "own":2}`, `{"a":{"b":{"ab":{}}},"b":"\\"}`} {
		f.Add([]byte(s), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	}
	f.Fuzz(func(t *testing.T, data, choices []byte) {
		var a, b JSONReader
		a.Reset(data)
		b.Reset(data)
		c := 0
		readObjectBoth(t, &a, &b, choices, &c)
	})
}

// TestNextKeyOrSequence runs the fuzz target's check on objects built from
// keys that share prefixes, escapes and white space, with every expected
// key in turn.
func TestNextKeyOrSequence(t *testing.T) {
	objects := []string{
		`{"owner":1,"own":2,"owner2":3}`, `{"own":1,"owner":2}`, `{"owner2":1,"owner":2}`,
		`{"\u006fwner":1,"owner":{"own":[]}}`, `{"owner" : 1,"own"	:2}`, `{ "owner":1 ,"own":2 }`,
		`{"ownerx":1}`, `{"":1,"":2}`, `{"é":1,"\u00e9":2}`, `{"key\"q":1}`, `{"owner":"a\"b","own":"\\"}`,
		`{"own`, `{"owner"`, `{"owner":`, `{"owner":1,`, `{"owner":1,}`, `{"owner":1"own":2}`, `{"owner"1}`,
		`{"a":{"a":{"a":{"a":1}}},"b":2}`, `{"owner":1}x`, `{"a":1,"ab":2,"b":3}`,
	}
	for _, o := range objects {
		for i := range len(sequenceNames) + 1 {
			choices := make([]byte, 16)
			for j := range choices {
				choices[j] = byte((i + j) % (len(sequenceNames) + 1))
			}
			var a, b JSONReader
			a.Reset([]byte(o))
			b.Reset([]byte(o))
			c := 0
			readObjectBoth(t, &a, &b, choices, &c)
		}
	}
}
