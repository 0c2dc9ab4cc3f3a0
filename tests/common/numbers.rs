//! Sizes and counts that must read the same on a 64-bit machine and in a 32-bit browser: the
//! inputs and the results both `settings_numbers.rs` (native) and `web_settings_numbers.rs`
//! (wasm32, headless Chromium) check. A count of 2^32 + 1 is the telling input: cast to a
//! 32-bit `usize` it would become 1.

use rowkey::cbt;
use rowkey::engine::Engine;
use rowkey::persist::{export_json, import_json};
use rowkey::shell::{Shell, TimeFormat};

/// HBase's largest `MAX_FILESIZE` in common use: 10 GiB, over `u32::MAX`.
pub const TEN_GIB: u64 = 10 * 1024 * 1024 * 1024;

fn shell() -> Shell {
    let mut sh = Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    sh.time_format = TimeFormat::Epoch;
    sh
}

/// Each command's output, or `ERROR: <message>` for an error.
fn outputs(sh: &mut Shell, script: &str) -> Vec<String> {
    sh.run(script)
        .into_iter()
        .map(|o| match o.error {
            Some(e) => format!("ERROR: {}", e.message),
            None => o.output,
        })
        .collect()
}

/// What the inputs gave: `(what, result)` pairs, the same on every target.
pub fn observed() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut sh = shell();
    let created = outputs(
        &mut sh,
        "create 'big', 'f', {MAX_FILESIZE => '10737418240', COMPACTION_THRESHOLD => 4294967298}",
    );
    out.push((
        "create with 10 GiB and 2^32 + 2",
        format!("{}", created.iter().any(|o| o.starts_with("ERROR"))),
    ));
    let settings = sh.engine.table("big").map(|t| t.descriptor.settings).ok();
    out.push((
        "split bytes",
        settings.map_or("no table".into(), |s| s.split_bytes.to_string()),
    ));
    out.push((
        "compaction threshold",
        settings.map_or("no table".into(), |s| s.compaction_threshold.to_string()),
    ));
    let refused = outputs(&mut sh, "create 'small', 'f', {COMPACTION_THRESHOLD => 1}");
    out.push(("threshold 1", refused.join("")));
    outputs(&mut sh, "put 'big', 'r1', 'f:q', 'value1'");
    let whole = outputs(&mut sh, "scan 'big'").join("");
    let long_cut = outputs(&mut sh, "scan 'big', {MAXLENGTH => 4294967298}").join("");
    out.push((
        "MAXLENGTH 2^32 + 2 cuts nothing",
        (whole == long_cut).to_string(),
    ));
    let cut = outputs(&mut sh, "scan 'big', {MAXLENGTH => 12}").join("");
    out.push((
        "MAXLENGTH 12",
        cut.lines().nth(1).unwrap_or_default().to_string(),
    ));
    // A JSON export with the 10 GiB split size imports with it.
    let json = export_json(&sh.engine, Some("big"));
    let imported = import_json(&shell().engine, &json, Box::new(|| 1_700_000_000_000));
    out.push((
        "imported split bytes",
        match imported {
            Ok(e) => e.table("big").map_or("no table".into(), |t| {
                t.descriptor.settings.split_bytes.to_string()
            }),
            Err(e) => format!("ERROR: {e}"),
        },
    ));
    out.extend(cbt_counts());
    out
}

/// cbt's counts past `u32::MAX`: `import`'s `batch-size`, `read`'s `count` and `lookup`'s
/// `cells-per-column` (Go's `int`, 64 bits in cbt).
fn cbt_counts() -> Vec<(&'static str, String)> {
    let mut s = cbt::Session::new(Engine::new(Box::new(|| 1_700_000_000_000)));
    s.read_file = Box::new(|_| Ok(b",cf\n,a\nr1,x\nr2,y\nr3,z\n".to_vec()));
    let mut run = |line: &str| {
        let out = s.run_line(line);
        match out.failed {
            true => format!("ERROR: {}", out.stderr),
            false => format!("{}{}", String::from_utf8_lossy(&out.stdout), out.stderr),
        }
    };
    run("createtable nums families=cf");
    run("set nums r1 cf:a=old@1000");
    let imported = run("import nums rows.csv batch-size=4294967297");
    let rows = run("read nums count=4294967297");
    let cells = run("lookup nums r1 cells-per-column=4294967297");
    let count = |text: &str, start: &str| text.lines().filter(|l| l.starts_with(start)).count();
    vec![
        (
            "cbt import batches of 2^32 + 1",
            count(&imported, "[0] Writing batch").to_string(),
        ),
        (
            "cbt read count=2^32 + 1 rows",
            count(&rows, "r").to_string(),
        ),
        (
            "cbt lookup cells-per-column=2^32 + 1 cells",
            count(&cells, "  cf:a").to_string(),
        ),
    ]
}

/// What every target must observe.
pub fn expected() -> Vec<(&'static str, String)> {
    vec![
        ("create with 10 GiB and 2^32 + 2", "false".into()),
        ("split bytes", TEN_GIB.to_string()),
        ("compaction threshold", "4294967298".into()),
        (
            "threshold 1",
            "ERROR: COMPACTION_THRESHOLD must be at least 2".into(),
        ),
        ("MAXLENGTH 2^32 + 2 cuts nothing", "true".into()),
        ("MAXLENGTH 12", " r1 column=f:q, timestamp=17".into()),
        ("imported split bytes", TEN_GIB.to_string()),
        ("cbt import batches of 2^32 + 1", "1".into()),
        ("cbt read count=2^32 + 1 rows", "3".into()),
        ("cbt lookup cells-per-column=2^32 + 1 cells", "2".into()),
    ]
}
