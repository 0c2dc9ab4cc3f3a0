//! The cbt dialect checked line by line against Google's own tools: every case in
//! `tests/cbt/cases/*.txt` runs through the real `cbt` CLI against the Bigtable emulator
//! (`cbtemulator`) and through `rowkey cbt`, and the two transcripts must be equal.
//!
//! A case file holds `#` comments, then the command lines (as they would be typed after
//! `cbt -project p -instance CASE`), and optionally:
//!
//! - `@gc TABLE`: garbage collection runs. The emulator collects on a timer (every 0.5 to 1.5 s
//!   once a family has changed since it started, `bttest` `server.gcloop`), so the emulator side
//!   waits 2 s; Rowkey's side runs `compact TABLE`, its stand-in for Bigtable's background
//!   compaction.
//! - `@tz NAME`: both sides run with `TZ=NAME` instead of `TZ=UTC` (the zone cbt prints times
//!   in, read by Go's `time` package from the system's tzdata).
//! - `--- file NAME` ... `--- end`: a file written into the case's working directory before the
//!   lines run (the CSV of an `import`).
//! - `--- rowkey` ... `--- end`: where the emulator departs from Bigtable's
//!   documentation, the transcript Rowkey must print instead (the comments cite the page); the
//!   emulator's transcript is then printed for the record, not compared.
//!
//! A transcript is what the lines print on standard output, then `--- stderr` and what they
//! print on standard error, with cbt's log-time prefix and its `-creds flag unset` notice
//! dropped and `frontend_server_latency` masked.
//!
//! Without `/usr/bin/cbt` or the emulator, the test says which Debian package provides them
//! and counts every case as skipped.

use std::collections::VecDeque;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where Debian's packages put the tools; `ROWKEY_CBT` and `ROWKEY_CBTEMULATOR` name others.
const CBT: &str = "/usr/bin/cbt";
const EMULATOR: &str = "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator";

fn tool(env: &str, default: &str) -> String {
    std::env::var(env).unwrap_or_else(|_| default.to_string())
}
/// How long the emulator side waits for its garbage-collection timer (at most 1.5 s).
const GC_WAIT: Duration = Duration::from_millis(2_000);
const THREADS: usize = 4;
/// The export replays run after the cases (a cbt script, a CSV through `cbt import`, a gallery
/// design's table as a CSV through `cbt import`).
const REPLAYS: usize = 3;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// One case file.
struct Case {
    name: String,
    lines: Vec<String>,
    files: Vec<(String, String)>,
    /// Rowkey's transcript where the emulator departs from Bigtable's documentation.
    documented: Option<String>,
    /// The `TZ` both sides run with.
    tz: String,
    /// A gallery design `rowkey cbt` loads first (`-design ID`).
    design: Option<String>,
}

fn parse_case(name: &str, text: &str) -> Result<Case, Error> {
    let mut case = Case {
        name: name.to_string(),
        lines: Vec::new(),
        files: Vec::new(),
        documented: None,
        tz: "UTC".to_string(),
        design: None,
    };
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(file) = line.strip_prefix("--- file ") {
            let body = block(&mut lines, name, "--- file")?;
            case.files.push((file.trim().to_string(), body));
        } else if let Some(tz) = line.strip_prefix("@tz ") {
            case.tz = tz.trim().to_string();
        } else if line == "--- rowkey" {
            case.documented = Some(block(&mut lines, name, "--- rowkey")?);
        } else if line.trim().is_empty() || line.starts_with('#') {
            continue;
        } else {
            case.lines.push(line.to_string());
        }
    }
    if case.lines.is_empty() {
        return Err(format!("{name}: no command lines").into());
    }
    Ok(case)
}

/// The lines up to `--- end`, each ended by a newline.
fn block<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
    name: &str,
    opener: &str,
) -> Result<String, Error> {
    let mut body = String::new();
    loop {
        match lines.next() {
            Some("--- end") => return Ok(body),
            Some(l) => {
                body.push_str(l);
                body.push('\n');
            }
            None => return Err(format!("{name}: `{opener}` without `--- end`").into()),
        }
    }
}

fn transcript(stdout: &str, stderr: &str) -> String {
    let mut text = mask(stdout);
    if !stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&mask(stderr));
    }
    text
}

/// The standard-output part of a transcript (an import's log on standard error differs).
fn stdout_part(transcript: &str) -> String {
    transcript
        .split("--- stderr\n")
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Masks the one figure that differs from run to run.
fn mask(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("frontend_server_latency: ") {
            out.push_str("frontend_server_latency: <masked>\n");
        } else {
            out.push_str(line);
        }
    }
    out
}

/// cbt's standard error without its log prefix (`2006/01/02 15:04:05 `) and without the
/// credentials notice.
fn clean_cbt_stderr(stderr: &str) -> String {
    let mut out = String::new();
    for line in stderr.split_inclusive('\n') {
        let bytes = line.as_bytes();
        let prefixed = bytes.len() >= 20
            && bytes[4] == b'/'
            && bytes[7] == b'/'
            && bytes[10] == b' '
            && bytes[13] == b':'
            && bytes[16] == b':'
            && bytes[19] == b' '
            && bytes[..4].iter().all(u8::is_ascii_digit);
        let line = if prefixed { &line[20..] } else { line };
        if line.starts_with("-creds flag unset") {
            continue;
        }
        out.push_str(line);
    }
    out
}

/// Runs a case through the real cbt, one process per line, as a shell runs it.
fn run_cbt(case: &Case, dir: &Path, host: &str, empty_path: &Path) -> Result<String, Error> {
    let mut stdout = String::new();
    let mut stderr = String::new();
    for line in &case.lines {
        if let Some(_table) = line.strip_prefix("@gc ") {
            std::thread::sleep(GC_WAIT);
            continue;
        }
        // bash splits the line as the person's shell would (quotes, `$'...'`). PATH holds no
        // `gcloud`, which cbt would otherwise start on every call to look up credentials the
        // emulator does not need (seconds per call).
        let script = format!(
            "exec -a cbt {CBT} -project p -instance {} {line}",
            case.name
        );
        let output = Command::new("/bin/bash")
            .arg("-c")
            .arg(&script)
            .current_dir(dir)
            .env("BIGTABLE_EMULATOR_HOST", host)
            .env("TZ", &case.tz)
            .env("PATH", empty_path)
            .env("HOME", dir)
            .stdin(Stdio::null())
            .output()?;
        stdout.push_str(&String::from_utf8_lossy(&output.stdout));
        stderr.push_str(&clean_cbt_stderr(&String::from_utf8_lossy(&output.stderr)));
    }
    Ok(transcript(&stdout, &stderr))
}

/// Runs a case through `rowkey cbt`, all lines on standard input.
fn run_rowkey(case: &Case, dir: &Path) -> Result<String, Error> {
    let (stdout, stderr) = rowkey_output(case, dir)?;
    Ok(transcript(
        &String::from_utf8_lossy(&stdout),
        &String::from_utf8_lossy(&stderr),
    ))
}

/// A transcript without the lines Rowkey's `help` adds to cbt 1.23.2's command listing (the
/// commands of later cbt releases and Rowkey's own, which 1.23.2 does not have), so the rest
/// of the listing is compared with cbt's.
fn without_later_commands(transcript: &str) -> String {
    let added = rowkey::cbt::listing::added_lines();
    transcript
        .split_inclusive('\n')
        .filter(|l| !added.iter().any(|a| l.trim_end_matches('\n') == a))
        .collect()
}

/// What `rowkey cbt` prints for a case's lines: standard output and standard error.
fn rowkey_output(case: &Case, dir: &Path) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let mut input = String::new();
    for line in &case.lines {
        match line.strip_prefix("@gc ") {
            Some(table) => input.push_str(&format!("compact {table}\n")),
            None => {
                input.push_str(line);
                input.push('\n');
            }
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(["cbt", "-project", "p", "-instance", &case.name])
        .args(case.design.iter().flat_map(|id| ["-design", id.as_str()]))
        .current_dir(dir)
        .env("TZ", &case.tz)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(input.as_bytes())?;
    let output = child.wait_with_output()?;
    Ok((output.stdout, output.stderr))
}

/// The first line where two transcripts differ, for the report.
fn first_difference(want: &str, got: &str) -> String {
    let w: Vec<&str> = want.lines().collect();
    let g: Vec<&str> = got.lines().collect();
    for i in 0..w.len().max(g.len()) {
        if w.get(i) != g.get(i) {
            return format!(
                "line {}:\n    expected: {:?}\n    rowkey:   {:?}",
                i + 1,
                w.get(i).copied().unwrap_or("<end>"),
                g.get(i).copied().unwrap_or("<end>")
            );
        }
    }
    "(same lines, different line endings)".into()
}

/// The emulator, stopped by its process id when dropped.
struct Emulator {
    child: Child,
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_emulator() -> Result<(Emulator, String), Error> {
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let child = Command::new(tool("ROWKEY_CBTEMULATOR", EMULATOR))
        .args(["-host", "127.0.0.1", "-port", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let emulator = Emulator { child };
    let host = format!("127.0.0.1:{port}");
    let started = Instant::now();
    while TcpStream::connect(&host).is_err() {
        if started.elapsed() > Duration::from_secs(20) {
            return Err(format!("cbtemulator did not listen on {host} within 20 s").into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok((emulator, host))
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cbt/cases")
}

fn load_cases() -> Result<Vec<Case>, Error> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(cases_dir())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut cases = Vec::new();
    for path in paths {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or("case file name")?
            .to_string();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        cases.push(parse_case(&name, &std::fs::read_to_string(&path)?)?);
    }
    Ok(cases)
}

enum Outcome {
    Passed,
    Failed(String),
}

fn run_case(case: &Case, host: &str, work: &Path, empty_path: &Path) -> Result<Outcome, Error> {
    let cbt_dir = work.join(format!("{}-cbt", case.name));
    let rowkey_dir = work.join(format!("{}-rowkey", case.name));
    for dir in [&cbt_dir, &rowkey_dir] {
        std::fs::create_dir_all(dir)?;
        for (name, body) in &case.files {
            std::fs::write(dir.join(name), body)?;
        }
    }
    let emulator = run_cbt(case, &cbt_dir, host, empty_path)?;
    let rowkey = without_later_commands(&run_rowkey(case, &rowkey_dir)?);
    let (want, against) = match &case.documented {
        Some(documented) => (documented.clone(), "Bigtable's documentation"),
        None => (emulator.clone(), "cbt and the emulator"),
    };
    if want == rowkey {
        Ok(Outcome::Passed)
    } else {
        Ok(Outcome::Failed(format!(
            "{} (against {against}): {}\n--- emulator\n{emulator}--- rowkey\n{rowkey}",
            case.name,
            first_difference(&want, &rowkey)
        )))
    }
}

/// A Bigtable design taken to "a real instance": `tests/cbt/replay/design.txt` runs in Rowkey,
/// which exports the table as a cbt script and as a CSV; the script replays line by line through
/// the real cbt, the CSV through the real `cbt import`, and the emulator must then read back
/// what Rowkey reads (every version after the script; the newest of each column after the CSV,
/// which holds one cell per column).
fn replay(host: &str, work: &Path, empty_path: &Path) -> Result<Vec<(String, Outcome)>, Error> {
    let design = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cbt/replay/design.txt"),
    )?;
    let source = parse_case("replay", &design)?;
    let table = "mobile-time-series";
    let dir = work.join("replay");
    std::fs::create_dir_all(&dir)?;
    let with = |name: &str, extra: &[&str]| {
        let mut case = Case {
            name: name.to_string(),
            lines: source.lines.clone(),
            files: Vec::new(),
            documented: None,
            tz: "UTC".to_string(),
            design: None,
        };
        case.lines.extend(extra.iter().map(|l| l.to_string()));
        case
    };
    let (script, _) = rowkey_output(&with("replay", &[&format!("export {table}")]), &dir)?;
    let (csv, _) = rowkey_output(
        &with("replay", &[&format!("export {table} format=csv")]),
        &dir,
    )?;
    let script = String::from_utf8(script)?;
    if script.lines().count() > 51 {
        return Err("the replayed script must be at most 50 rows".into());
    }
    let mut outcomes = Vec::new();
    // The script, line by line.
    // Garbage collection first on both sides: the emulator collects on its timer whenever it
    // likes, Rowkey when compacted; the policies' outcome is then the same.
    let reads = [
        format!("@gc {table}"),
        format!("ls {table}"),
        format!("read {table}"),
    ];
    let mut lines: Vec<String> = script.lines().map(str::to_string).collect();
    lines.extend(reads.iter().cloned());
    let replayed = Case {
        name: "replay-script".into(),
        lines,
        files: Vec::new(),
        documented: None,
        tz: "UTC".to_string(),
        design: None,
    };
    let emulator = run_cbt(&replayed, &dir, host, empty_path)?;
    let reads_ref: Vec<&str> = reads.iter().map(String::as_str).collect();
    let rowkey = run_rowkey(&with("replay-script", &reads_ref), &dir)?;
    outcomes.push((
        "export-script-replay".to_string(),
        compare("export-script-replay", &rowkey, &emulator),
    ));
    // The CSV through `cbt import`.
    let create = script.lines().next().ok_or("empty export")?.to_string();
    std::fs::write(dir.join("export.csv"), &csv)?;
    let imported = Case {
        name: "replay-csv".into(),
        lines: vec![
            create,
            format!("import {table} export.csv timestamp=value-encoded"),
            format!("@gc {table}"),
            format!("read {table}"),
        ],
        files: Vec::new(),
        documented: None,
        tz: "UTC".to_string(),
        design: None,
    };
    let emulator = run_cbt(&imported, &dir, host, empty_path)?;
    let emulator_stdout = stdout_part(&emulator);
    let rowkey = run_rowkey(
        &with(
            "replay-csv",
            &[
                &format!("@gc {table}"),
                &format!("read {table} cells-per-column=1"),
            ],
        ),
        &dir,
    )?;
    outcomes.push((
        "export-csv-import".to_string(),
        compare("export-csv-import", &rowkey, &emulator_stdout),
    ));
    outcomes.push((
        "design-csv-import".to_string(),
        design_replay(host, work, empty_path)?,
    ));
    Ok(outcomes)
}

/// A gallery design taken to "a real instance": `rowkey cbt -design schema.reversed-domain`
/// exports its `sg_domain` table as a CSV, which the real `cbt import` loads into the emulator
/// (after the table's `createtable` line), and the emulator must read back what Rowkey reads.
fn design_replay(host: &str, work: &Path, empty_path: &Path) -> Result<Outcome, Error> {
    let (design, table) = ("schema.reversed-domain", "sg_domain");
    let dir = work.join("design-replay");
    std::fs::create_dir_all(&dir)?;
    let case = |lines: &[&str]| Case {
        name: "design-replay".into(),
        lines: lines.iter().map(|l| l.to_string()).collect(),
        files: Vec::new(),
        documented: None,
        tz: "UTC".to_string(),
        design: Some(design.to_string()),
    };
    let (script, _) = rowkey_output(&case(&[&format!("export {table}")]), &dir)?;
    let (csv, _) = rowkey_output(&case(&[&format!("export {table} format=csv")]), &dir)?;
    let script = String::from_utf8(script)?;
    let create = script.lines().next().ok_or("empty export")?.to_string();
    std::fs::write(dir.join("design.csv"), &csv)?;
    let mut imported = case(&[
        &create,
        &format!("import {table} design.csv timestamp=value-encoded"),
        &format!("read {table}"),
    ]);
    imported.design = None;
    let emulator = run_cbt(&imported, &dir, host, empty_path)?;
    let emulator_stdout = stdout_part(&emulator);
    let rowkey = run_rowkey(&case(&[&format!("read {table}")]), &dir)?;
    Ok(compare("design-csv-import", &rowkey, &emulator_stdout))
}

fn compare(name: &str, rowkey: &str, emulator: &str) -> Outcome {
    if rowkey == emulator {
        Outcome::Passed
    } else {
        Outcome::Failed(format!(
            "{name}: {}\n--- emulator\n{emulator}--- rowkey\n{rowkey}",
            first_difference(emulator, rowkey)
        ))
    }
}

fn main() -> Result<(), Error> {
    let cases = load_cases()?;
    let missing: Vec<(String, &str)> = [
        (tool("ROWKEY_CBT", CBT), "google-cloud-cli-cbt"),
        (
            tool("ROWKEY_CBTEMULATOR", EMULATOR),
            "google-cloud-cli-bigtable-emulator",
        ),
    ]
    .into_iter()
    .filter(|(path, _)| !Path::new(path).exists())
    .collect();
    if !missing.is_empty() {
        for (path, package) in missing {
            println!(
                "cbt differential: {path} is missing; the Debian package {package} (served by Google's package repository) provides it"
            );
        }
        println!(
            "cbt differential: skipped: 0 passed, 0 failed, {} skipped",
            cases.len() + REPLAYS
        );
        return Ok(());
    }
    let started = Instant::now();
    let work = std::env::temp_dir().join(format!("rowkey-cbt-diff-{}", std::process::id()));
    let empty_path = work.join("empty-path");
    std::fs::create_dir_all(&empty_path)?;
    let (emulator, host) = start_emulator()?;
    let queue = Arc::new(Mutex::new(cases.into_iter().collect::<VecDeque<Case>>()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let mut workers = Vec::new();
    for _ in 0..THREADS {
        let queue = Arc::clone(&queue);
        let results = Arc::clone(&results);
        let host = host.clone();
        let work = work.clone();
        let empty_path = empty_path.clone();
        workers.push(std::thread::spawn(move || loop {
            let next = queue.lock().ok().and_then(|mut q| q.pop_front());
            let Some(case) = next else { break };
            let outcome = run_case(&case, &host, &work, &empty_path)
                .unwrap_or_else(|e| Outcome::Failed(format!("{}: {e}", case.name)));
            if let Ok(mut r) = results.lock() {
                r.push((case.name.clone(), outcome));
            }
        }));
    }
    for w in workers {
        w.join().map_err(|_| "a worker panicked")?;
    }
    let mut results = std::mem::take(&mut *results.lock().map_err(|_| "results")?);
    if std::env::args().skip(1).all(|a| a.starts_with('-')) {
        results.extend(replay(&host, &work, &empty_path)?);
    }
    drop(emulator);
    let _ = std::fs::remove_dir_all(&work);
    let total = results.len();
    let mut failed = 0;
    for (_, outcome) in &results {
        if let Outcome::Failed(report) = outcome {
            failed += 1;
            println!("FAILED {report}\n");
        }
    }
    let passed = results.len() - failed;
    println!(
        "cbt differential: {passed} passed, {failed} failed, 0 skipped ({total} cases in {:.1} s)",
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(format!("{failed} of {total} cbt cases differ").into());
    }
    Ok(())
}
