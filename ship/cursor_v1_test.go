package ship

import (
	"strings"
	"testing"
)

// No chain has a block 0: a first-format cursor naming it is refused, as
// a second-format one is. It loaded, but the cursor it became did not
// load back (the second format refuses block 0), and resumed it would
// have asked the node to rewind to block 0.
func TestOldCursorWithBlockZeroRefused(t *testing.T) {
	for _, nums := range [][]uint32{{0}, {0, 1}} {
		var c Cursor
		err := c.UnmarshalBinary(v1Cursor(nums...))
		if err == nil || !strings.Contains(err.Error(), "block 0") {
			t.Errorf("%v: %v", nums, err)
		}
	}
}
