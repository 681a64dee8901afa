package chaintest_test

import (
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/chaintest"
)

// NewAccount makes what its comment says: one key for owner and active,
// eosio.code in active only, 2756 bytes of RAM.
func TestNewAccountShape(t *testing.T) {
	node := chaintest.New(chaintest.WithoutNetwork())
	defer node.Close()
	alice := antelope.MustName("alice")
	key := node.NewAccount(alice)
	pub, _ := key.PublicKey()
	acct, err := node.Client().GetAccount(t.Context(), alice)
	if err != nil {
		t.Fatal(err)
	}
	if acct.RAMUsage != 2756 {
		t.Errorf("ram_usage %d, want 2756", acct.RAMUsage)
	}
	code := antelope.MustName("eosio.code")
	for _, p := range acct.Permissions {
		auth := p.RequiredAuth
		if len(auth.Keys) != 1 || !auth.Keys[0].Key.Equal(pub) {
			t.Errorf("%s: keys %v, want the one key NewAccount returned", p.PermName, auth.Keys)
		}
		hasCode := len(auth.Accounts) == 1 && auth.Accounts[0].Permission == antelope.PermissionLevel{Actor: alice, Permission: code}
		if want := p.PermName == antelope.MustName("active"); hasCode != want {
			t.Errorf("%s: lists eosio.code: %v, want %v", p.PermName, hasCode, want)
		}
	}
}
