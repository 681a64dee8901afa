package nodeosapi

// Envelope is nodeos's error answer.
type Envelope struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Error   ErrorInfo `json:"error"`
}

// ErrorInfo is the exception an Envelope carries.
type ErrorInfo struct {
	Code    int64         `json:"code"`
	Name    string        `json:"name"`
	What    string        `json:"what"`
	Details []ErrorDetail `json:"details"`
}

// ErrorDetail is one of an exception's details.
type ErrorDetail struct {
	Message    string `json:"message"`
	File       string `json:"file"`
	LineNumber int    `json:"line_number"`
	Method     string `json:"method"`
}

// Error is an error answer as nodeos's http_plugin words it: the HTTP
// status repeated as code, its category, and the exception.
func Error(status int, category string, code int64, name, what, detail string) (int, any) {
	return status, Envelope{Code: status, Message: category, Error: ErrorInfo{Code: code, Name: name, What: what,
		Details: []ErrorDetail{{Message: detail, File: "chaintest", LineNumber: 1, Method: name}}}}
}

// BadRequest is nodeos's answer to a request it cannot parse
// (invalid_http_request), with detail.
func BadRequest(detail string) (int, any) {
	return Error(400, "Invalid Request", 3200006, "invalid_http_request", "invalid http request", detail)
}

// TableQueryError is nodeos's contract_table_query_exception, with detail.
func TableQueryError(detail string) (int, any) {
	return Error(500, "Internal Service Error", 3060003, "contract_table_query_exception", "Contract Table Query Exception", detail)
}
