#![cfg(not(target_arch = "wasm32"))]
//! Syntax colours come from the shell's own lexer and never fail.
use rowkey::shell::{highlight, Class};

/// Each coloured span as its text and class.
fn spans(src: &str) -> Vec<(&str, Class)> {
    highlight(src)
        .into_iter()
        .map(|(r, c)| (&src[r], c))
        .collect()
}

#[test]
fn a_command_its_options_and_values() {
    use Class::*;
    assert_eq!(
        spans("scan 'users', {LIMIT => 10, FOO => nil} # first ten"),
        vec![
            ("scan", Command),
            ("'users'", Str),
            (",", Punct),
            ("{", Punct),
            ("LIMIT", Option),
            ("=>", Punct),
            ("10", Number),
            (",", Punct),
            ("FOO", Constant),
            ("=>", Punct),
            ("nil", Constant),
            ("}", Punct),
            ("# first ten", Comment),
        ]
    );
}

#[test]
fn options_belong_to_their_command() {
    use Class::*;
    // LIMIT is a scan option, not a get option; VERSIONS is both.
    let got = spans("get 't', 'r', {LIMIT => 1, VERSIONS => 2}");
    assert!(got.contains(&("LIMIT", Constant)), "{got:?}");
    assert!(got.contains(&("VERSIONS", Option)), "{got:?}");
    // Family options of create, bare hash without braces.
    let got = spans("create 't', NAME => 'f', VERSIONS => 3");
    assert!(got.contains(&("NAME", Option)), "{got:?}");
}

#[test]
fn statements_start_after_newlines_and_semicolons_not_inside_continuations() {
    use Class::*;
    let got = spans("list; scna 't'\nput 't',\n  'r'\nscan 't', {\n  LIMIT => 1}");
    assert_eq!(got[0], ("list", Command));
    assert_eq!(got[1], (";", Punct));
    assert_eq!(got[2], ("scna", Error), "an unknown command is an error");
    assert!(got.contains(&("put", Command)));
    assert!(
        got.contains(&("'r'", Str)),
        "a continued line is not a statement start"
    );
    assert!(got.contains(&("LIMIT", Option)), "{got:?}");
}

/// While a string is being typed it reads as a string to the end of the input, as editors show
/// it, rather than flashing red on every key press; the parser reports it when it is run.
#[test]
fn an_unterminated_string_is_a_string_to_the_end() {
    assert_eq!(
        spans("put 't', 'r, 'f:q'"),
        vec![
            ("put", Class::Command),
            ("'t'", Class::Str),
            (",", Class::Punct),
            ("'r, '", Class::Str),
            ("f", Class::Constant),
            (":", Class::Error),
            ("q", Class::Constant),
            ("'", Class::Str),
        ]
    );
    assert_eq!(
        spans("get 'é"),
        vec![("get", Class::Command), ("'é", Class::Str)]
    );
    assert_eq!(
        spans("put 't', 'half\nget 't'"),
        vec![
            ("put", Class::Command),
            ("'t'", Class::Str),
            (",", Class::Punct),
            ("'half\nget '", Class::Str),
            ("t", Class::Constant),
            ("'", Class::Str),
        ]
    );
}

#[test]
fn stray_characters_and_bad_escapes_are_errors_and_lexing_goes_on() {
    use Class::*;
    assert_eq!(
        spans("get 't', @, \"\\xZZ\", 99999999999999999999, 'ok' ✓"),
        vec![
            ("get", Command),
            ("'t'", Str),
            (",", Punct),
            ("@", Error),
            (",", Punct),
            ("\"\\xZZ\"", Error),
            (",", Punct),
            ("99999999999999999999", Error),
            (",", Punct),
            ("'ok'", Str),
            ("✓", Error),
        ]
    );
}

#[test]
fn spans_are_ordered_on_char_boundaries_and_gaps_are_blank() {
    let inputs = [
        "put 'tä', 'r', 'f:q', 'v' # ünïcode\n\u{0}\u{7f}é€𝄞 get",
        "",
        "   ",
        "\"\\",
        "scan 't', {FILTER => \"ValueFilter(=, 'binary:x')\"}",
    ];
    for src in inputs {
        let mut last = 0;
        for (r, _) in highlight(src) {
            assert!(r.start >= last && r.start < r.end && r.end <= src.len());
            assert!(src.is_char_boundary(r.start) && src.is_char_boundary(r.end));
            assert!(
                src[last..r.start].trim().is_empty(),
                "gap {:?}",
                &src[last..r.start]
            );
            last = r.end;
        }
        assert!(src[last..].trim().is_empty());
    }
}

#[test]
fn css_classes() {
    let all = [
        (Class::Command, "hl-cmd"),
        (Class::Option, "hl-opt"),
        (Class::Str, "hl-str"),
        (Class::Number, "hl-num"),
        (Class::Constant, "hl-const"),
        (Class::Punct, "hl-punct"),
        (Class::Comment, "hl-comment"),
        (Class::Error, "hl-error"),
    ];
    for (class, css) in all {
        assert_eq!(class.css(), css);
    }
}

#[test]
fn a_large_input_is_covered_whole() {
    let line = "put 'users', 'u0001', 'info:name', 'Ada' # one\n";
    let src = line.repeat(100_000);
    let got = highlight(&src);
    assert_eq!(got.len(), 100_000 * 9);
    assert_eq!(got.last().map(|(r, _)| r.end), Some(src.len() - 1));
}
