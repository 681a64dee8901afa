package antelope

// Typed actions: a generated package describes each action as an ActionOf
// its data type, as it describes each table as a TableOf its row type, so
// that a stream of a contract's actions (package ship) can pick and decode
// them in one line:
//
//	for ev, err := range ship.Actions(stream, eosiotoken.Actions.Transfer) { … }
//
// The descriptor is pure data plus a decoder: no I/O.

// ActionOf describes the action Name of the contract at Account, whose data
// is T (P is *T): what a generated package's Actions.<Name> holds.
type ActionOf[T any, P interface {
	*T
	BinaryDecodable
}] struct {
	Account Name   // the contract account; 0 when the ABI named none (see In)
	Name    Name   // the action name
	Type    string // the ABI type of its data
}

// In returns the action of the contract deployed at account.
func (a ActionOf[T, P]) In(account Name) ActionOf[T, P] {
	a.Account = account
	return a
}

// Decode decodes an action's data, which must hold exactly one T.
func (a ActionOf[T, P]) Decode(data []byte) (T, error) {
	v, err := decodeAs[T, P](data)
	if err != nil {
		return v, AtField(err, a.Name.String())
	}
	return v, nil
}

// Decode decodes a row's value, which must hold exactly one T.
func (t TableOf[T, P]) Decode(data []byte) (T, error) {
	v, err := decodeAs[T, P](data)
	if err != nil {
		return v, AtField(err, t.Name)
	}
	return v, nil
}

func decodeAs[T any, P interface {
	*T
	BinaryDecodable
}](data []byte) (T, error) {
	var v T
	d := Decoder{data: data}
	err := P(&v).DecodeBinary(&d)
	if err == nil {
		err = d.Finish()
	}
	if err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}
