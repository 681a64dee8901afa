package chain

import "net/http"

// The outcome table: for every exception a node can answer a send with,
// the stage of handling the send it can come from, read in spring's source
// (AntelopeIO/spring, libraries/chain/include/eosio/chain/exceptions.hpp
// for the codes, libfc's fc/exception/exception.hpp for fc's own), and so
// what it proves. The client's rule (ProvesNotExecuted) is read from it and
// nothing else: an exception that is not in it, or whose name is not the
// one spring gives its code, proves nothing.

// stage is where in the handling of a send an exception can be raised.
type stage uint8

const (
	// stageUnknown: nothing in spring's source ties it to a stage of a
	// send (node internals, generic wrappers): it may come after the
	// transaction was executed.
	stageUnknown stage = iota
	// stageBefore: raised before the transaction runs (the request is
	// read, the producer declines it): nothing was executed.
	stageBefore
	// stageDuring: raised while the transaction runs; the controller
	// rolls back everything it did: nothing was executed.
	stageDuring
	// stageEither: raised before the transaction runs on one path and
	// after it ran on another: it proves nothing either way.
	stageEither
)

// String names the stage.
func (s stage) String() string {
	switch s {
	case stageBefore:
		return "before execution"
	case stageDuring:
		return "during execution (rolled back)"
	case stageEither:
		return "before or after execution"
	}
	return "unknown"
}

// refuses reports whether an answer raised at s proves nothing was
// executed: only before or during execution.
func (s stage) refuses() bool { return s == stageBefore || s == stageDuring }

// Where each stage is read in spring's source (file: function).
const (
	srcRoot         = "exceptions.hpp: chain_exception, the root every chain exception derives from; raised as itself nowhere a send's stage is known"
	srcChainType    = "chain_plugin.cpp api_base::send_transaction_gen: the request is unpacked (abi_serializer::from_variant, EOS_RETHROW_EXCEPTIONS packed_transaction_type_exception) before transaction_async; native actions unpack the same types while executing"
	srcABI          = "chain_plugin.cpp api_base::send_transaction_gen: the trace is printed with abi_serializer::to_variant after execution (spring falls back to the raw trace on abi_exception, the nodes before it did not); setabi validates an ABI while executing"
	srcNode         = "raised by the node's own machinery (fork database, block log, plugins, wallet, snapshots, finalizers), not by a stage of handling a send"
	srcTxCheck      = "controller.cpp push_transaction (validate_expiration, validate_tapos) / transaction_context.cpp init, record_transaction: checks of a transaction while it is applied, which roll it back"
	srcApply        = "apply_context.cpp exec_one / transaction_context.cpp exec: raised by a contract, a native action or a database guard while executing; the transaction is rolled back"
	srcResources    = "transaction_context.cpp checktime, validate_cpu_usage_to_bill, finalize: billing limits checked while the transaction runs and before it commits; producer_plugin.cpp push_transaction refuses a subjectively billed account before"
	srcAuth         = "authorization_manager.cpp check_authorization, called by controller.cpp push_transaction before the actions run"
	srcLists        = "controller.cpp check_actor_list / check_contract_list / check_action_list: white- and blacklists checked while the transaction is applied"
	srcSignal       = "controller.cpp emit: raised while a block's signals are emitted, which can be after the transaction was accepted"
	srcExpired      = "producer_plugin.cpp process_incoming_transaction_async and unapplied_transaction_queue.hpp clear_expired refuse it before execution; trx_retry_db.cpp clear_expired answers it after a retry_trx transaction was executed and dropped; process_incoming_transaction_async checks the expiration before is_known_unexpired_transaction, so it answers it for bytes an earlier send executed"
	srcRetryExp     = "chain_plugin.cpp api_base::send_transaction_gen: EOS_ASSERT of the retry_trx expiration before transaction_async; transaction_context.cpp init before any action"
	srcDuplicate    = "producer_plugin.cpp process_incoming_transaction_async (known unexpired: executed) and unapplied_transaction_queue.hpp add_incoming (only queued, may still expire unexecuted)"
	srcExhaustion   = "unapplied_transaction_queue.hpp added: the incoming queue is full, before execution; trx_retry_db.cpp track_transaction: the retry store is full, after chain_plugin.cpp send_transaction_gen executed and relayed the transaction"
	srcInterrupt    = "producer_plugin.cpp (interrupted transactions are retried) / controller.cpp: an interrupted transaction goes back to the queue and may still be executed"
	srcUnknownBlock = "http_plugin.cpp handle_exception answers it 400 Unknown Block: a read of a block the node does not have, never a send's outcome"
	srcSubjective   = "apply_context.cpp execute_inline / schedule_deferred_transaction: an inline action or deferred transaction to self fails its authorization check while the transaction runs; it is rolled back"
	srcUnsupported  = "chain_plugin.cpp api_base::send_transaction_gen: EOS_ASSERT retry_trx without trx_retry_db, before transaction_async"
	srcParse        = "http_plugin.cpp: the request body is parsed (fc::json) before any API runs"
	srcHTTPRequest  = "http_plugin.cpp handle_exception answers it 400 Invalid Request: the request is refused before any API runs"
	srcDelayed      = "producer_plugin.cpp on_incoming_transaction_async: EOS_ASSERT transaction_exception \"transaction cannot be delayed\" before execution; transaction_context.cpp init"
	srcEOF          = "http_plugin.cpp handle_exception answers fc::eof_exception 422 Unable to parse arguments, before any API runs"
	srcFCPlain      = "apply_context.cpp exec_one rethrows a contract's or native action's fc exception (fc::datastream's out_of_range reading action data) while executing; after execution abi_serializer.cpp _binary_to_variant wraps them in unpack_exception (an abi_exception)"
	srcFCOpen       = "libfc exception.hpp: a generic wrapper; exceptions.hpp CATCH_AND_CALL turns any std::exception into it, in send_transaction_gen after execution too"
	srcTimeout      = "http_plugin.cpp: http-max-response-time-ms raises fc::timeout_exception, which can strike while the answer of an executed transaction is written"
)

// outcomeRule is one exception of the outcome table.
type outcomeRule struct {
	code   int64  // spring's code (error.code)
	name   string // spring's name for it (error.name)
	stage  stage  // where a send can meet it
	source string // where that is read in spring's source
}

// outcomeTable has every code of spring's exceptions.hpp and libfc's
// exception.hpp (testdata/spring-exceptions.txt lists them, and a test
// holds the table to that list).
var outcomeTable = []outcomeRule{
	{0, "exception", stageUnknown, srcFCOpen},
	{1, "unhandled_exception", stageUnknown, srcFCOpen},
	{2, "timeout_exception", stageUnknown, srcTimeout},
	{3, "file_not_found_exception", stageUnknown, srcFCOpen},
	{4, "parse_error_exception", stageBefore, srcParse},
	{5, "invalid_arg_exception", stageDuring, srcFCPlain},
	{6, "key_not_found_exception", stageDuring, srcFCPlain},
	{7, "bad_cast_exception", stageDuring, srcFCPlain},
	{8, "out_of_range_exception", stageDuring, srcFCPlain},
	{9, "canceled_exception", stageUnknown, srcFCOpen},
	{10, "assert_exception", stageDuring, srcFCPlain},
	{11, "eof_exception", stageBefore, srcEOF},
	{13, "std_exception", stageUnknown, srcFCOpen},
	{14, "invalid_operation_exception", stageDuring, srcFCPlain},
	{15, "unknown_host_exception", stageUnknown, srcFCOpen},
	{16, "null_optional", stageDuring, srcFCPlain},
	{17, "udt_exception", stageUnknown, srcFCOpen},
	{18, "aes_exception", stageUnknown, srcFCOpen},
	{19, "overflow_exception", stageDuring, srcFCPlain},
	{20, "underflow_exception", stageDuring, srcFCPlain},
	{21, "divide_by_zero_exception", stageDuring, srcFCPlain},
	{3000000, "chain_exception", stageUnknown, srcRoot},
	{3010000, "chain_type_exception", stageBefore, srcChainType},
	{3010001, "name_type_exception", stageBefore, srcChainType},
	{3010002, "public_key_type_exception", stageBefore, srcChainType},
	{3010003, "private_key_type_exception", stageBefore, srcChainType},
	{3010004, "authority_type_exception", stageBefore, srcChainType},
	{3010005, "action_type_exception", stageBefore, srcChainType},
	{3010006, "transaction_type_exception", stageBefore, srcChainType},
	{3010007, "abi_type_exception", stageBefore, srcChainType},
	{3010008, "block_id_type_exception", stageBefore, srcChainType},
	{3010009, "transaction_id_type_exception", stageBefore, srcChainType},
	{3010010, "packed_transaction_type_exception", stageBefore, srcChainType},
	{3010011, "asset_type_exception", stageBefore, srcChainType},
	{3010012, "chain_id_type_exception", stageBefore, srcChainType},
	{3010013, "fixed_key_type_exception", stageBefore, srcChainType},
	{3010014, "symbol_type_exception", stageBefore, srcChainType},
	{3010015, "unactivated_key_type", stageBefore, srcChainType},
	{3010016, "unactivated_signature_type", stageBefore, srcChainType},
	{3020000, "fork_database_exception", stageUnknown, srcNode},
	{3020001, "fork_db_block_not_found", stageUnknown, srcNode},
	{3030000, "block_validate_exception", stageUnknown, srcNode},
	{3030001, "unlinkable_block_exception", stageUnknown, srcNode},
	{3030002, "block_tx_output_exception", stageUnknown, srcNode},
	{3030003, "block_concurrency_exception", stageUnknown, srcNode},
	{3030004, "block_lock_exception", stageUnknown, srcNode},
	{3030005, "block_resource_exhausted", stageUnknown, srcNode},
	{3030006, "block_too_old_exception", stageUnknown, srcNode},
	{3030007, "block_from_the_future", stageUnknown, srcNode},
	{3030008, "wrong_signing_key", stageUnknown, srcNode},
	{3030009, "wrong_producer", stageUnknown, srcNode},
	{3030010, "invalid_block_header_extension", stageUnknown, srcNode},
	{3030011, "ill_formed_protocol_feature_activation", stageUnknown, srcNode},
	{3030012, "invalid_block_extension", stageUnknown, srcNode},
	{3030013, "ill_formed_additional_block_signatures_extension", stageUnknown, srcNode},
	{3030014, "invalid_qc_claim", stageUnknown, srcNode},
	{3030015, "invalid_qc", stageUnknown, srcNode},
	{3030016, "invalid_qc_signature", stageUnknown, srcNode},
	{3040000, "transaction_exception", stageBefore, srcDelayed},
	{3040001, "tx_decompression_error", stageDuring, srcTxCheck},
	{3040002, "tx_no_action", stageDuring, srcTxCheck},
	{3040003, "tx_no_auths", stageDuring, srcTxCheck},
	{3040004, "cfa_irrelevant_auth", stageDuring, srcTxCheck},
	{3040005, "expired_tx_exception", stageEither, srcExpired},
	{3040006, "tx_exp_too_far_exception", stageBefore, srcRetryExp},
	{3040007, "invalid_ref_block_exception", stageDuring, srcTxCheck},
	{3040008, "tx_duplicate", stageEither, srcDuplicate},
	{3040009, "deferred_tx_duplicate", stageDuring, srcTxCheck},
	{3040010, "cfa_inside_generated_tx", stageDuring, srcTxCheck},
	{3040011, "tx_not_found", stageDuring, srcTxCheck},
	{3040012, "too_many_tx_at_once", stageDuring, srcTxCheck},
	{3040013, "tx_too_big", stageDuring, srcTxCheck},
	{3040014, "unknown_transaction_compression", stageDuring, srcTxCheck},
	{3040015, "invalid_transaction_extension", stageDuring, srcTxCheck},
	{3040016, "ill_formed_deferred_transaction_generation_context", stageDuring, srcTxCheck},
	{3040017, "disallowed_transaction_extensions_bad_block_exception", stageDuring, srcTxCheck},
	{3040018, "tx_resource_exhaustion", stageEither, srcExhaustion},
	{3050000, "action_validate_exception", stageDuring, srcApply},
	{3050001, "account_name_exists_exception", stageDuring, srcApply},
	{3050002, "invalid_action_args_exception", stageDuring, srcApply},
	{3050003, "eosio_assert_message_exception", stageDuring, srcApply},
	{3050004, "eosio_assert_code_exception", stageDuring, srcApply},
	{3050005, "action_not_found_exception", stageDuring, srcApply},
	{3050006, "action_data_and_struct_mismatch", stageDuring, srcApply},
	{3050007, "unaccessible_api", stageDuring, srcApply},
	{3050008, "abort_called", stageDuring, srcApply},
	{3050009, "inline_action_too_big", stageDuring, srcApply},
	{3050010, "unauthorized_ram_usage_increase", stageDuring, srcApply},
	{3050011, "restricted_error_code_exception", stageDuring, srcApply},
	{3050014, "action_return_value_exception", stageDuring, srcApply},
	{3060000, "database_exception", stageDuring, srcApply},
	{3060001, "permission_query_exception", stageDuring, srcApply},
	{3060002, "account_query_exception", stageDuring, srcApply},
	{3060003, "contract_table_query_exception", stageDuring, srcApply},
	{3060004, "contract_query_exception", stageDuring, srcApply},
	{3060005, "bad_database_version_exception", stageDuring, srcApply},
	{3060100, "guard_exception", stageDuring, srcApply},
	{3060101, "database_guard_exception", stageDuring, srcApply},
	{3070000, "wasm_exception", stageDuring, srcApply},
	{3070001, "page_memory_error", stageDuring, srcApply},
	{3070002, "wasm_execution_error", stageDuring, srcApply},
	{3070003, "wasm_serialization_error", stageDuring, srcApply},
	{3070004, "overlapping_memory_error", stageDuring, srcApply},
	{3070005, "binaryen_exception", stageDuring, srcApply},
	{3080000, "resource_exhausted_exception", stageDuring, srcResources},
	{3080001, "ram_usage_exceeded", stageDuring, srcResources},
	{3080002, "tx_net_usage_exceeded", stageDuring, srcResources},
	{3080003, "block_net_usage_exceeded", stageDuring, srcResources},
	{3080004, "tx_cpu_usage_exceeded", stageDuring, srcResources},
	{3080005, "block_cpu_usage_exceeded", stageDuring, srcResources},
	{3080006, "deadline_exception", stageDuring, srcResources},
	{3081001, "leeway_deadline_exception", stageDuring, srcResources},
	{3080007, "greylist_net_usage_exceeded", stageDuring, srcResources},
	{3080008, "greylist_cpu_usage_exceeded", stageDuring, srcResources},
	{3080009, "ro_trx_vm_oc_compile_temporary_failure", stageDuring, srcResources},
	{3080010, "ro_trx_vm_oc_compile_permanent_failure", stageDuring, srcResources},
	{3080011, "interrupt_exception", stageUnknown, srcInterrupt},
	{3080012, "interrupt_oc_exception", stageUnknown, srcInterrupt},
	{3090000, "authorization_exception", stageDuring, srcAuth},
	{3090001, "tx_duplicate_sig", stageDuring, srcAuth},
	{3090002, "tx_irrelevant_sig", stageDuring, srcAuth},
	{3090003, "unsatisfied_authorization", stageDuring, srcAuth},
	{3090004, "missing_auth_exception", stageDuring, srcAuth},
	{3090005, "irrelevant_auth_exception", stageDuring, srcAuth},
	{3090006, "insufficient_delay_exception", stageDuring, srcAuth},
	{3090007, "invalid_permission", stageDuring, srcAuth},
	{3090008, "unlinkable_min_permission_action", stageDuring, srcAuth},
	{3090009, "invalid_parent_permission", stageDuring, srcAuth},
	{3100000, "misc_exception", stageUnknown, srcNode},
	{3100001, "rate_limiting_state_inconsistent", stageUnknown, srcNode},
	{3100002, "unknown_block_exception", stageBefore, srcUnknownBlock},
	{3100003, "unknown_transaction_exception", stageUnknown, srcNode},
	{3100004, "fixed_reversible_db_exception", stageUnknown, srcNode},
	{3100005, "extract_genesis_state_exception", stageUnknown, srcNode},
	{3100006, "subjective_block_production_exception", stageDuring, srcSubjective},
	{3100007, "multiple_voter_info", stageUnknown, srcNode},
	{3100008, "unsupported_feature", stageBefore, srcUnsupported},
	{3100009, "node_management_success", stageUnknown, srcNode},
	{3100010, "json_parse_exception", stageBefore, srcParse},
	{3100011, "sig_variable_size_limit_exception", stageUnknown, srcNode},
	{3110000, "plugin_exception", stageUnknown, srcNode},
	{3110001, "missing_chain_api_plugin_exception", stageUnknown, srcNode},
	{3110002, "missing_wallet_api_plugin_exception", stageUnknown, srcNode},
	{3110003, "missing_history_api_plugin_exception", stageUnknown, srcNode},
	{3110004, "missing_net_api_plugin_exception", stageUnknown, srcNode},
	{3110005, "missing_chain_plugin_exception", stageUnknown, srcNode},
	{3110006, "plugin_config_exception", stageUnknown, srcNode},
	{3110007, "missing_trace_api_plugin_exception", stageUnknown, srcNode},
	{3120000, "wallet_exception", stageUnknown, srcNode},
	{3120001, "wallet_exist_exception", stageUnknown, srcNode},
	{3120002, "wallet_nonexistent_exception", stageUnknown, srcNode},
	{3120003, "wallet_locked_exception", stageUnknown, srcNode},
	{3120004, "wallet_missing_pub_key_exception", stageUnknown, srcNode},
	{3120005, "wallet_invalid_password_exception", stageUnknown, srcNode},
	{3120006, "wallet_not_available_exception", stageUnknown, srcNode},
	{3120007, "wallet_unlocked_exception", stageUnknown, srcNode},
	{3120008, "key_exist_exception", stageUnknown, srcNode},
	{3120009, "key_nonexistent_exception", stageUnknown, srcNode},
	{3120010, "unsupported_key_type_exception", stageUnknown, srcNode},
	{3120011, "invalid_lock_timeout_exception", stageUnknown, srcNode},
	{3120012, "secure_enclave_exception", stageUnknown, srcNode},
	{3130000, "whitelist_blacklist_exception", stageDuring, srcLists},
	{3130001, "actor_whitelist_exception", stageDuring, srcLists},
	{3130002, "actor_blacklist_exception", stageDuring, srcLists},
	{3130003, "contract_whitelist_exception", stageDuring, srcLists},
	{3130004, "contract_blacklist_exception", stageDuring, srcLists},
	{3130005, "action_blacklist_exception", stageDuring, srcLists},
	{3130006, "key_blacklist_exception", stageDuring, srcLists},
	{3140000, "controller_emit_signal_exception", stageUnknown, srcSignal},
	{3140001, "checkpoint_exception", stageUnknown, srcSignal},
	{3140002, "state_history_write_exception", stageUnknown, srcSignal},
	{3015000, "abi_exception", stageEither, srcABI},
	{3015001, "abi_not_found_exception", stageEither, srcABI},
	{3015002, "invalid_ricardian_clause_exception", stageEither, srcABI},
	{3015003, "invalid_ricardian_action_exception", stageEither, srcABI},
	{3015004, "invalid_type_inside_abi", stageEither, srcABI},
	{3015005, "duplicate_abi_type_def_exception", stageEither, srcABI},
	{3015006, "duplicate_abi_struct_def_exception", stageEither, srcABI},
	{3015007, "duplicate_abi_action_def_exception", stageEither, srcABI},
	{3015008, "duplicate_abi_table_def_exception", stageEither, srcABI},
	{3015009, "duplicate_abi_err_msg_def_exception", stageEither, srcABI},
	{3015010, "abi_serialization_deadline_exception", stageEither, srcABI},
	{3015011, "abi_recursion_depth_exception", stageEither, srcABI},
	{3015012, "abi_circular_def_exception", stageEither, srcABI},
	{3015013, "unpack_exception", stageEither, srcABI},
	{3015014, "pack_exception", stageEither, srcABI},
	{3015015, "duplicate_abi_variant_def_exception", stageEither, srcABI},
	{3015016, "unsupported_abi_version_exception", stageEither, srcABI},
	{3015017, "duplicate_abi_action_results_def_exception", stageEither, srcABI},
	{3160000, "contract_exception", stageDuring, srcApply},
	{3160001, "invalid_table_payer", stageDuring, srcApply},
	{3160002, "table_access_violation", stageDuring, srcApply},
	{3160003, "invalid_table_iterator", stageDuring, srcApply},
	{3160004, "table_not_in_cache", stageDuring, srcApply},
	{3160005, "table_operation_not_permitted", stageDuring, srcApply},
	{3160006, "invalid_contract_vm_type", stageDuring, srcApply},
	{3160007, "invalid_contract_vm_version", stageDuring, srcApply},
	{3160008, "set_exact_code", stageDuring, srcApply},
	{3160009, "wasm_file_not_found", stageDuring, srcApply},
	{3160010, "abi_file_not_found", stageDuring, srcApply},
	{3160015, "wasm_config_unknown_version", stageDuring, srcApply},
	{3160016, "config_parse_error", stageDuring, srcApply},
	{3170000, "producer_exception", stageUnknown, srcNode},
	{3170001, "producer_priv_key_not_found", stageUnknown, srcNode},
	{3170002, "missing_pending_block_state", stageUnknown, srcNode},
	{3170003, "producer_double_confirm", stageUnknown, srcNode},
	{3170004, "producer_schedule_exception", stageUnknown, srcNode},
	{3170006, "producer_not_in_schedule", stageUnknown, srcNode},
	{3170007, "snapshot_directory_not_found_exception", stageUnknown, srcNode},
	{3170008, "snapshot_exists_exception", stageUnknown, srcNode},
	{3170009, "snapshot_finalization_exception", stageUnknown, srcNode},
	{3170010, "invalid_protocol_features_to_activate", stageUnknown, srcNode},
	{3170011, "no_block_signatures", stageUnknown, srcNode},
	{3170012, "unsupported_multiple_block_signatures", stageUnknown, srcNode},
	{3170013, "duplicate_snapshot_request", stageUnknown, srcNode},
	{3170014, "snapshot_request_not_found", stageUnknown, srcNode},
	{3170015, "invalid_snapshot_request", stageUnknown, srcNode},
	{3170016, "snapshot_execution_exception", stageUnknown, srcNode},
	{3170017, "invalid_pause_at_block_request", stageUnknown, srcNode},
	{3180000, "reversible_blocks_exception", stageUnknown, srcNode},
	{3180001, "invalid_reversible_blocks_dir", stageUnknown, srcNode},
	{3180002, "reversible_blocks_backup_dir_exist", stageUnknown, srcNode},
	{3180003, "gap_in_reversible_blocks_db", stageUnknown, srcNode},
	{3190000, "block_log_exception", stageUnknown, srcNode},
	{3190001, "block_log_unsupported_version", stageUnknown, srcNode},
	{3190002, "block_log_append_fail", stageUnknown, srcNode},
	{3190003, "block_log_not_found", stageUnknown, srcNode},
	{3190004, "block_log_backup_dir_exist", stageUnknown, srcNode},
	{3190005, "block_index_not_found", stageUnknown, srcNode},
	{3200000, "http_exception", stageUnknown, srcNode},
	{3200001, "invalid_http_client_root_cert", stageUnknown, srcNode},
	{3200002, "invalid_http_response", stageUnknown, srcNode},
	{3200003, "resolved_to_multiple_ports", stageUnknown, srcNode},
	{3200004, "fail_to_resolve_host", stageUnknown, srcNode},
	{3200005, "http_request_fail", stageUnknown, srcNode},
	{3200006, "invalid_http_request", stageBefore, srcHTTPRequest},
	{3210000, "resource_limit_exception", stageUnknown, srcNode},
	{3230000, "contract_api_exception", stageDuring, srcApply},
	{3230001, "crypto_api_exception", stageDuring, srcApply},
	{3230002, "db_api_exception", stageDuring, srcApply},
	{3230003, "arithmetic_exception", stageDuring, srcApply},
	{3240000, "snapshot_exception", stageUnknown, srcNode},
	{3240001, "snapshot_validation_exception", stageUnknown, srcNode},
	{3250000, "protocol_feature_exception", stageUnknown, srcNode},
	{3250001, "protocol_feature_validation_exception", stageUnknown, srcNode},
	{3250002, "protocol_feature_bad_block_exception", stageUnknown, srcNode},
	{3250003, "protocol_feature_iterator_exception", stageUnknown, srcNode},
	{3260000, "finalizer_exception", stageUnknown, srcNode},
	{3260001, "finalizer_safety_exception", stageUnknown, srcNode},
}

// outcomeByCode indexes outcomeTable.
var outcomeByCode = func() map[int64]*outcomeRule {
	m := make(map[int64]*outcomeRule, len(outcomeTable))
	for i := range outcomeTable {
		m[outcomeTable[i].code] = &outcomeTable[i]
	}
	return m
}()

// chaintestRule is the one exception of this project's own node,
// chain/chaintest, that spring does not have: a fork of a live chain that
// cannot fill what a transaction looked up (internal/fork, exec.ForkError) fails the
// transaction while it runs, and rolls it back as nodeos rolls back any
// exception raised while executing. Its code is one spring leaves unused.
var chaintestRule = outcomeRule{3069900, "chaintest_fork_exception", stageDuring,
	"chain/chaintest internal/fork exec.ForkError: raised while the transaction runs on a fork; the transaction is rolled back"}

// ruleFor is the table's rule for a node's exception, or nil when the
// table does not have the code, or spring gives the code another name
// (a node or proxy that says something spring never says proves nothing).
func ruleFor(code int64, name string) *outcomeRule {
	r := outcomeByCode[code]
	if r == nil && code == chaintestRule.code {
		r = &chaintestRule
	}
	if r == nil || r.name != name {
		return nil
	}
	return r
}

// stageOf is where a send can meet exception code/name: stageUnknown when
// the table does not have it.
func stageOf(code int64, name string) stage {
	if r := ruleFor(code, name); r != nil {
		return r.stage
	}
	return stageUnknown
}

// statusRule is an HTTP status a send can meet without nodeos's error
// envelope (a proxy's, a gateway's page), and the stage it can come from.
// nodeos's own answers (http_plugin.cpp handle_exception: 400 unknown
// block, invalid request, account lookup; 401 unsatisfied authorization;
// 409 duplicate; 422 a body it cannot parse; 500 every other exception)
// carry the envelope, and are read by their exception, never by status.
type statusRule struct {
	status int
	stage  stage
	source string
}

// srcGateway is where a gateway's refusals come from.
const srcGateway = "a proxy or gateway in front of nodeos refuses the request before forwarding it (its own page, no nodeos envelope)"

// statusTable has the statuses that prove a refusal; any other status
// without nodeos's envelope — a 5xx (the node may have executed the
// transaction and the gateway lost its answer), a 408, a 3xx — is
// stageUnknown.
var statusTable = []statusRule{
	{http.StatusBadRequest, stageBefore, srcGateway},
	{http.StatusUnauthorized, stageBefore, srcGateway},
	{http.StatusForbidden, stageBefore, srcGateway},
	{http.StatusNotFound, stageBefore, srcGateway + "; or nodeos without the endpoint (http_plugin.cpp: no handler)"},
	{http.StatusMethodNotAllowed, stageBefore, srcGateway},
	{http.StatusLengthRequired, stageBefore, srcGateway},
	{http.StatusRequestEntityTooLarge, stageBefore, srcGateway + "; or nodeos over max-body-size (beast_http_session.hpp: the parser's body_limit), before any API runs"},
	{http.StatusRequestURITooLong, stageBefore, srcGateway},
	{http.StatusUnsupportedMediaType, stageBefore, srcGateway},
	{http.StatusTooManyRequests, stageBefore, srcGateway + " (a rate limit)"},
	{http.StatusRequestHeaderFieldsTooLarge, stageBefore, srcGateway},
	{http.StatusRequestTimeout, stageUnknown, "a gateway's timeout waiting for the request or the answer: nodeos may have executed it"},
	{http.StatusBadGateway, stageUnknown, "a gateway's upstream failure: the answer may be lost after execution"},
	{http.StatusServiceUnavailable, stageUnknown, "a gateway's upstream failure, or nodeos busy (beast_http_session.hpp send_busy_response, with an envelope named Busy): retried, never read as a refusal"},
	{http.StatusGatewayTimeout, stageUnknown, "a gateway's timeout: nodeos may have executed the transaction and answered too late"},
}
