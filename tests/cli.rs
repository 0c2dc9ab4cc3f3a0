//! The native command-line shell: standard input or a script, multi-line commands, errors
//! that do not stop it, exit status 0 at the end of input.
use std::io::Write;
use std::process::{Command, Stdio};

fn run_cli(args: &[&str], stdin: &str) -> Result<(String, i32), Box<dyn std::error::Error>> {
    run_cli_bytes(args, stdin.as_bytes())
}

fn run_cli_bytes(args: &[&str], stdin: &[u8]) -> Result<(String, i32), Box<dyn std::error::Error>> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    child.stdin.take().ok_or("no stdin")?.write_all(stdin)?;
    let out = child.wait_with_output()?;
    Ok((
        String::from_utf8(out.stdout)?,
        out.status.code().unwrap_or(-1),
    ))
}

#[test]
fn reads_stdin_keeps_going_after_errors_and_exits_zero() -> Result<(), Box<dyn std::error::Error>> {
    let script = "create 't', 'f'\nput 't', 'r1', 'f:a', 'one', 5\nput 't', 'r1'\nscan 't', {\n  COLUMNS => ['f:a']\n}\nget 't', 'r1', 'f:a'\n";
    let (out, code) = run_cli(
        &["shell", "-D", "hbase.shell.timestamp.format.epoch=true"],
        script,
    )?;
    assert_eq!(code, 0);
    assert!(
        out.contains("ERROR: wrong number of arguments (given 2, expected 4..6)\n"),
        "{out}"
    );
    assert!(out.contains("  put 't', 'r1'\n  ^^^^^^^^^^^^^\n"), "{out}");
    assert!(
        out.contains("ROW  COLUMN+CELL\n r1 column=f:a, timestamp=5, value=one\n1 row(s)\n"),
        "{out}"
    );
    assert!(
        out.contains("COLUMN  CELL\n f:a timestamp=5, value=one\n1 row(s)\n"),
        "{out}"
    );
    Ok(())
}

/// HBase 2.3 and later print a timestamp as `toLocalDateTime` in `table.rb` does:
/// `LocalDateTime.ofInstant(instant, ZoneId.systemDefault()).toString`, seconds and
/// milliseconds left out when zero. `-D hbase.shell.timestamp.format.epoch=true` (or
/// `-Dhbase.shell.timestamp.format.epoch=true`) prints epoch milliseconds.
#[test]
fn timestamps_print_as_local_date_time_unless_the_epoch_switch_is_set(
) -> Result<(), Box<dyn std::error::Error>> {
    let script = "create 't', 'f'\nput 't', 'r', 'f:a', 'x', 1700000000000\nput 't', 'r', 'f:b', 'y', 1700000045000\nput 't', 'r', 'f:c', 'z', 1700000045120\nget 't', 'r'\n";
    let run = |args: &[&str]| -> Result<String, Box<dyn std::error::Error>> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rowkey"))
            .args(args)
            .env("TZ", "UTC")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        child
            .stdin
            .take()
            .ok_or("no stdin")?
            .write_all(script.as_bytes())?;
        Ok(String::from_utf8(child.wait_with_output()?.stdout)?)
    };
    let local = run(&["shell"])?;
    assert!(
        local.contains(
            " f:a timestamp=2023-11-14T22:13:20, value=x\n f:b timestamp=2023-11-14T22:14:05, value=y\n f:c timestamp=2023-11-14T22:14:05.120, value=z\n"
        ),
        "{local}"
    );
    let epoch = " f:a timestamp=1700000000000, value=x\n f:b timestamp=1700000045000, value=y\n";
    for args in [
        &["shell", "-D", "hbase.shell.timestamp.format.epoch=true"][..],
        &["shell", "-Dhbase.shell.timestamp.format.epoch=true"][..],
    ] {
        let out = run(args)?;
        assert!(out.contains(epoch), "{args:?}: {out}");
    }
    // `false`, as HBase reads it, keeps the default.
    let out = run(&["shell", "-Dhbase.shell.timestamp.format.epoch=false"])?;
    assert!(
        out.contains("timestamp=2023-11-14T22:13:20, value=x"),
        "{out}"
    );
    let (_, code) = run_cli(&["shell", "-D"], "")?;
    assert_eq!(code, 2, "-D without key=value is refused");
    Ok(())
}

#[test]
fn runs_a_script_file() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::temp_dir().join(format!("rowkey-cli-{}.hb", std::process::id()));
    std::fs::write(&path, "create 't', 'f'\nincr 't', 'r', 'f:n', 3\n")?;
    let (out, code) = run_cli(&["shell", path.to_str().ok_or("path")?], "")?;
    std::fs::remove_file(&path)?;
    assert_eq!(code, 0);
    assert!(out.contains("COUNTER VALUE = 3\n"));
    Ok(())
}

#[test]
fn usage_without_subcommand() -> Result<(), Box<dyn std::error::Error>> {
    let (_, code) = run_cli(&[], "")?;
    assert_eq!(code, 2);
    Ok(())
}

#[test]
fn a_line_that_is_not_utf8_is_named_and_the_rest_still_runs(
) -> Result<(), Box<dyn std::error::Error>> {
    let mut script = b"create 't', 'f'\nput 't', 'r1', 'f:q', '".to_vec();
    script.extend_from_slice(&[0xFF, 0xFE]);
    script.extend_from_slice(b"'\r\nput 't', 'r2', 'f:q', 'ok'\r\nscan 't'\n");
    let (out, code) = run_cli_bytes(&["shell"], &script)?;
    assert_eq!(code, 0);
    assert!(
        out.contains("ERROR: line 2 is not UTF-8 text (byte 0xFF at column 24): write bytes as \"\\xFF\" inside a double-quoted string\n"),
        "{out}"
    );
    assert!(out.contains(" r2 column=f:q, timestamp="), "{out}");
    assert!(
        out.contains("1 row(s)"),
        "the bad line wrote nothing: {out}"
    );
    Ok(())
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn shell_arguments_take_a_file_and_properties_in_both_forms(
) -> Result<(), Box<dyn std::error::Error>> {
    use rowkey::cli::{parse_shell_args, CliError};
    let a = parse_shell_args(&strings(&[
        "-D",
        "hbase.shell.timestamp.format.epoch=true",
        "script.hb",
        "-Dsome.key=a=b",
        "-Dempty=",
    ]))?;
    assert_eq!(a.file.as_deref(), Some("script.hb"));
    assert_eq!(
        a.properties.into_iter().collect::<Vec<_>>(),
        vec![
            ("empty".to_string(), String::new()),
            (
                "hbase.shell.timestamp.format.epoch".to_string(),
                "true".to_string()
            ),
            ("some.key".to_string(), "a=b".to_string()),
        ]
    );
    assert_eq!(parse_shell_args(&[])?, Default::default());
    assert_eq!(
        parse_shell_args(&strings(&["-D"])),
        Err(CliError::MissingProperty)
    );
    assert_eq!(
        parse_shell_args(&strings(&["-Dnovalue"])),
        Err(CliError::BadProperty("novalue".into()))
    );
    assert_eq!(
        parse_shell_args(&strings(&["-D", "=v"])),
        Err(CliError::BadProperty("=v".into()))
    );
    assert_eq!(
        parse_shell_args(&strings(&["--verbose"])),
        Err(CliError::UnknownOption("--verbose".into()))
    );
    let two = parse_shell_args(&strings(&["a.hb", "b.hb"]));
    assert_eq!(
        two.as_ref().map_err(ToString::to_string),
        Err("one script at most ('a.hb' and 'b.hb' given)".to_string())
    );
    Ok(())
}

#[test]
fn subcommands_are_found_by_name_with_a_suggestion_when_close(
) -> Result<(), Box<dyn std::error::Error>> {
    use rowkey::cli::{subcommand, usage, CliError, SUBCOMMANDS};
    for s in SUBCOMMANDS {
        assert_eq!(subcommand(&strings(&[s.name]))?.name, s.name);
        assert!(usage().contains(&format!("  rowkey {} {}\n", s.name, s.usage)));
    }
    assert_eq!(
        subcommand(&strings(&["shel"])).err().map(|e| e.to_string()),
        Some("unknown subcommand 'shel'; did you mean 'shell'?".to_string())
    );
    assert_eq!(
        subcommand(&strings(&["zzzzzzzz"])).err(),
        Some(CliError::UnknownSubcommand {
            name: "zzzzzzzz".into(),
            suggestion: None
        })
    );
    assert_eq!(subcommand(&[]).err(), Some(CliError::NoSubcommand));
    Ok(())
}

#[test]
fn properties_reach_the_shell_and_unknown_keys_are_accepted(
) -> Result<(), Box<dyn std::error::Error>> {
    let (out, code) = run_cli(
        &[
            "shell",
            "-Dno.such.key=1",
            "-D",
            "hbase.shell.timestamp.format.epoch=true",
        ],
        "create 't', 'f'\nput 't', 'r', 'f:q', 'v', 7\nscan 't'\n",
    )?;
    assert_eq!(code, 0);
    assert!(
        out.contains(" r column=f:q, timestamp=7, value=v\n"),
        "{out}"
    );
    let mut sh = rowkey::shell::Shell::new(
        rowkey::engine::Engine::new(Box::new(|| 0)),
        Box::new(|| 0.0),
    );
    sh.set_property("no.such.key", "1");
    assert_eq!(sh.property("no.such.key"), Some("1"));
    assert_eq!(sh.property("other"), None);
    Ok(())
}

#[test]
fn simulate_runs_through_the_subcommand_table() -> Result<(), Box<dyn std::error::Error>> {
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(["simulate", "ls"])
        .output()?;
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)?.starts_with("rowkey simulate: cannot read ls: "));
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(["simulate", "--design", "no.such-design"])
        .output()?;
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr)?,
        "rowkey simulate: no workload for design 'no.such-design'\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(["shel"])
        .output()?;
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)?
        .starts_with("rowkey: unknown subcommand 'shel'; did you mean 'shell'?\nusage: rowkey <subcommand> [ARGS]\n"));
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(["shell", "-Dbad"])
        .output()?;
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)?.starts_with("rowkey shell: 'bad' is not key=value\n"));
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(["--help"])
        .output()?;
    assert_eq!(out.status.code(), Some(0));
    let usage = String::from_utf8(out.stdout)?;
    assert!(usage.contains("rowkey shell [FILE] [-D key=value | -Dkey=value]..."));
    assert!(usage.contains("rowkey cbt [-project P] [-instance I]"));
    Ok(())
}

/// `exit` and `quit` end HBase's shell (IRB's `exit`), a script's commands after them left
/// unrun; `rowkey shell` stops there too, with status 0 (the page's console, which stays open,
/// refuses them instead).
#[test]
fn exit_and_quit_end_the_session_there() -> Result<(), Box<dyn std::error::Error>> {
    for word in ["exit", "quit"] {
        let script = format!(
            "create 't', 'f'\nput 't', 'r1', 'f:a', 'one'\n{word}\nput 't', 'r2', 'f:a', 'two'\n"
        );
        let (out, code) = run_cli(&["shell"], &script)?;
        assert_eq!(code, 0, "{word}: {out}");
        assert!(!out.contains("ERROR"), "{word}: {out}");
        // The last line of output is the put's before the exit; nothing after it ran.
        assert_eq!(out.matches("Took ").count(), 2, "{word}: {out}");
        // Within one line, after other commands, and as the last line without a newline.
        let (out, code) = run_cli(&["shell"], &format!("create 't', 'f'; {word}; list"))?;
        assert_eq!(
            (code, out.matches("Took ").count()),
            (0, 1),
            "{word}: {out}"
        );
    }
    Ok(())
}
