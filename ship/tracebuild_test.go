package ship

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// TestSetAuthorizationRoundTrip: what the setters store, the accessors
// give back, for random lists (empty included).
func TestSetAuthorizationRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		levels := make([]antelope.PermissionLevel, r.IntN(5))
		seq := map[antelope.Name]uint64{}
		for i := range levels {
			levels[i] = antelope.PermissionLevel{Actor: antelope.Name(r.Uint64()), Permission: antelope.Name(r.Uint64())}
			seq[levels[i].Actor] = r.Uint64()
		}
		var a ActionTrace
		a.SetAuthorization(levels)
		a.SetAuthSequence(seq)
		if got := a.Authorization(); !reflect.DeepEqual(got, levels) {
			t.Fatalf("Authorization() = %v, want %v", got, levels)
		}
		if got := a.AuthSequence(); !reflect.DeepEqual(got, seq) {
			t.Fatalf("AuthSequence() = %v, want %v", got, seq)
		}
	}
}
