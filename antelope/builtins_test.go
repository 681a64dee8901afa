package antelope_test

import (
	"slices"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// Every built-in type of the model has a runtime type whose codecs the
// conformance and fuzz tests drive, and the other way round: a built-in
// added to model.BuiltinTypes fails here, by name.
func TestEveryBuiltinHasACodec(t *testing.T) {
	for _, name := range model.BuiltinTypes {
		if !slices.Contains(antelope.BuiltinCodecs, name) {
			t.Errorf("built-in %s: no codec in antelope's test harness (harness_test.go)", name)
		}
	}
	for _, name := range antelope.BuiltinCodecs {
		if !model.IsBuiltin(name) {
			t.Errorf("antelope's test harness has %s, which is not one of model.BuiltinTypes", name)
		}
	}
}
