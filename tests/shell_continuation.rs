#![cfg(not(target_arch = "wasm32"))]
//! When Enter continues the entry. irb reads on when a line ends inside a string or bracket,
//! or when its last token leaves Ruby's lexer expecting an operand (a comma, `=>`, a binary
//! operator, `.`) or is a backslash; not after `;` and not after a complete expression,
//! comment or no comment (ruby/irb lib/irb/ruby-lex.rb: `process_continue` returns true when
//! the token before the newline is in state EXPR_BEG, or is `\` + newline, and false after
//! `;`; `check_code_block` keeps the block open on "unterminated string meets end of file").
mod common;
use common::*;
use rowkey::shell::{is_incomplete, parse_script};

#[test]
fn open_strings_and_brackets_continue() {
    for open in [
        "put 't', 'r', 'f:q', 'v",
        "put 't', 'r', 'f:q', \"v",
        "put 't', 'r', 'f:q', 'it\\'s",
        "scan 't', {LIMIT => 1",
        "scan 't', {COLUMNS => ['f:a',",
        "create 't', {NAME => 'f',\n VERSIONS => 3",
        "get('t', 'r'",
    ] {
        assert!(is_incomplete(open), "{open:?} should continue");
    }
}

#[test]
fn a_trailing_comma_arrow_operator_or_backslash_continues() {
    for open in [
        "put 't', 'r',",
        "put 't', 'r',   ",
        "put 't', 'r', # the column comes next",
        "put 't', 'r',\n",
        "scan 't', LIMIT =>",
        "scan 't', LIMIT => ",
        "put 't', 'r', 'f:q', 1 +",
        "put 't', 'r', 'f:q', 1 *",
        "put 't', 'r', 'f:q', 'a' <<",
        "get 't', 'r' \\",
        "list.",
    ] {
        assert!(is_incomplete(open), "{open:?} should continue");
    }
}

#[test]
fn complete_lines_do_not_continue_comment_or_not() {
    for done in [
        "",
        "list",
        "scan 't'",
        "scan 't' # every row",
        "scan 't', {LIMIT => 1} # with a comment, {",
        "put 't', 'r', 'f:q', '#not a comment,'",
        "put 't', 'r', 'f:q', -1",
        "list;",
        "put 't', 'r', 'f:q', 'v';",
        "scan 't', {LIMIT => 1}\n",
        "scan 't', {LIMIT => 1}}",
        "put 't', 'r', 'f:q', \"a\\\"b\"",
        "put 't', 'r', 'f:q', 'a\\\\'",
    ] {
        assert!(!is_incomplete(done), "{done:?} should be complete");
    }
}

#[test]
fn continued_entries_parse_as_one_command() -> TestResult {
    for (text, canonical) in [
        ("put 't', 'r',\n'f:q', 'v'", "put 't', 'r', 'f:q', 'v'"),
        (
            "put 't', 'r', # row\n  'f:q', 'v'",
            "put 't', 'r', 'f:q', 'v'",
        ),
        ("scan 't', LIMIT =>\n 2", "scan 't', {LIMIT => 2}"),
        ("scan 't', {LIMIT =>\n 2}", "scan 't', {LIMIT => 2}"),
        ("get 't', \\\n'r'", "get 't', 'r'"),
        ("get 't', 'r' \\\n, 'f'", "get 't', 'r', 'f'"),
    ] {
        assert!(!is_incomplete(text), "{text:?} is complete");
        let parsed = parse_script(text);
        assert_eq!(parsed.len(), 1, "{text:?}: {parsed:?}");
        assert_eq!(
            parsed[0].as_ref().map(|c| c.to_string()),
            Ok(canonical.to_string())
        );
    }
    // Runs as one command in a pasted batch too.
    let (mut sh, _) = shell_at(1_000);
    let out = sh.run("create 't', 'f'\nput 't', 'r',\n  'f:q', 'v'\nget 't', 'r'");
    assert_eq!(out.len(), 3);
    assert_eq!(out[1].line, 2);
    assert_eq!(out[2].line, 4);
    assert!(out[2].output.contains("value=v"));
    Ok(())
}

#[test]
fn an_operator_continues_the_entry_then_reports_what_the_shell_lacks() -> TestResult {
    // irb would evaluate `1 +\n 2`; the shell here has no arithmetic, so the joined entry is
    // one command with one error at the operator, not two broken lines.
    let text = "put 't', 'r', 'f:q', 1 +\n 2";
    let parsed = parse_script(text);
    assert_eq!(parsed.len(), 1);
    let e = parsed[0].clone().err().ok_or("should fail")?;
    assert_eq!(e.message, "unexpected character '+'");
    assert_eq!(e.span, 23..24);
    Ok(())
}

#[test]
fn the_console_can_say_what_keeps_an_entry_open() {
    use rowkey::shell::{open_at_end, Open};
    assert_eq!(
        open_at_end("put 't', 'r', 'f:q', 'oops"),
        Some(Open::String('\'', 1))
    );
    assert_eq!(open_at_end("put 't', \"r"), Some(Open::String('"', 1)));
    // In a paste, the hint names the line whose quotes do not pair up (the string open at
    // the end began on line 3, shifted by the quote line 2 left open).
    assert_eq!(
        open_at_end("put 't', 'a', 'f:q', 'v'\nput 't', 'b', 'f:q', 'w\nput 't', 'c', 'f:q', 'x'"),
        Some(Open::String('\'', 2))
    );
    assert_eq!(
        open_at_end("put 't', 'a', 'f:q', 'multi\nline"),
        Some(Open::String('\'', 1))
    );
    assert_eq!(
        Open::String('\'', 5001).describe(),
        "a string opened with ' on line 5001 is not closed"
    );
    assert_eq!(open_at_end("scan 't', {LIMIT => 1"), Some(Open::Bracket));
    assert_eq!(open_at_end("scan 't',"), Some(Open::Continued));
    assert_eq!(open_at_end("scan 't', {LIMIT => 1}"), None);
    assert_eq!(
        Open::String('\'', 1).describe(),
        "a string opened with ' is not closed"
    );
}
