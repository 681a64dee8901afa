package antelope

import "testing"

// The helpers tests and examples write constants with.
func TestConstantHelpers(t *testing.T) {
	alice := MustName("alice")
	if got := Active(alice); got != (PermissionLevel{alice, MustName("active")}) {
		t.Errorf("Active: %+v", got)
	}
	if got := Owner(alice); got != (PermissionLevel{alice, MustName("owner")}) {
		t.Errorf("Owner: %+v", got)
	}
	if got := MustSymbolCode("SYS"); got != SymbolCode(0x535953) {
		t.Errorf("MustSymbolCode: %#x", uint64(got))
	}
	if got := MustSymbol("4,SYS"); got != (Symbol{4, SymbolCode(0x535953)}) {
		t.Errorf("MustSymbol: %v", got)
	}
	if got := MustAsset("12.5000 SYS"); got != (Asset{125000, Symbol{4, SymbolCode(0x535953)}}) {
		t.Errorf("MustAsset: %v", got)
	}
	for name, f := range map[string]func(){
		"MustSymbolCode": func() { MustSymbolCode("sys") },
		"MustSymbol":     func() { MustSymbol("19,SYS") },
		"MustAsset":      func() { MustAsset("1.0") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s accepted invalid text", name)
				}
			}()
			f()
		}()
	}
}
