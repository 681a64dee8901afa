package model

// Kind says what a Type is.
type Kind uint8

// The kinds of type.
const (
	Builtin     Kind = iota // one of the chain's built-in types, by Name
	StructKind              // a struct, in Struct
	VariantKind             // a variant, in Variant
	AliasKind               // a typedef, in Alias; Elem is its target
	Array                   // T[]: Elem
	FixedArray              // T[N]: Elem, Len
	Optional                // T?: Elem
)

// Type is a node of the resolved type graph. Types are interned: one ABI
// spelling gives one *Type.
type Type struct {
	Kind    Kind     // what the type is
	Name    string   // the ABI spelling: "uint64", "jobs_a", "uint8[]", "vec_uint16[]"
	Elem    *Type    // element, target or optional type
	Len     int      // for FixedArray
	Struct  *Struct  // for StructKind
	Variant *Variant // for VariantKind
	Alias   *Alias   // for AliasKind
}

// Resolved follows typedefs to the type they stand for.
func (t *Type) Resolved() *Type {
	for t.Kind == AliasKind {
		t = t.Elem
	}
	return t
}

// Struct is a resolved struct.
type Struct struct {
	Name   string   // the struct name
	Base   *Struct  // nil when the struct has no base
	Fields []*Field // own fields (AllFields adds the base)
	// ExtensionTail is set when encoding may stop early at the end of this
	// struct: it has binary-extension fields, or its last field is a struct
	// or variant that may stop early.
	ExtensionTail bool
	// MinSize is the smallest binary encoding of a value, capped at 1 MiB
	// (see MinSize), set when the model is resolved.
	MinSize int
}

// AllFields lists the base's fields (recursively) then the struct's own, in
// encoding order.
func (s *Struct) AllFields() []*Field {
	if s.Base == nil {
		return s.Fields
	}
	return append(append([]*Field{}, s.Base.AllFields()...), s.Fields...)
}

// Field is one field of a struct.
type Field struct {
	Name      string // the field name
	Type      *Type  // without the "$"
	Extension bool   // declared with a trailing "$": may be absent at the end of the data
}

// Variant is a resolved variant.
type Variant struct {
	Name    string  // the variant name
	Members []*Type // as listed; Members[i].Name is the name JSON uses
	// ExtensionTail is set when a member's encoding may stop early, which
	// it may where the variant ends the encoded value.
	ExtensionTail bool
}

// Alias is a resolved typedef.
type Alias struct {
	Name   string // the typedef name
	Target *Type  // the type it names
}

// Action is an action and the type of its data.
type Action struct {
	Name      string // the action name, valid as an antelope.Name
	Type      *Type  // its payload type
	Ricardian string // the action's ricardian text
}

// Table is a table and the type of its rows.
type Table struct {
	Name      string   // the table name
	IndexType string   // usually "i64"
	KeyNames  []string // informative
	KeyTypes  []string // informative
	Type      *Type    // the row type
}

// ActionResult is the type an action returns (ABI 1.2).
type ActionResult struct {
	Name string // the action
	Type *Type  // the type it returns
}

// Model is a validated ABI with every type resolved. Slices keep the ABI's
// order.
type Model struct {
	Version       string          // "eosio::abi/1.x"
	Structs       []*Struct       // structs
	Variants      []*Variant      // variants
	Aliases       []*Alias        // typedefs
	Actions       []*Action       // actions
	Tables        []*Table        // tables
	ActionResults []*ActionResult // ABI 1.2 results
	Clauses       []ClausePair    // ricardian clauses
	ErrorMessages []ErrorMessage  // error codes and messages
	// Warnings are problems that do not stop generation, such as a table
	// name nodeos could not load on chain.
	Warnings []string
}

// builtinTable lists the chain's built-in types with the smallest binary
// encoding of each and whether every encoding is exactly that size with
// any bytes a valid value (integers, floats, times, checksums): the one
// list the rest of the module's built-in tables are tested against.
var builtinTable = []struct {
	name    string
	minSize int
	plain   bool
}{
	{"bool", 1, false}, {"int8", 1, true}, {"uint8", 1, true}, {"int16", 2, true}, {"uint16", 2, true},
	{"int32", 4, true}, {"uint32", 4, true}, {"int64", 8, true}, {"uint64", 8, true},
	{"int128", 16, true}, {"uint128", 16, true}, {"varint32", 1, false}, {"varuint32", 1, false},
	{"float32", 4, true}, {"float64", 8, true}, {"float128", 16, true},
	{"time_point", 8, true}, {"time_point_sec", 4, true}, {"block_timestamp_type", 4, true},
	{"name", 8, true}, {"bytes", 1, false}, {"string", 1, false},
	{"checksum160", 20, true}, {"checksum256", 32, true}, {"checksum512", 64, true},
	{"public_key", 34, false}, {"private_key", 33, false}, {"signature", 66, false},
	{"symbol", 8, false}, {"symbol_code", 8, false}, {"asset", 16, false}, {"extended_asset", 24, false},
	{"bitset", 1, false},
}

// BuiltinTypes lists the chain's built-in type names.
var BuiltinTypes = func() []string {
	out := make([]string, len(builtinTable))
	for i, b := range builtinTable {
		out[i] = b.name
	}
	return out
}()

// builtinIndex maps a built-in type's name to its row of builtinTable.
var builtinIndex = func() map[string]int {
	m := map[string]int{}
	for i, b := range builtinTable {
		m[b.name] = i
	}
	return m
}()

// IsBuiltin reports whether name is a built-in type.
func IsBuiltin(name string) bool {
	_, ok := builtinIndex[name]
	return ok
}
