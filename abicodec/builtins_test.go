package abicodec

import (
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/model"
)

// Every built-in type of the model is decoded here: a built-in added to
// model.BuiltinTypes and not to builtins.go fails here, by name.
func TestEveryBuiltinDecodes(t *testing.T) {
	for _, name := range model.BuiltinTypes {
		_, err := builtin(antelope.NewDecoder(make([]byte, 128)), name, nil)
		if err != nil && strings.Contains(err.Error(), "not a built-in type") {
			t.Errorf("built-in %s: %v", name, err)
		}
	}
}
