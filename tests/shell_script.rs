#![cfg(not(target_arch = "wasm32"))]
//! A pasted batch runs statement by statement: an error belongs to its own statement and line,
//! the rest still runs, and running in chunks gives the same outcomes as running at once.
mod common;
use common::*;
use rowkey::shell::{Outcome, Script};

/// What an outcome says, without the timing line.
fn said(o: &Outcome) -> (usize, Option<&'static str>, String, String, Option<String>) {
    let output = o
        .output
        .lines()
        .filter(|l| !l.starts_with("Took "))
        .collect::<Vec<_>>()
        .join("\n");
    (
        o.line,
        o.name,
        o.input.clone(),
        output,
        o.error
            .as_ref()
            .map(|e| format!("{} {:?}", e.message, e.span)),
    )
}

fn forty_lines_error_on_17() -> String {
    let mut lines = vec!["create 't', 'f'".to_string()];
    for i in 2..=40 {
        if i == 17 {
            lines.push("put 't', 'r17', 'f:q' 'v'".to_string());
        } else {
            lines.push(format!("put 't', 'r{i}', 'f:q', 'v{i}'"));
        }
    }
    lines.join("\n")
}

#[test]
fn an_error_on_line_17_of_40_is_reported_there_and_the_rest_runs() -> TestResult {
    let text = forty_lines_error_on_17();
    let (mut sh, _) = shell_at(1_000);
    let outcomes = sh.run(&text);
    assert_eq!(outcomes.len(), 40);
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| o.error.is_some()).collect();
    assert_eq!(failed.len(), 1);
    let bad = failed[0];
    assert_eq!(bad.line, 17);
    assert_eq!(bad.input, "put 't', 'r17', 'f:q' 'v'");
    assert_eq!(bad.name, None, "a command that did not parse has no name");
    let e = bad.error.as_ref().ok_or("no error")?;
    assert_eq!(e.message, "expected ',' or end of command, found a string");
    assert_eq!(&text[e.span.clone()], "'v'");
    for (i, o) in outcomes.iter().enumerate() {
        assert_eq!(o.line, i + 1);
        assert_eq!(&text[o.span.clone()], o.input);
    }
    assert_eq!(outcomes[1].name, Some("put"));
    assert_eq!(outcomes[0].name, Some("create"));
    let count = run(&mut sh, "count 't'");
    assert!(count.contains("38 row(s)"), "{count}");
    Ok(())
}

/// irb would read an unterminated string on to the end of the input (its `check_code_block`
/// treats "unterminated string meets end of file" as an open block: ruby/irb
/// lib/irb/ruby-lex.rb), swallowing every later line of a paste into one bad string. A paste
/// here stops the open string at the next line that starts with a command name: that
/// statement fails with "unterminated string" and the lines after it run. A string whose next
/// line does not start with a command (a value spanning lines) still reads on, as in Ruby.
#[test]
fn an_unterminated_string_does_not_swallow_the_following_lines() -> TestResult {
    let text =
        "create 't', 'f'\nput 't', 'r1', 'f:q', 'oops\nput 't', 'r2', 'f:q', 'v2'\nget 't', 'r2'";
    let (mut sh, _) = shell_at(1_000);
    let outcomes = sh.run(text);
    assert_eq!(outcomes.len(), 4);
    let e = outcomes[1].error.as_ref().ok_or("line 2 should fail")?;
    assert_eq!(e.message, "unterminated string");
    assert_eq!(&text[e.span.clone()], "'oops");
    assert_eq!(outcomes[1].line, 2);
    assert!(outcomes[2].error.is_none());
    assert_eq!(outcomes[3].line, 4);
    assert!(
        outcomes[3].output.contains("value=v2"),
        "{}",
        outcomes[3].output
    );

    // A string that spans lines, the next line not a command: one value with a newline.
    let text = "put 't', 'r3', 'f:q', 'two\nlines'\nget 't', 'r3'";
    let outcomes = sh.run(text);
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    assert!(outcomes[0].error.is_none());
    assert!(
        outcomes[1].output.contains("value=two\\x0Alines"),
        "{}",
        outcomes[1].output
    );
    assert_eq!(outcomes[1].line, 3);
    Ok(())
}

#[test]
fn an_unclosed_bracket_stops_at_the_next_command() -> TestResult {
    let text = "create 't', 'f'\nscan 't', {LIMIT => 1\nput 't', 'r', 'f:q', 'v'";
    let (mut sh, _) = shell_at(1_000);
    let outcomes = sh.run(text);
    assert_eq!(outcomes.len(), 3);
    let e = outcomes[1].error.as_ref().ok_or("scan should fail")?;
    assert_eq!(e.message, "unclosed '{'");
    assert_eq!(outcomes[1].input, "scan 't', {LIMIT => 1");
    assert!(outcomes[2].error.is_none());
    Ok(())
}

#[test]
fn binary_bytes_and_control_characters_get_a_clear_message() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    let raw = [b"list\n".as_slice(), &[0xff, 0xfe, 0x00], b"\nlist"].concat();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let outcomes = sh.run(&text);
    assert_eq!(outcomes.len(), 3);
    let e = outcomes[1].error.as_ref().ok_or("binary should fail")?;
    assert_eq!(
        e.message,
        "invalid bytes: the input is not UTF-8 text (binary data must be written as \"\\xNN\" escapes)"
    );
    assert_eq!(outcomes[1].line, 2);
    assert!(outcomes[2].error.is_none());

    let outcomes = sh.run("list \u{7}");
    let e = outcomes[0].error.as_ref().ok_or("bell should fail")?;
    assert_eq!(
        e.message,
        "invalid control character U+0007 (write it as \"\\x07\" inside a double-quoted string)"
    );
    assert_eq!(e.span, 5..6);
    Ok(())
}

#[test]
fn running_in_chunks_gives_the_same_outcomes() -> TestResult {
    let mut text = forty_lines_error_on_17();
    text.push_str("\nscan 't', {LIMIT => 2,\n  STARTROW => 'r3'}; get 't', 'r5'\n\n# done\nbad 'x'; count 't'\n");
    let all = {
        let (mut sh, _) = shell_at(1_000);
        sh.run(&text)
    };
    assert_eq!(all.len(), 44);
    for chunk in [1, 7, usize::MAX] {
        let (mut sh, _) = shell_at(1_000);
        let mut script = Script::new(text.clone());
        let mut got = Vec::new();
        let mut last = 0;
        while !script.is_done() {
            let some = sh.run_some(&mut script, chunk);
            assert!(some.len() <= chunk);
            assert!(!some.is_empty() || script.is_done());
            got.extend(some);
            let (done, total) = script.progress();
            assert!(done >= last && done <= total && total == text.len());
            last = done;
        }
        assert_eq!(script.progress(), (text.len(), text.len()));
        assert_eq!(
            got.iter().map(said).collect::<Vec<_>>(),
            all.iter().map(said).collect::<Vec<_>>(),
            "chunks of {chunk}"
        );
    }
    // The two commands on one line keep their own spans and the line number of each.
    let get = &all[41];
    assert_eq!(get.input, "get 't', 'r5'");
    assert_eq!(get.line, 42);
    let bad = &all[42];
    assert_eq!(bad.input, "bad 'x'");
    assert_eq!(bad.line, 45);
    assert_eq!(all[43].input, "count 't'");
    Ok(())
}

#[test]
fn a_script_hands_out_one_statement_at_a_time() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    let mut script = Script::new("create 't', 'f'\nput 't', 'r', 'f:q', 'v'\n\n".to_string());
    assert_eq!(
        script.text(),
        "create 't', 'f'\nput 't', 'r', 'f:q', 'v'\n\n"
    );
    assert_eq!(script.progress(), (0, 42));
    let first = sh.run_some(&mut script, 1);
    assert_eq!(first.len(), 1);
    assert!(!script.is_done());
    assert_eq!(script.progress(), (16, 42));
    assert_eq!(sh.run_some(&mut script, 0).len(), 0);
    assert_eq!(sh.run_some(&mut script, 5).len(), 1);
    assert!(script.is_done());
    assert!(sh.run_some(&mut script, 5).is_empty());
    // Only a comment: nothing to run, and the script is done once asked.
    let mut comment = Script::new(" \n# only a comment\n".into());
    assert!(sh.run_some(&mut comment, 1).is_empty());
    assert!(comment.is_done());
    Ok(())
}
