package chaintest

// The exceptions of contract execution, with nodeos's codes and
// descriptions (errors.go has those of transaction checks).

func errInvalidIterator(detail string) *exception {
	return &exception{code: 3160003, name: "invalid_table_iterator", what: "Invalid table iterator", detail: detail}
}

func errTableOperation(detail string) *exception {
	return &exception{code: 3160005, name: "table_operation_not_permitted", what: "The table operation is not allowed", detail: detail}
}

func errTableAccess() *exception {
	return &exception{code: 3160002, name: "table_access_violation", what: "Table access violation", detail: "db access violation"}
}

func errInvalidPayer() *exception {
	return &exception{code: 3160001, name: "invalid_table_payer", what: "The payer of the table data is invalid",
		detail: "must specify a valid account to pay for new record"}
}

// errUniqueness is chainbase's refusal of a second row with the same key,
// as nodeos reports the std::logic_error.
func errUniqueness() *exception {
	return &exception{code: 13, name: "std_exception", what: "unspecified",
		detail: "could not insert object, most likely a uniqueness constraint was violated"}
}

func errUnauthorizedRAM(detail string) *exception {
	return &exception{code: 3050010, name: "unauthorized_ram_usage_increase",
		what: "Action attempts to increase RAM usage of account without authorization", detail: detail}
}

func errRAM(detail string) *exception {
	return &exception{code: 3080001, name: "ram_usage_exceeded", what: "Account using more than allotted RAM usage", detail: detail}
}

func errDeadline() *exception {
	return &exception{code: 3080004, name: "tx_cpu_usage_exceeded",
		what: "Transaction exceeded the current CPU usage limit imposed on the transaction", detail: "transaction was executing for too long, reached node configured max-transaction-time (chaintest.WithDeadline)"}
}

func errSetExactCode(detail string) *exception {
	return &exception{code: 3160008, name: "set_exact_code", what: "Contract is already running this version of code", detail: detail}
}

func errPermissionQuery(detail string) *exception {
	return &exception{code: 3060001, name: "permission_query_exception", what: "Permission Query Exception", detail: detail}
}

func errUnknownAccount(detail string) *exception {
	return &exception{code: 3060002, name: "account_query_exception", what: "Account Query Exception", detail: detail}
}

func errReadOnly(detail string) *exception {
	return &exception{code: 3160005, name: "table_operation_not_permitted", what: "The table operation is not allowed", detail: detail}
}

func errActionReturnValue(detail string) *exception {
	return &exception{code: 3050014, name: "action_return_value_exception", what: "action return value size too big", detail: detail}
}

func errProducerSchedule(detail string) *exception {
	return &exception{code: 3070002, name: "wasm_execution_error", what: "Runtime Error Processing WASM", detail: detail}
}
