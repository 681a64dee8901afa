package ship

import (
	"strings"
	"testing"
)

func TestCursorForms(t *testing.T) {
	c := Cursor{held: []Position{{Num: 7, ID: [32]byte{7}}, {Num: 8, ID: [32]byte{8}}, {Num: 9, ID: [32]byte{9, 9}}}}
	bin, _ := c.MarshalBinary()
	var back Cursor
	if err := back.UnmarshalBinary(bin); err != nil || back.Last() != c.Last() || len(back.Reversible()) != 3 {
		t.Fatalf("%v %v", back, err)
	}
	text, _ := c.MarshalText()
	if !strings.HasPrefix(string(text), "ship1:") || c.String() != string(text) {
		t.Error(string(text))
	}
	back = Cursor{}
	if err := back.UnmarshalText(text); err != nil || back.Reversible()[0] != c.held[0] {
		t.Fatal(err)
	}
	var zero Cursor
	if err := zero.UnmarshalText(nil); err != nil || !zero.IsZero() || zero.String() != "" {
		t.Error(err)
	}
	bad := [][]byte{{2}, {1, 5}, append([]byte{}, bin[:len(bin)-1]...), func() []byte {
		b := append([]byte{}, bin...)
		b[2+36] = 99 // second position's number: not consecutive
		return b
	}()}
	for _, b := range bad {
		if err := back.UnmarshalBinary(b); err == nil || !strings.Contains(err.Error(), "not a cursor") {
			t.Errorf("% x: %v", b, err)
		}
	}
	if err := back.UnmarshalText([]byte("cursor")); err == nil {
		t.Error("accepted text without the prefix")
	}
}
