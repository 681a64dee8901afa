package exec

import "github.com/antelopego/abigen/chain/chaintest/internal/store"

// The contract tables live in internal/store; these are its types under
// the names execution has always used for them.
type (
	tableID = store.TableID
	row     = store.Row
	secRow  = store.SecRow
	db      = store.DB
)
