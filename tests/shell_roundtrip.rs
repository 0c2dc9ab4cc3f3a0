//! Every command form parses to an AST that prints back as the same canonical text.
use rowkey::shell::{parse_command, parse_script};

fn round_trip(text: &str) -> Result<(), Box<dyn std::error::Error>> {
    let cmd = parse_command(text)?;
    assert_eq!(cmd.to_string(), text, "canonical text of {text:?}");
    let again = parse_command(&cmd.to_string())?;
    let strip = |c: &rowkey::shell::Command| {
        (
            c.name.clone(),
            c.args.iter().map(|a| a.value.strip()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(strip(&again), strip(&cmd));
    Ok(())
}

const FORMS: &[&str] = &[
    "create 't', 'f1', 'f2'",
    "create 't', {NAME => 'f', VERSIONS => 3, MIN_VERSIONS => 1, TTL => 86400, KEEP_DELETED_CELLS => true}",
    "create 't', {NAME => 'f', BLOOMFILTER => 'ROWCOL', COMPRESSION => 'SNAPPY', BLOCKSIZE => 8192, IN_MEMORY => true, BLOCKCACHE => false}",
    "create 't', 'f', {SPLITS => ['a', 'm', \"\\x00z\"]}",
    "create 't', 'f', {NUMREGIONS => 8, SPLITALGO => 'HexStringSplit'}",
    "create 'ns:t', 'f', {MAX_FILESIZE => 131072, MEMSTORE_FLUSHSIZE => 8192}",
    "list",
    "list 'us.*'",
    "describe 't'",
    "desc 't'",
    "alter 't', {NAME => 'f', VERSIONS => 5}",
    "alter 't', 'f2'",
    "alter 't', {NAME => 'f2', METHOD => 'delete'}",
    "alter 't', {'delete' => 'f2'}",
    "disable 't'",
    "enable 't'",
    "is_enabled 't'",
    "is_disabled 't'",
    "exists 't'",
    "drop 't'",
    "truncate 't'",
    "put 't', 'r1', 'f:q', 'v'",
    "put 't', 'r1', 'f:q', 'v', 1700000000000",
    "put 't', 'r1', 'f:q', 'v', {TTL => 60000}",
    "put 't', \"\\x00\\xFF\", 'f:q', \"it's\"",
    "get 't', 'r1'",
    "get 't', 'r1', 'f:q'",
    "get 't', 'r1', {COLUMN => ['f:a', 'g'], VERSIONS => 3, TIMERANGE => [0, 100], MAXLENGTH => 20}",
    "get 't', 'r1', {TIMESTAMP => 5, FILTER => \"ValueFilter(=, 'binary:x')\"}",
    "scan 't'",
    "scan 't', {STARTROW => 'a', STOPROW => 'b', LIMIT => 10, REVERSED => false}",
    "scan 't', {ROWPREFIXFILTER => 'u1_', COLUMNS => ['f:a'], RAW => true, VERSIONS => 10}",
    "scan 't', {TIMERANGE => [1, 2], FILTER => \"PrefixFilter('a') AND (QualifierFilter(>=, 'binary:b') OR SKIP ValueFilter(!=, 'substring:x'))\"}",
    "count 't'",
    "count 't', {INTERVAL => 100}",
    "delete 't', 'r', 'f:q'",
    "delete 't', 'r', 'f:q', 5",
    "deleteall 't', 'r'",
    "deleteall 't', 'r', 'f:q', 5",
    "deleteall 't', {ROWPREFIXFILTER => 'tmp'}",
    "incr 't', 'r', 'f:n'",
    "incr 't', 'r', 'f:n', -3",
    "get_counter 't', 'r', 'f:n'",
    "append 't', 'r', 'f:log', 'x'",
    "get_splits 't'",
    "flush 't'",
    "compact 't'",
    "list_regions 't', {LOCALITY_THRESHOLD => 0.8}, ['REQ']",
    "list_regions 't', {LOCALITY_THRESHOLD => 1.0}",
    "compact 't', 'f'",
    "major_compact 't'",
    "split 't'",
    "split 't', 'm'",
    "check_and_put 't', 'r', 'f:q', nil, 'f:q', 'v'",
    "check_and_put 't', 'r', 'f:q', '5', 'f:z', 'v', {OP => '<'}",
    "check_and_delete 't', 'r', 'f:q', 'v', 'f:q'",
    "mutate_row 't', 'r', [['put', 'f:a', '1'], ['delete', 'f:b'], ['deleteall', 'g']]",
    "help",
    "help 'scan'",
    "clear",
];

#[test]
fn every_command_form_round_trips() -> Result<(), Box<dyn std::error::Error>> {
    for form in FORMS {
        round_trip(form)?;
    }
    Ok(())
}

#[test]
fn loose_input_prints_canonically() -> Result<(), Box<dyn std::error::Error>> {
    let cmd = parse_command("scan  \"t\" ,STARTROW=>'a',LIMIT=>2")?;
    assert_eq!(cmd.to_string(), "scan 't', {STARTROW => 'a', LIMIT => 2}");
    let cmd = parse_command("get('t', 'r')")?;
    assert_eq!(cmd.to_string(), "get 't', 'r'");
    Ok(())
}

#[test]
fn quoting_rules() -> Result<(), Box<dyn std::error::Error>> {
    let value = |text: &str| -> Result<rowkey::shell::Value, Box<dyn std::error::Error>> {
        Ok(parse_command(text)?.args.remove(0).value)
    };
    assert_eq!(
        value(r#"x "a\x41\n\\\"""#)?,
        rowkey::shell::Value::Str(b"aA\n\\\"".to_vec())
    );
    assert_eq!(
        value(r"x 'a\x41\n'")?,
        rowkey::shell::Value::Str(br"a\x41\n".to_vec()),
        "single quotes keep escapes"
    );
    assert_eq!(
        value(r"x 'it\'s'")?,
        rowkey::shell::Value::Str(b"it's".to_vec())
    );
    Ok(())
}

#[test]
fn script_splits_on_newlines_and_semicolons_but_not_inside_brackets() {
    let cmds =
        parse_script("create 't', 'f'; put 't', 'r', 'f:q', 'v'\nscan 't', {\n  LIMIT => 1\n}\n");
    assert_eq!(cmds.len(), 3);
    assert!(cmds.iter().all(Result::is_ok));
}
