;; The LZMA decoder the release page unpacks its WebAssembly with (scripts/pack.mjs puts it,
;; assembled, into index.html's loader). LZMA's decoder as the LZMA SDK's specification
;; (LzmaSpec.cpp) decodes, for streams of lc=4, lp=0, pb=0 as xz writes them raw: a range coder
;; over adaptive bit probabilities; literals by the byte before them, or by the byte a match
;; would have put there; lengths and distances by bit trees; the four last distances kept.
;;
;; `unpack(coded, codedEnd, dst, length, until)` decodes the `length` bytes of the stream at
;; [coded, codedEnd) to `dst`, up to byte `until` (or a match's end past it) a call, and
;; returns how many it has written: the first call starts the decoder, each next one goes on
;; where it stopped. Called a slice at a time, the decoder runs as compiled for speed after
;; the first slices (a browser compiles a function again, optimized, once it has run a while,
;; and the next call runs the new code; a call that runs on keeps the code it began with).
;;
;; The probabilities live at 16, 14,136 of them (16 bits each), at these byte offsets: 0
;; is-match (12 states x 16), 384 is-rep, 408 is-rep-g0, 432 is-rep-g1, 456 is-rep-g2 (12
;; each), 480 is-rep0-long (12 x 16), 864 the distance slots (4 x 64), 1376 the distances'
;; middle bits (115), 1608 their low four bits (16), 1640 the match lengths (514), 2668 the
;; repeated matches' lengths (514), 3696 the literals (16 x 0x300). They end at 28,288; the
;; caller puts the stream and the output past them (the loader: from 32 KB).
(module
  (memory (export "memory") 1)
  ;; The range coder: its range, its code, the next coded byte and the stream's end.
  (global $range (mut i32) (i32.const -1))
  (global $code (mut i32) (i32.const 0))
  (global $in (mut i32) (i32.const 0))
  (global $end (mut i32) (i32.const 0))
  ;; Where the decoding is, kept between calls: the bytes written, the state, the last four
  ;; distances.
  (global $pos (mut i32) (i32.const 0))
  (global $state (mut i32) (i32.const 0))
  (global $rep0 (mut i32) (i32.const 0))
  (global $rep1 (mut i32) (i32.const 0))
  (global $rep2 (mut i32) (i32.const 0))
  (global $rep3 (mut i32) (i32.const 0))
  (func (export "unpack") (param $coded i32) (param $codedEnd i32) (param $dst i32) (param $length i32) (param $until i32) (result i32)
    (local $pos i32) (local $state i32) (local $rep0 i32) (local $rep1 i32) (local $rep2 i32)
    (local $rep3 i32) (local $len i32) (local $dist i32) (local $symbol i32) (local $match i32)
    (local $bit i32) (local $slot i32) (local $n i32) (local $i i32)

    (if (i32.eqz (global.get $pos))
      (then
        ;; Every probability starts at one half (1024 of 2048).
        (loop $probs
          (i32.store16 (i32.add (i32.const 16) (local.get $i)) (i32.const 1024))
          (br_if $probs (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 2))) (i32.const 28272))))
        ;; The range coder: a zero byte, then the code's four bytes.
        (global.set $end (local.get $codedEnd))
        (global.set $in (i32.add (local.get $coded) (i32.const 1)))
        (local.set $i (i32.const 0))
        (loop $first
          (global.set $code (i32.or (i32.shl (global.get $code) (i32.const 8)) (call $byte)))
          (br_if $first (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (i32.const 4))))))
    (local.set $pos (global.get $pos))
    (local.set $state (global.get $state))
    (local.set $rep0 (global.get $rep0))
    (local.set $rep1 (global.get $rep1))
    (local.set $rep2 (global.get $rep2))
    (local.set $rep3 (global.get $rep3))

    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $pos) (select (local.get $until) (local.get $length) (i32.lt_u (local.get $until) (local.get $length)))))
        (if (i32.eqz (call $bit (i32.add (i32.const 0) (i32.shl (local.get $state) (i32.const 5)))))
          (then
            ;; A literal, coded by the four high bits of the byte before it; after a match,
            ;; by the byte at the last distance while its bits agree.
            (local.set $n (i32.add (i32.const 3696) (i32.mul (i32.const 0x600)
              (if (result i32) (local.get $pos)
                (then (i32.shr_u (i32.load8_u (i32.add (local.get $dst) (i32.sub (local.get $pos) (i32.const 1)))) (i32.const 4)))
                (else (i32.const 0))))))
            (local.set $symbol (i32.const 1))
            (if (i32.ge_u (local.get $state) (i32.const 7))
              (then
                (local.set $match (i32.load8_u (i32.add (local.get $dst)
                  (i32.sub (i32.sub (local.get $pos) (local.get $rep0)) (i32.const 1)))))
                (block $differs
                  (loop $matched
                    (local.set $i (i32.and (i32.shr_u (local.get $match) (i32.const 7)) (i32.const 1)))
                    (local.set $match (i32.shl (local.get $match) (i32.const 1)))
                    (local.set $bit (call $bit (i32.add (local.get $n) (i32.shl
                      (i32.add (i32.shl (i32.add (i32.const 1) (local.get $i)) (i32.const 8)) (local.get $symbol))
                      (i32.const 1)))))
                    (local.set $symbol (i32.or (i32.shl (local.get $symbol) (i32.const 1)) (local.get $bit)))
                    (br_if $differs (i32.ne (local.get $i) (local.get $bit)))
                    (br_if $matched (i32.lt_u (local.get $symbol) (i32.const 0x100)))))))
            (block $byte
              (loop $plain
                (br_if $byte (i32.ge_u (local.get $symbol) (i32.const 0x100)))
                (local.set $symbol (i32.or (i32.shl (local.get $symbol) (i32.const 1))
                  (call $bit (i32.add (local.get $n) (i32.shl (local.get $symbol) (i32.const 1))))))
                (br $plain)))
            (i32.store8 (i32.add (local.get $dst) (local.get $pos)) (local.get $symbol))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (local.set $state (if (result i32) (i32.lt_u (local.get $state) (i32.const 4))
              (then (i32.const 0))
              (else (i32.sub (local.get $state)
                (select (i32.const 3) (i32.const 6) (i32.lt_u (local.get $state) (i32.const 10)))))))
            (br $next)))
        (if (call $bit (i32.add (i32.const 384) (i32.shl (local.get $state) (i32.const 1))))
          (then
            ;; A repeated distance: the last (one byte, or a length), or one of the three before.
            (if (i32.eqz (call $bit (i32.add (i32.const 408) (i32.shl (local.get $state) (i32.const 1)))))
              (then
                (if (i32.eqz (call $bit (i32.add (i32.const 480) (i32.shl (local.get $state) (i32.const 5)))))
                  (then
                    (local.set $state (select (i32.const 9) (i32.const 11) (i32.lt_u (local.get $state) (i32.const 7))))
                    (i32.store8 (i32.add (local.get $dst) (local.get $pos)) (i32.load8_u (i32.add (local.get $dst)
                      (i32.sub (i32.sub (local.get $pos) (local.get $rep0)) (i32.const 1)))))
                    (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                    (br $next))))
              (else
                (if (i32.eqz (call $bit (i32.add (i32.const 432) (i32.shl (local.get $state) (i32.const 1)))))
                  (then (local.set $dist (local.get $rep1)))
                  (else
                    (if (i32.eqz (call $bit (i32.add (i32.const 456) (i32.shl (local.get $state) (i32.const 1)))))
                      (then (local.set $dist (local.get $rep2)))
                      (else
                        (local.set $dist (local.get $rep3))
                        (local.set $rep3 (local.get $rep2))))
                    (local.set $rep2 (local.get $rep1))))
                (local.set $rep1 (local.get $rep0))
                (local.set $rep0 (local.get $dist))))
            (local.set $len (call $length (i32.const 2668)))
            (local.set $state (select (i32.const 8) (i32.const 11) (i32.lt_u (local.get $state) (i32.const 7)))))
          (else
            ;; A new distance: its slot by the length, then its middle and low bits.
            (local.set $rep3 (local.get $rep2))
            (local.set $rep2 (local.get $rep1))
            (local.set $rep1 (local.get $rep0))
            (local.set $len (call $length (i32.const 1640)))
            (local.set $state (select (i32.const 7) (i32.const 10) (i32.lt_u (local.get $state) (i32.const 7))))
            (local.set $slot (call $tree
              (i32.add (i32.const 864) (i32.shl (select (local.get $len) (i32.const 3) (i32.lt_u (local.get $len) (i32.const 3))) (i32.const 7)))
              (i32.const 6)))
            (if (i32.lt_u (local.get $slot) (i32.const 4))
              (then (local.set $rep0 (local.get $slot)))
              (else
                (local.set $n (i32.sub (i32.shr_u (local.get $slot) (i32.const 1)) (i32.const 1)))
                (local.set $dist (i32.shl (i32.or (i32.const 2) (i32.and (local.get $slot) (i32.const 1))) (local.get $n)))
                (if (i32.lt_u (local.get $slot) (i32.const 14))
                  (then
                    (local.set $dist (i32.add (local.get $dist) (call $reverse
                      (i32.add (i32.const 1376) (i32.shl (i32.sub (local.get $dist) (local.get $slot)) (i32.const 1)))
                      (local.get $n)))))
                  (else
                    (local.set $dist (i32.add (local.get $dist)
                      (i32.shl (call $direct (i32.sub (local.get $n) (i32.const 4))) (i32.const 4))))
                    (local.set $dist (i32.add (local.get $dist) (call $reverse (i32.const 1608) (i32.const 4))))))
                (local.set $rep0 (local.get $dist))))))
        ;; The match: its length's bytes from the distance back, within the data's end.
        (local.set $len (i32.add (local.get $len) (i32.const 2)))
        (block $copied
          (loop $copy
            (br_if $copied (i32.or (i32.eqz (local.get $len)) (i32.ge_u (local.get $pos) (local.get $length))))
            (i32.store8 (i32.add (local.get $dst) (local.get $pos)) (i32.load8_u (i32.add (local.get $dst)
              (i32.sub (i32.sub (local.get $pos) (local.get $rep0)) (i32.const 1)))))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (local.set $len (i32.sub (local.get $len) (i32.const 1)))
            (br $copy)))
        (br $next)))
    (global.set $pos (local.get $pos))
    (global.set $state (local.get $state))
    (global.set $rep0 (local.get $rep0))
    (global.set $rep1 (local.get $rep1))
    (global.set $rep2 (local.get $rep2))
    (global.set $rep3 (local.get $rep3))
    (local.get $pos))

  ;; One bit decoded with the probability at byte offset `at` of the probabilities, which
  ;; learns from it; the range renormalized a byte at a time.
  (func $bit (param $at i32) (result i32)
    (local $p i32) (local $prob i32) (local $bound i32) (local $bit i32)
    (local.set $p (i32.add (i32.const 16) (local.get $at)))
    (local.set $prob (i32.load16_u (local.get $p)))
    (local.set $bound (i32.mul (i32.shr_u (global.get $range) (i32.const 11)) (local.get $prob)))
    (if (i32.lt_u (global.get $code) (local.get $bound))
      (then
        (global.set $range (local.get $bound))
        (local.set $prob (i32.add (local.get $prob) (i32.shr_u (i32.sub (i32.const 2048) (local.get $prob)) (i32.const 5)))))
      (else
        (global.set $range (i32.sub (global.get $range) (local.get $bound)))
        (global.set $code (i32.sub (global.get $code) (local.get $bound)))
        (local.set $prob (i32.sub (local.get $prob) (i32.shr_u (local.get $prob) (i32.const 5))))
        (local.set $bit (i32.const 1))))
    (i32.store16 (local.get $p) (local.get $prob))
    (call $normalize)
    (local.get $bit))

  ;; A byte shifted into the code while the range is below 2^24.
  (func $normalize
    (if (i32.lt_u (global.get $range) (i32.const 0x1000000))
      (then
        (global.set $range (i32.shl (global.get $range) (i32.const 8)))
        (global.set $code (i32.or (i32.shl (global.get $code) (i32.const 8)) (call $byte))))))

  ;; The next coded byte, or 0 past the stream's end.
  (func $byte (result i32)
    (local $at i32)
    (local.set $at (global.get $in))
    (global.set $in (i32.add (local.get $at) (i32.const 1)))
    (select (i32.load8_u (local.get $at)) (i32.const 0) (i32.lt_u (local.get $at) (global.get $end))))

  ;; `bits` bits, high first, through the tree of probabilities at `at` (its node m at 2m).
  (func $tree (param $at i32) (param $bits i32) (result i32)
    (local $m i32) (local $i i32)
    (local.set $m (i32.const 1))
    (loop $down
      (local.set $m (i32.or (i32.shl (local.get $m) (i32.const 1))
        (call $bit (i32.add (local.get $at) (i32.shl (local.get $m) (i32.const 1))))))
      (br_if $down (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $bits))))
    (i32.sub (local.get $m) (i32.shl (i32.const 1) (local.get $bits))))

  ;; `bits` bits, low first, through the tree at `at`.
  (func $reverse (param $at i32) (param $bits i32) (result i32)
    (local $m i32) (local $i i32) (local $bit i32) (local $symbol i32)
    (local.set $m (i32.const 1))
    (loop $down
      (local.set $bit (call $bit (i32.add (local.get $at) (i32.shl (local.get $m) (i32.const 1)))))
      (local.set $m (i32.or (i32.shl (local.get $m) (i32.const 1)) (local.get $bit)))
      (local.set $symbol (i32.or (local.get $symbol) (i32.shl (local.get $bit) (local.get $i))))
      (br_if $down (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $bits))))
    (local.get $symbol))

  ;; `bits` bits of even probability, high first.
  (func $direct (param $bits i32) (result i32)
    (local $t i32) (local $result i32)
    (loop $next
      (global.set $range (i32.shr_u (global.get $range) (i32.const 1)))
      (global.set $code (i32.sub (global.get $code) (global.get $range)))
      (local.set $t (i32.sub (i32.const 0) (i32.shr_u (global.get $code) (i32.const 31))))
      (global.set $code (i32.add (global.get $code) (i32.and (global.get $range) (local.get $t))))
      (call $normalize)
      (local.set $result (i32.add (i32.shl (local.get $result) (i32.const 1)) (i32.add (local.get $t) (i32.const 1))))
      (br_if $next (local.tee $bits (i32.sub (local.get $bits) (i32.const 1)))))
    (local.get $result))

  ;; A match's length less two, through the length coder at `at`: 0-7, 8-15, or 16-271.
  (func $length (param $at i32) (result i32)
    (if (i32.eqz (call $bit (local.get $at)))
      (then (return (call $tree (i32.add (local.get $at) (i32.const 4)) (i32.const 3)))))
    (if (i32.eqz (call $bit (i32.add (local.get $at) (i32.const 2))))
      (then (return (i32.add (i32.const 8) (call $tree (i32.add (local.get $at) (i32.const 260)) (i32.const 3))))))
    (i32.add (i32.const 16) (call $tree (i32.add (local.get $at) (i32.const 516)) (i32.const 8)))))
