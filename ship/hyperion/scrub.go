package hyperion

import "github.com/antelopego/abigen/chain/httpcore"

// A node, or a gateway before it, may echo a request's API key in an
// answer this package cannot read; the text of an answer only reaches an
// error scrubbed of every registered secret (httpcore.AddSecret), as the
// transport already does for error statuses.

// scrubbedError is an error whose text has the registered secrets
// replaced; errors.As and errors.Is still see what it wraps.
type scrubbedError struct{ err error }

func (e *scrubbedError) Error() string { return httpcore.Scrub(e.err.Error()) }
func (e *scrubbedError) Unwrap() error { return e.err }

// scrubbed wraps err, unless nil.
func scrubbed(err error) error {
	if err == nil {
		return nil
	}
	return &scrubbedError{err}
}

// ParseCreator reads a get_creator answer.
func ParseCreator(body []byte) (*Creator, error) {
	v, err := parseCreator(body)
	return v, scrubbed(err)
}

// ParseCreatedAccounts reads a get_created_accounts answer.
func ParseCreatedAccounts(body []byte) ([]CreatedAccount, error) {
	v, err := parseCreatedAccounts(body)
	return v, scrubbed(err)
}

// ParseActions reads a get_actions answer.
func ParseActions(body []byte) (*ActionsPage, error) {
	v, err := parseActions(body)
	return v, scrubbed(err)
}

// ParseDeltas reads a get_deltas answer.
func ParseDeltas(body []byte) (*DeltasPage, error) {
	v, err := parseDeltas(body)
	return v, scrubbed(err)
}

// ParseTransaction reads a get_transaction answer.
func ParseTransaction(body []byte) (*Transaction, error) {
	v, err := parseTransaction(body)
	return v, scrubbed(err)
}

// ParseTokens reads a get_tokens answer.
func ParseTokens(body []byte) ([]Token, error) {
	v, err := parseTokens(body)
	return v, scrubbed(err)
}

// ParseHealth reads a /v2/health answer.
func ParseHealth(body []byte) (*Health, error) {
	v, err := parseHealth(body)
	return v, scrubbed(err)
}
