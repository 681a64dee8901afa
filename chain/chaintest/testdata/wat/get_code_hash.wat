;; get_code_hash.wat — for TestLeapGetCodeHashTests (leap's
;; get_code_hash_tests): the action's name is an account; the contract asks
;; get_code_hash about it into a 43-byte buffer and prints
;; size:struct_version:code_sequence:code_hash:vm_type:vm_version.
(module
  (import "env" "get_code_hash" (func $get_code_hash (param i64 i32 i32 i32) (result i32)))
  (import "env" "prints_l" (func $prints_l (param i32 i32)))
  (import "env" "printui" (func $printui (param i64)))
  (import "env" "printhex" (func $printhex (param i32 i32)))
  (memory 1)
  (data (i32.const 0) ":")
  ;; The answer goes at 16; 'x' marks bytes the host did not write.
  (data (i32.const 16) "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
  (func $colon (call $prints_l (i32.const 0) (i32.const 1)))
  (func (export "apply") (param $receiver i64) (param $code i64) (param $action i64)
    (call $printui (i64.extend_i32_u
      (call $get_code_hash (local.get $action) (i32.const 0) (i32.const 16) (i32.const 43))))
    (call $colon)
    (call $printui (i64.load8_u (i32.const 16)))  ;; struct_version
    (call $colon)
    (call $printui (i64.load (i32.const 17)))     ;; code_sequence
    (call $colon)
    (call $printhex (i32.const 25) (i32.const 32)) ;; code_hash
    (call $colon)
    (call $printui (i64.load8_u (i32.const 57)))  ;; vm_type
    (call $colon)
    (call $printui (i64.load8_u (i32.const 58))))) ;; vm_version
