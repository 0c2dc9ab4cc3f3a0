#![cfg(not(target_arch = "wasm32"))]
//! No input reaches a panic: arbitrary bytes and arbitrary token sequences go through the
//! whole shell (lexer, parser, executor, engine). `ROWKEY_FUZZ_CASES` sets the count; the
//! default keeps the test suite quick, `ROWKEY_FUZZ_CASES=1000000` runs the long campaign.
mod common;
use common::*;
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("ROWKEY_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4000)
}

const WORDS: &[&str] = &[
    "create",
    "put",
    "get",
    "scan",
    "delete",
    "deleteall",
    "incr",
    "append",
    "alter",
    "count",
    "flush",
    "compact",
    "major_compact",
    "split",
    "get_splits",
    "describe",
    "list",
    "disable",
    "enable",
    "drop",
    "truncate",
    "check_and_put",
    "check_and_delete",
    "mutate_row",
    "help",
    "get_counter",
    "'t'",
    "'f'",
    "'r'",
    "'f:q'",
    "'x:q'",
    "''",
    "\"\\xff\"",
    "\"\\x\"",
    "'",
    "\"",
    "0",
    "-1",
    "9223372036854775807",
    "99999999999999999999",
    "nil",
    "true",
    ",",
    "=>",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "\n",
    ";",
    "VERSIONS",
    "STARTROW",
    "STOPROW",
    "FILTER",
    "LIMIT",
    "REVERSED",
    "RAW",
    "TIMERANGE",
    "TTL",
    "NAME",
    "SPLITS",
    "NUMREGIONS",
    "SPLITALGO",
    "'HexStringSplit'",
    "MAX_FILESIZE",
    "MEMSTORE_FLUSHSIZE",
    "MAXLENGTH",
    "TIMESTAMP",
    "\"PrefixFilter('a')\"",
    "\"ValueFilter(<, 'regexstring:(')\"",
    "\"(((\"",
    "\"SKIP WHILE\"",
    "\"PageFilter(-1)\"",
    "\"ColumnPaginationFilter(9223372036854775807, 9223372036854775807)\"",
    "\"RowFilter(=, 'binaryprefix:')\"",
    "\"SingleColumnValueFilter('f','q',=,'binary:a',true,false)\"",
    "'delete'",
    "METHOD",
    "OP",
    "'<'",
    "INTERVAL",
];

fn shell() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_000);
    sh.run("create 't', {NAME => 'f', VERSIONS => 3}\nput 't', 'r', 'f:q', 'v'\nput 't', 'r', 'f:n', \"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\"");
    sh
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let mut sh = shell();
        let _ = sh.run(&text);
        let _ = rowkey::filter::parse_filter(&text);
        let _ = rowkey::shell::is_incomplete(&text);
        let mut last = 0;
        for (r, _) in rowkey::shell::highlight(&text) {
            prop_assert!(r.start >= last && r.start < r.end && r.end <= text.len());
            prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            last = r.end;
        }
        for cursor in [0, 1, text.len() / 3, text.len()] {
            let c = rowkey::shell::complete(&text, cursor, &sh.engine);
            prop_assert!(c.replace.end <= text.len());
            prop_assert!(text.is_char_boundary(c.replace.start) && text.is_char_boundary(c.replace.end));
        }
        let mut script = rowkey::shell::Script::new(text.to_string());
        let mut chunks = 0;
        while !script.is_done() && chunks <= text.len() {
            let _ = sh.run_some(&mut script, 3);
            let (done, total) = script.progress();
            prop_assert!(done <= total);
            chunks += 1;
        }
        prop_assert!(script.is_done(), "a script must finish");
    }

    #[test]
    fn arbitrary_token_sequences_never_panic(idx in proptest::collection::vec(0..WORDS.len(), 0..24)) {
        let text: Vec<&str> = idx.iter().map(|i| WORDS[*i]).collect();
        let text = text.join(" ");
        let mut sh = shell();
        let _ = rowkey::shell::highlight(&text);
        for cursor in [0, text.len() / 2, text.len(), text.len() + 3] {
            let c = rowkey::shell::complete(&text, cursor, &sh.engine);
            prop_assert!(c.replace.start <= c.replace.end && c.replace.end <= text.len());
            let _ = c.common();
        }
        for o in sh.run(&text) {
            prop_assert!(o.span.start <= o.span.end && o.span.end <= text.len() && o.line >= 1);
            if let Some(e) = &o.error {
                prop_assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "span {:?} outside input", e.span);
                let _ = rowkey::shell::render_caret(&text, &e.span);
            }
        }
    }

    #[test]
    fn arbitrary_filter_strings_never_panic(s in "[A-Za-z()', <=>!:0-9]{0,60}") {
        let _ = rowkey::filter::parse_filter(&s);
        let mut sh = shell();
        let _ = sh.run(&format!("scan 't', {{FILTER => {}}}", rowkey::shell::quote(s.as_bytes())));
    }
}
