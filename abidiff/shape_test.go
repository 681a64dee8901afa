package abidiff

import (
	"testing"

	"github.com/antelopego/abigen/model"
)

// Every built-in type of the model has a shape here: a built-in added to
// model.BuiltinTypes fails here, by name, instead of being judged as a
// class of its own.
func TestEveryBuiltinHasAShape(t *testing.T) {
	for _, name := range model.BuiltinTypes {
		if _, ok := builtinShapes[name]; !ok {
			t.Errorf("built-in %s: no shape in abidiff/shape.go", name)
		}
	}
	for name, s := range builtinShapes {
		if !model.IsBuiltin(name) {
			t.Errorf("abidiff/shape.go has a shape for %s, which is not one of model.BuiltinTypes", name)
		}
		if s.class == "" || s.integer && s.width == "" {
			t.Errorf("built-in %s: incomplete shape %+v", name, s)
		}
	}
}
