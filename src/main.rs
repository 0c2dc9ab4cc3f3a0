//! Rowkey's binary: in the browser it mounts the app; natively it is `rowkey shell [FILE]`, the
//! HBase shell over standard input or a script.

#[cfg(target_arch = "wasm32")]
fn main() {
    rowkey::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(native::main());
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::io::{BufRead, Write};
    use std::time::{Instant, SystemTime, UNIX_EPOCH};

    use rowkey::engine::Engine;
    use rowkey::shell::{is_incomplete, render_caret, Shell, TimeFormat};

    const USAGE: &str = "usage: rowkey shell [-D key=value]... [FILE]\n  Reads HBase shell commands from FILE or standard input and prints HBase's answers.\n  -D hbase.shell.timestamp.format.epoch=true prints timestamps as epoch milliseconds.\n       rowkey cbt [-project P] [-instance I]\n  Reads Bigtable cbt commands from standard input and prints cbt's answers.\n       rowkey simulate WORKLOAD.json [--json] | --design ID [--hours H] [--json]\n  Plays a workload out on a simulated HBase cluster and prints its report.\n";

    /// `rowkey cbt`: Bigtable's cbt commands on standard input.
    fn cbt(args: Vec<String>) -> i32 {
        let started = Instant::now();
        let env = rowkey::cbt::cli::Env {
            args,
            tz: std::env::var("TZ").ok(),
            clock: Box::new(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map(|d| d.as_millis() as u64)
                    .unwrap_or(0)
            }),
            timer: Box::new(move || started.elapsed().as_secs_f64() * 1000.0),
            read_file: Box::new(|name| {
                // Go's wording, as cbt prints it.
                std::fs::read(name).map_err(|e| {
                    let why = match e.kind() {
                        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
                        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
                        std::io::ErrorKind::IsADirectory => "is a directory".to_string(),
                        _ => e.to_string(),
                    };
                    format!("open {name}: {why}")
                })
            }),
        };
        let stdin = std::io::stdin();
        rowkey::cbt::cli::run(
            &mut stdin.lock(),
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
            env,
        )
    }

    pub fn main() -> i32 {
        let mut args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            Some("shell") => {}
            Some("simulate") => {
                return rowkey::simulate::cli::run(
                    &args[1..],
                    &mut std::io::stdout().lock(),
                    &mut std::io::stderr().lock(),
                )
            }
            Some("cbt") => return cbt(args[1..].to_vec()),
            _ => {
                eprint!("{USAGE}");
                return 2;
            }
        }
        // `-D key=value` or `-Dkey=value`, as `hbase shell` takes configuration properties.
        let mut properties = Vec::new();
        let mut rest = Vec::new();
        let mut words = args.drain(1..);
        while let Some(word) = words.next() {
            let pair = match word.strip_prefix("-D") {
                Some("") => words.next(),
                Some(pair) => Some(pair.to_string()),
                None => {
                    rest.push(word);
                    continue;
                }
            };
            match pair.as_deref().and_then(|p| p.split_once('=')) {
                Some((key, value)) if !key.is_empty() => {
                    properties.push((key.to_string(), value.to_string()))
                }
                _ => {
                    eprintln!("rowkey: -D takes key=value");
                    eprint!("{USAGE}");
                    return 2;
                }
            }
        }
        drop(words);
        let clock = Box::new(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as u64)
                .unwrap_or(0)
        });
        let started = Instant::now();
        let timer = Box::new(move || started.elapsed().as_secs_f64() * 1000.0);
        let mut shell = Shell::new(Engine::new(clock), timer);
        shell.time_format = TimeFormat::Local(Box::new(utc_offset_minutes));
        for (key, value) in &properties {
            shell.set_property(key, value);
        }
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let input: Box<dyn BufRead> = match rest.first() {
            Some(path) => match std::fs::File::open(path) {
                Ok(f) => Box::new(std::io::BufReader::new(f)),
                Err(e) => {
                    eprintln!("rowkey: cannot open {path}: {e}");
                    return 1;
                }
            },
            None => Box::new(std::io::stdin().lock()),
        };
        let mut pending = String::new();
        for (number, line) in input.split(b'\n').enumerate() {
            let mut line = match line {
                Ok(line) => line,
                Err(e) => {
                    eprintln!("rowkey: cannot read line {}: {e}", number + 1);
                    return 1;
                }
            };
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            // Shell input is text: a line that is not UTF-8 is reported and skipped, and the
            // rest still runs, as with any other bad line.
            let line = match String::from_utf8(line) {
                Ok(line) => line,
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let byte = e.as_bytes().get(at).copied().unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "ERROR: line {} is not UTF-8 text (byte 0x{byte:02X} at column {}): write bytes as \"\\x{byte:02X}\" inside a double-quoted string",
                        number + 1,
                        at + 1
                    );
                    continue;
                }
            };
            pending.push_str(&line);
            pending.push('\n');
            if is_incomplete(&pending) {
                continue;
            }
            run(&mut shell, &pending, &mut out);
            pending.clear();
        }
        if !pending.trim().is_empty() {
            run(&mut shell, &pending, &mut out);
        }
        0
    }

    /// The local zone's offset from UTC in minutes at `millis` (the C library's `localtime_r`,
    /// which reads `TZ` and the system's zone as the JVM's default zone does); 0 where it
    /// cannot tell.
    #[cfg(unix)]
    fn utc_offset_minutes(millis: i64) -> i32 {
        let seconds = millis.div_euclid(1000) as libc::time_t;
        // SAFETY: `localtime_r` writes only into the `tm` it is given and reads `seconds`.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        let done = unsafe { libc::localtime_r(&seconds, &mut tm) };
        if done.is_null() {
            0
        } else {
            (tm.tm_gmtoff / 60) as i32
        }
    }

    #[cfg(not(unix))]
    fn utc_offset_minutes(_millis: i64) -> i32 {
        0
    }

    fn run(shell: &mut Shell, text: &str, out: &mut impl Write) {
        for outcome in shell.run(text) {
            let _ = out.write_all(outcome.output.as_bytes());
            if let Some(err) = &outcome.error {
                let _ = out.write_all(render_caret(text, &err.span).as_bytes());
            }
            let _ = out.flush();
        }
    }
}
