#![cfg(not(target_arch = "wasm32"))]
//! Tab completion reads the live schema: commands, tables, families, qualifiers, options and
//! filter names, each where the shell expects it.
mod common;
use common::*;
use rowkey::shell::{complete, Completion, Shell};

fn users() -> Shell {
    let (mut sh, _) = shell_at(1_000);
    sh.run(
        "create 'users', {NAME => 'info', VERSIONS => 3}, 'stats'\n\
         create 'orders', 'o'\n\
         put 'users', 'u1', 'info:name', 'Ada'\n\
         put 'users', 'u1', 'info:nick', 'ada'\n\
         put 'users', 'u2', 'info:age', '36'\n\
         put 'users', 'u2', 'stats:logins', '9'",
    );
    sh
}

/// Completes at the end of `src`.
fn at_end(sh: &Shell, src: &str) -> Completion {
    complete(src, src.len(), &sh.engine)
}

fn cands(c: &Completion) -> Vec<&str> {
    c.candidates.iter().map(String::as_str).collect()
}

#[test]
fn command_names_at_statement_start() {
    let sh = users();
    let c = at_end(&sh, "sc");
    assert_eq!(c.replace, 0..2);
    assert_eq!(cands(&c), ["scan"]);
    let c = at_end(&sh, "list\nde");
    assert_eq!(c.replace, 5..7);
    assert_eq!(cands(&c), ["delete", "deleteall", "desc", "describe"]);
    assert_eq!(c.common(), "de");
    let c = at_end(&sh, "list; get_");
    assert_eq!(cands(&c), ["get_counter", "get_splits", "get_table"]);
    assert_eq!(c.common(), "get_");
    assert_eq!(
        at_end(&sh, "").candidates.len(),
        rowkey::commands::of(rowkey::commands::Dialect::HBase)
            .filter(|c| c.group != rowkey::commands::Group::Cluster)
            .count()
    );
    assert!(at_end(&sh, "zz").candidates.is_empty());
}

#[test]
fn table_names_in_the_first_argument_quoted() {
    let sh = users();
    let c = at_end(&sh, "scan 'us");
    assert_eq!((c.replace.clone(), cands(&c)), (5..8, vec!["'users'"]));
    let c = at_end(&sh, "scan ");
    assert_eq!(
        (c.replace.clone(), cands(&c)),
        (5..5, vec!["'orders'", "'users'"])
    );
    let c = at_end(&sh, "get \"o");
    assert_eq!(cands(&c), ["\"orders\""]);
    let c = at_end(&sh, "count us");
    assert_eq!((c.replace.clone(), cands(&c)), (6..8, vec!["'users'"]));
    let c = at_end(&sh, "scan('u");
    assert_eq!(cands(&c), ["'users'"]);
    // A new table's name is not completed; help completes command names.
    assert!(at_end(&sh, "create 'u").candidates.is_empty());
    assert_eq!(cands(&at_end(&sh, "help 'sca")), ["'scan'"]);
    // After a closed string there is nothing to complete.
    assert!(at_end(&sh, "scan 'users'").candidates.is_empty());
}

#[test]
fn the_schema_is_live() {
    let mut sh = users();
    assert!(at_end(&sh, "scan 'ev").candidates.is_empty());
    sh.run("create 'events', 'e'");
    assert_eq!(cands(&at_end(&sh, "scan 'ev")), ["'events'"]);
    assert_eq!(cands(&at_end(&sh, "put 'events', 'r', '")), ["'e:"]);
    sh.run("put 'events', 'r', 'e:click', '1'");
    assert_eq!(cands(&at_end(&sh, "get 'events', 'r', 'e:")), ["'e:click'"]);
    sh.run("disable 'events'\ndrop 'events'");
    assert!(at_end(&sh, "scan 'ev").candidates.is_empty());
}

#[test]
fn families_and_qualifiers_in_column_positions() {
    let sh = users();
    let c = at_end(&sh, "put 'users', 'u3', '");
    assert_eq!(
        (c.replace.clone(), cands(&c)),
        (19..20, vec!["'info:", "'stats:"])
    );
    let c = at_end(&sh, "put 'users', 'u3', 'info:n");
    assert_eq!(cands(&c), ["'info:name'", "'info:nick'"]);
    assert_eq!(c.common(), "'info:n");
    let c = at_end(&sh, "get 'users', 'u1', 'info:");
    assert_eq!(cands(&c), ["'info:age'", "'info:name'", "'info:nick'"]);
    let c = at_end(&sh, "incr 'users', 'u1', 'st");
    assert_eq!(cands(&c), ["'stats:"]);
    // COLUMN(S) values may name a whole family.
    let c = at_end(&sh, "get 'users', 'u1', {COLUMN => 'i");
    assert_eq!(cands(&c), ["'info'", "'info:"]);
    assert_eq!(c.common(), "'info");
    let c = at_end(&sh, "scan 'users', {COLUMNS => ['info:name', 'stats:");
    assert_eq!(cands(&c), ["'stats:logins'"]);
    let c = at_end(&sh, "scan 'users', COLUMNS => 'info:a");
    assert_eq!(cands(&c), ["'info:age'"]);
    // Not a column position: the row argument.
    assert!(at_end(&sh, "put 'users', 'u").candidates.is_empty());
    // An unknown table offers nothing.
    assert!(at_end(&sh, "put 'nope', 'r', '").candidates.is_empty());
}

#[test]
fn option_keys_inside_a_hash() {
    let sh = users();
    let c = at_end(&sh, "scan 'users', {LIM");
    assert_eq!((c.replace.clone(), cands(&c)), (15..18, vec!["LIMIT"]));
    let c = at_end(&sh, "scan 'users', {LIMIT => 5, REV");
    assert_eq!(cands(&c), ["REVERSED"]);
    let c = at_end(&sh, "scan 'users', LIMIT => 5, STA");
    assert_eq!(cands(&c), ["STARTROW"]);
    let c = at_end(&sh, "create 't', {NAME => 'f', VER");
    assert_eq!(cands(&c), ["VERSIONS"]);
    let c = at_end(&sh, "get 'users', 'u1', {");
    assert_eq!(c.candidates.len(), 9);
    assert!(at_end(&sh, "get 'users', 'u1', {LIM").candidates.is_empty());
    assert_eq!(
        cands(&at_end(&sh, "get 'users', 'u1', {FORMATTER_")),
        ["FORMATTER_CLASS"]
    );
    // A value position is not a key.
    assert!(at_end(&sh, "scan 'users', {LIMIT => LIM")
        .candidates
        .is_empty());
}

#[test]
fn filter_names_inside_a_filter_string() {
    let sh = users();
    let c = at_end(&sh, "scan 'users', {FILTER => \"Pref");
    assert_eq!(
        (c.replace.clone(), cands(&c)),
        (26..30, vec!["PrefixFilter"])
    );
    let c = at_end(&sh, "scan 'users', FILTER => \"PrefixFilter('a') AND Val");
    assert_eq!(cands(&c), ["ValueFilter"]);
    let c = at_end(&sh, "scan 'users', {FILTER => \"SKIP (Sing");
    assert_eq!(
        cands(&c),
        ["SingleColumnValueExcludeFilter", "SingleColumnValueFilter"]
    );
    assert!(
        at_end(&sh, "scan 'users', {FILTER => \"ValueFilter(=, 'bin")
            .candidates
            .is_empty()
    );
}

#[test]
fn multibyte_text_before_the_cursor() {
    let sh = users();
    let src = "put 'users', 'ü€𝄞', 'info:n";
    let c = at_end(&sh, src);
    assert_eq!(&src[c.replace.clone()], "'info:n");
    assert_eq!(cands(&c), ["'info:name'", "'info:nick'"]);
    let src = "scan 'üsers'; sc";
    let c = at_end(&sh, src);
    assert_eq!(&src[c.replace.clone()], "sc");
}

#[test]
fn the_cursor_in_the_middle_of_the_input() {
    let sh = users();
    // The word under the cursor is replaced whole, the rest of the input kept.
    let src = "sc 'users'\nlist";
    let c = complete(src, 2, &sh.engine);
    assert_eq!((c.replace.clone(), cands(&c)), (0..2, vec!["scan"]));
    let src = "scan 'us', {LIMIT => 1}";
    let c = complete(src, 8, &sh.engine);
    assert_eq!(&src[c.replace.clone()], "'us'");
    assert_eq!(cands(&c), ["'users'"]);
    let src = "put 'users', 'r', 'info:na', 'v'";
    let c = complete(src, 26, &sh.engine);
    assert_eq!(&src[c.replace.clone()], "'info:na'");
    assert_eq!(cands(&c), ["'info:name'"]);
    let src = "scan 'users', {LIMIT => 1}";
    let c = complete(src, 17, &sh.engine);
    assert_eq!(&src[c.replace.clone()], "LIMIT");
    assert_eq!(cands(&c), ["LIMIT"]);
}

#[test]
fn any_cursor_value_is_clamped_never_a_panic() {
    let sh = users();
    let src = "put 'üsers', 'r€', 'info:n";
    for cursor in 0..src.len() + 10 {
        let c = complete(src, cursor, &sh.engine);
        assert!(c.replace.start <= c.replace.end && c.replace.end <= src.len());
        assert!(src.is_char_boundary(c.replace.start) && src.is_char_boundary(c.replace.end));
    }
    let c = complete("sc", usize::MAX, &sh.engine);
    assert_eq!(cands(&c), ["scan"]);
    // Inside a multibyte char: moved back to its start.
    let c = complete("scan 'ü", 7, &sh.engine);
    assert_eq!(c.replace, 5..6);
}

#[test]
fn common_prefix() {
    let c = Completion {
        replace: 0..0,
        candidates: vec!["'info:name'".into(), "'info:nick'".into()],
    };
    assert_eq!(c.common(), "'info:n");
    let c = Completion {
        replace: 0..0,
        candidates: vec!["éa".into(), "éb".into()],
    };
    assert_eq!(c.common(), "é");
    assert_eq!(Completion::default().common(), "");
    let one = Completion {
        replace: 0..0,
        candidates: vec!["scan".into()],
    };
    assert_eq!(one.common(), "scan");
}
