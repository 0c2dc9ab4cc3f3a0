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
