;; A module for tests/scripts/shrink.test.mjs: an import and an export named as wasm-bindgen
;; names them, two types' `type_id` functions (named as rustc names them) with their ids in the
;; data and compared as constants in a downcast, and a function of the same shape under another
;; name whose 16 bytes are not a type id and must stay as they are.
(module
  (import "./rowkey_bg.js" "__wbg_answer_0123456789abcdef" (func $answer (result i32)))
  (memory (export "memory") 17)
  (data (i32.const 1048576) "\11\22\33\44\55\66\77\88\99\aa\bb\cc\dd\ee\ff\01")
  (data (i32.const 1048592) "\21\32\43\54\65\76\87\98\a9\ba\cb\dc\ed\fe\0f\10")
  (data (i32.const 1048608) "\31\42\53\64\75\86\97\a8\b9\ca\db\ec\fd\0e\1f\20")
  (func $"<rowkey[0123456789abcdef]::A as core[fedcba9876543210]::any::Any>::type_id" (param $0 i32)
    (i64.store offset=8 (local.get $0) (i64.load (i32.const 1048584)))
    (i64.store (local.get $0) (i64.load (i32.const 1048576))))
  (func $"<rowkey[0123456789abcdef]::B as core[fedcba9876543210]::any::Any>::type_id" (param $0 i32)
    (i64.store offset=8 (local.get $0) (i64.load (i32.const 1048600)))
    (i64.store (local.get $0) (i64.load (i32.const 1048592))))
  (func $"rowkey[0123456789abcdef]::seed" (param $0 i32)
    (i64.store offset=8 (local.get $0) (i64.load (i32.const 1048616)))
    (i64.store (local.get $0) (i64.load (i32.const 1048608))))
  (func (export "wasm_bindgen__convert__closures__invoke_is_a") (param $which i32) (result i32)
    (if (local.get $which)
      (then (call $"<rowkey[0123456789abcdef]::B as core[fedcba9876543210]::any::Any>::type_id" (i32.const 64)))
      (else (call $"<rowkey[0123456789abcdef]::A as core[fedcba9876543210]::any::Any>::type_id" (i32.const 64))))
    (i32.and
      (i64.eq (i64.load (i32.const 64)) (i64.const 0x8877665544332211))
      (i64.eq (i64.load (i32.const 72)) (i64.const 0x01ffeeddccbbaa99))))
  (func (export "seed_low") (result i64)
    (call $"rowkey[0123456789abcdef]::seed" (i32.const 64))
    (i64.load (i32.const 64)))
  (func (export "main") (result i32) (call $answer))
)
