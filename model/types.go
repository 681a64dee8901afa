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

// BuiltinTypes lists the chain's built-in type names.
var BuiltinTypes = []string{"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
	"int128", "uint128", "varint32", "varuint32", "float32", "float64", "float128",
	"time_point", "time_point_sec", "block_timestamp_type", "name", "bytes", "string",
	"checksum160", "checksum256", "checksum512", "public_key", "private_key", "signature",
	"symbol", "symbol_code", "asset", "extended_asset", "bitset"}

var builtinSet = func() map[string]bool {
	m := map[string]bool{}
	for _, b := range BuiltinTypes {
		m[b] = true
	}
	return m
}()

// IsBuiltin reports whether name is a built-in type.
func IsBuiltin(name string) bool { return builtinSet[name] }
