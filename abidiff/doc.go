// Package abidiff judges what changed between two versions of a contract's
// ABI, and whom it breaks. Contracts are upgraded in place: rows already
// stored keep their old bytes, and clients keep sending the old payloads.
// Compare classifies each difference:
//
//   - breaks stored data: a table's row type changed so that stored rows no
//     longer decode (a field removed, inserted before the end, reordered,
//     retyped, or appended without the "$" binary-extension marker);
//   - breaks senders: an action's payload changed the same way, an action
//     was removed or renamed, a result type changed;
//   - breaks Go code: the regenerated bindings lose or retype a name user
//     code uses (read from the Go API of bindings generated from each);
//   - compatible: binary extensions appended, a variant alternative
//     appended, new actions, tables and types, ricardian text, error
//     messages.
//
// Types are judged by their encoded bytes, not their spelling: an alias of
// the same type, uint64 for name, bytes for uint8[] are no change; a field
// renamed with the same type keeps stored bytes but breaks JSON senders.
// Declarations are matched by name, so reordering them is no change.
package abidiff
