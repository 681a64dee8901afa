CREATE TABLE IF NOT EXISTS "select" (
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" NUMERIC(20,0) NOT NULL,
	"payer" TEXT NOT NULL,
	"owner" TEXT,
	"select" NUMERIC(20,0),
	"a""b" TEXT,
	"Amount" BIGINT,
	"amount_2" BIGINT,
	"x; DROP TABLE accounts; --" TEXT,
	"code_2" TEXT,
	"_raw_2" BYTEA,
	"bal_amount" BIGINT,
	"bal_symbol" TEXT,
	"bal_amount_2" BIGINT,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_feed930b" BIGINT,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_48bd064d" BIGINT,
	"tab_here" BIGINT,
	"ünï" BIGINT,
	"opt" JSON,
	"list" JSON,
	"pair" JSON,
	"choice" JSON,
	"when" BIGINT,
	"ext_amount" BIGINT,
	"ext_symbol" TEXT,
	"_raw" BYTEA NOT NULL,
	PRIMARY KEY ("code", "scope", "primary_key")
);

CREATE TABLE IF NOT EXISTS "order" (
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" NUMERIC(20,0) NOT NULL,
	"payer" TEXT NOT NULL,
	"owner" TEXT,
	"select" NUMERIC(20,0),
	"a""b" TEXT,
	"Amount" BIGINT,
	"amount_2" BIGINT,
	"x; DROP TABLE accounts; --" TEXT,
	"code_2" TEXT,
	"_raw_2" BYTEA,
	"bal_amount" BIGINT,
	"bal_symbol" TEXT,
	"bal_amount_2" BIGINT,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_feed930b" BIGINT,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_48bd064d" BIGINT,
	"tab_here" BIGINT,
	"ünï" BIGINT,
	"opt" JSON,
	"list" JSON,
	"pair" JSON,
	"choice" JSON,
	"when" BIGINT,
	"ext_amount" BIGINT,
	"ext_symbol" TEXT,
	"_raw" BYTEA NOT NULL,
	PRIMARY KEY ("code", "scope", "primary_key")
);

CREATE TABLE IF NOT EXISTS "limits" (
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" NUMERIC(20,0) NOT NULL,
	"payer" TEXT NOT NULL,
	"id" NUMERIC(20,0),
	"f_bool" BOOLEAN,
	"f_int8" BIGINT,
	"f_uint8" BIGINT,
	"f_int16" BIGINT,
	"f_uint16" BIGINT,
	"f_int32" BIGINT,
	"f_uint32" BIGINT,
	"f_int64" BIGINT,
	"f_uint64" NUMERIC(20,0),
	"f_int128" NUMERIC(39,0),
	"f_uint128" NUMERIC(39,0),
	"f_varint32" BIGINT,
	"f_varuint32" BIGINT,
	"f_float32" REAL,
	"f_float64" DOUBLE PRECISION,
	"f_float128" TEXT,
	"f_time_point" BIGINT,
	"f_time_point_sec" BIGINT,
	"f_block_timestamp_type" BIGINT,
	"f_name" TEXT,
	"f_bytes" BYTEA,
	"f_string" TEXT,
	"f_checksum160" TEXT,
	"f_checksum256" TEXT,
	"f_checksum512" TEXT,
	"f_public_key" TEXT,
	"f_signature" TEXT,
	"f_symbol" TEXT,
	"f_symbol_code" TEXT,
	"f_asset_amount" BIGINT,
	"f_asset_symbol" TEXT,
	"f_extended_asset_amount" BIGINT,
	"f_extended_asset_symbol" TEXT,
	"f_extended_asset_contract" TEXT,
	"_raw" BYTEA NOT NULL,
	PRIMARY KEY ("code", "scope", "primary_key")
);

CREATE TABLE IF NOT EXISTS "delete_action" (
	"global_sequence" NUMERIC(20,0) NOT NULL,
	"block_num" BIGINT NOT NULL,
	"block_id" TEXT NOT NULL,
	"trx_id" TEXT NOT NULL,
	"action_ordinal" BIGINT NOT NULL,
	"receiver" TEXT NOT NULL,
	"authorization" JSON NOT NULL,
	"from" TEXT,
	"where" TEXT,
	"_raw" BYTEA NOT NULL,
	PRIMARY KEY ("global_sequence")
);

CREATE TABLE IF NOT EXISTS "insert_action" (
	"global_sequence" NUMERIC(20,0) NOT NULL,
	"block_num" BIGINT NOT NULL,
	"block_id" TEXT NOT NULL,
	"trx_id" TEXT NOT NULL,
	"action_ordinal" BIGINT NOT NULL,
	"receiver" TEXT NOT NULL,
	"authorization" JSON NOT NULL,
	"owner" TEXT,
	"select" NUMERIC(20,0),
	"a""b" TEXT,
	"Amount" BIGINT,
	"amount_2" BIGINT,
	"x; DROP TABLE accounts; --" TEXT,
	"code" TEXT,
	"_raw_2" BYTEA,
	"bal_amount" BIGINT,
	"bal_symbol" TEXT,
	"bal_amount_2" BIGINT,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_feed930b" BIGINT,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_48bd064d" BIGINT,
	"tab_here" BIGINT,
	"ünï" BIGINT,
	"opt" JSON,
	"list" JSON,
	"pair" JSON,
	"choice" JSON,
	"when" BIGINT,
	"ext_amount" BIGINT,
	"ext_symbol" TEXT,
	"_raw" BYTEA NOT NULL,
	PRIMARY KEY ("global_sequence")
);

CREATE INDEX IF NOT EXISTS "select_by_select" ON "select" ("code", "scope", "select");

CREATE INDEX IF NOT EXISTS "delete_action_by_block" ON "delete_action" ("block_num");

CREATE INDEX IF NOT EXISTS "insert_action_by_block" ON "insert_action" ("block_num");

CREATE TABLE IF NOT EXISTS "_mirror_state" (
	"mirror" TEXT NOT NULL PRIMARY KEY,
	"abi_sha256" TEXT NOT NULL,
	"abi" TEXT NOT NULL,
	"cursor" TEXT NOT NULL,
	"block_num" BIGINT NOT NULL,
	"lib" BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS "_mirror_undo" (
	"mirror" TEXT NOT NULL,
	"block_num" BIGINT NOT NULL,
	"seq" BIGINT NOT NULL,
	"tbl" TEXT NOT NULL,
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT,
	"raw" BYTEA,
	PRIMARY KEY ("mirror", "block_num", "seq")
);

CREATE TABLE IF NOT EXISTS "_mirror_ranges" (
	"mirror" TEXT NOT NULL,
	"first" BIGINT NOT NULL,
	"last" BIGINT NOT NULL,
	"next" BIGINT NOT NULL,
	"cursor" TEXT NOT NULL,
	PRIMARY KEY ("mirror", "first")
);

CREATE TABLE IF NOT EXISTS "_mirror_claims" (
	"mirror" TEXT NOT NULL,
	"first" BIGINT NOT NULL,
	PRIMARY KEY ("mirror", "first")
);

CREATE TABLE IF NOT EXISTS "_mirror_backfill" (
	"mirror" TEXT NOT NULL,
	"block_num" BIGINT NOT NULL,
	"seq" BIGINT NOT NULL,
	"tbl" TEXT NOT NULL,
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT,
	"raw" BYTEA,
	PRIMARY KEY ("mirror", "block_num", "seq")
);
