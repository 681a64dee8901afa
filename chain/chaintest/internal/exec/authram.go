package exec

import (
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
)

// The RAM nodeos bills for an account and its permissions (leap's
// config.hpp, authority.hpp, permission_object.hpp and
// permission_link_object.hpp): each object's billable_size rounded up to
// billable_alignment, 16 bytes.
const (
	// accountRAM is overhead_per_account_ram_bytes: the account_object,
	// its metadata and resource rows.
	accountRAM = 2 * 1024
	// billablePermission is permission_object (with its usage object):
	// 64 for the shared_authority (3×16 vector overheads + 4 for the
	// threshold = 52, rounded), 64 of fixed fields and 5 indices × 32.
	billablePermission = 64 + 64 + 5*32
	// billableLink is permission_link_object: 40 of fixed fields and 3
	// indices × 32 = 136, rounded to 144.
	billableLink = 144
	// The entries of an authority: key_weight's 8 (rounded to 16) plus the
	// key as stored; permission_level_weight's 24 rounded to 32;
	// wait_weight's 16.
	billableKeyWeight   = 16
	billableLevelWeight = 32
	billableWaitWeight  = 16
)

// authorityRAM is shared_authority::get_billable_size: what an authority's
// keys, accounts and waits add to its permission.
func authorityRAM(auth chain.Authority) int64 {
	n := int64(len(auth.Accounts))*billableLevelWeight + int64(len(auth.Waits))*billableWaitWeight
	for _, k := range auth.Keys {
		n += billableKeyWeight + storedKeySize(k.Key)
	}
	return n
}

// storedKeySize is fc::raw::pack_size of a shared_public_key: the key's
// wire form (a type byte and the key) for K1 and R1; a WebAuthn key is
// kept as a string of its packed form, so its length prefix counts too.
func storedKeySize(k antelope.PublicKey) int64 {
	packed := int64(len(packedKey(k)))
	if k.Type == antelope.KeyWA && packed > 0 {
		packed += int64(len(antelope.AppendVarUint32(nil, uint32(packed-1))))
	}
	return packed
}

// permissionRAM is what nodeos bills for one permission:
// billable_size_v<permission_object> plus its authority's billable size.
func permissionRAM(auth chain.Authority) int64 {
	return billablePermission + authorityRAM(auth)
}

// newAccountRAM is what eosio::newaccount bills the new account (and what
// nodeos bills the accounts it creates at genesis):
// overhead_per_account_ram_bytes and its owner and active permissions.
func newAccountRAM(owner, active chain.Authority) int64 {
	return accountRAM + permissionRAM(owner) + permissionRAM(active)
}

// fixtureRAM bills delta bytes to a, for a change a test helper makes
// outside any transaction (SetPermission, LinkPermission), refusing an
// increase past a's RAM quota as a transaction would be refused.
func (a *Account) fixtureRAM(delta int64) error {
	if delta > 0 && a.RAMQuota >= 0 && a.RAMUsage+delta > a.RAMQuota {
		return fmt.Errorf("chaintest: account %s has insufficient ram; needs %d bytes has %d bytes", a.Name, a.RAMUsage+delta, a.RAMQuota)
	}
	a.RAMUsage += delta
	return nil
}
