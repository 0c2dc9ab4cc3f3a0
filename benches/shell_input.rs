//! Shell input benchmark (prints figures, asserts nothing): a pasted batch of 50,000 `put`
//! lines and one of 5 MB, read and run statement by statement; the time to the first outcome;
//! highlighting and completion on large inputs.
//!
//!     cargo bench --bench shell_input

use std::time::Instant;

use rowkey::engine::Engine;
use rowkey::engine::Mutation;
use rowkey::shell::{complete, highlight, Script, Shell};

fn shell() -> Shell {
    let mut sh = Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    sh.run("create 'users', {NAME => 'info', VERSIONS => 3}, 'stats'");
    sh
}

fn puts(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "put 'users', 'u{i:08}', 'info:name', 'name of user number {i}'\n"
        ));
    }
    text
}

fn paste(label: &str, text: String) {
    let bytes = text.len();
    let mut sh = shell();
    let started = Instant::now();
    let mut script = Script::new(text);
    let first = sh.run_some(&mut script, 1);
    let to_first = started.elapsed();
    let mut outcomes = first.len();
    let mut errors = first.iter().filter(|o| o.error.is_some()).count();
    while !script.is_done() {
        let some = sh.run_some(&mut script, 500);
        outcomes += some.len();
        errors += some.iter().filter(|o| o.error.is_some()).count();
    }
    let all = started.elapsed();
    println!(
        "{label}: {bytes} bytes, {outcomes} outcomes ({errors} errors): first outcome after \
         {:.3} ms, all in {:.0} ms ({:.0} commands/s)",
        to_first.as_secs_f64() * 1e3,
        all.as_secs_f64() * 1e3,
        outcomes as f64 / all.as_secs_f64()
    );
}

fn main() {
    paste("50,000 puts", puts(50_000));
    let mut five = puts(1);
    let per_line = five.len();
    five = puts(5_000_000 / per_line + 1);
    paste("5 MB of puts", five);
    let mut broken = puts(50_000);
    let midway = broken[broken.len() / 2..]
        .find('\n')
        .map_or(0, |n| broken.len() / 2 + n + 1);
    broken.insert_str(midway, "put 'users', 'x', 'info:q', 'unterminated\n");
    paste("50,000 puts, one unterminated string midway", broken);

    let ten_lines = puts(10);
    let rounds = 10_000;
    let started = Instant::now();
    let mut spans = 0;
    for _ in 0..rounds {
        spans += highlight(&ten_lines).len();
    }
    println!(
        "highlight of 10 lines ({} bytes): {:.1} µs each ({spans} spans in all)",
        ten_lines.len(),
        started.elapsed().as_secs_f64() * 1e6 / rounds as f64
    );
    for mb in [1, 5] {
        let text = puts(mb * 1_000_000 / per_line + 1);
        let started = Instant::now();
        let n = highlight(&text).len();
        println!(
            "highlight of {} bytes: {:.0} ms ({n} spans)",
            text.len(),
            started.elapsed().as_secs_f64() * 1e3
        );
    }

    // Completion of qualifiers reads a bounded part of a table of a million cells.
    let mut sh = shell();
    for row in 0..100_000u32 {
        let mutations: Vec<Mutation> = (0..10)
            .map(|q| Mutation::Put {
                family: "info".into(),
                qualifier: format!("q{q}").into_bytes(),
                timestamp: None,
                value: b"v".to_vec(),
                ttl_ms: None,
            })
            .collect();
        let _ = sh
            .engine
            .mutate("users", format!("u{row:08}").as_bytes(), &mutations);
    }
    let src = "get 'users', 'u1', 'info:";
    let started = Instant::now();
    let c = complete(src, src.len(), &sh.engine);
    println!(
        "complete '{src}' over 1,000,000 cells: {:.2} ms ({} candidates)",
        started.elapsed().as_secs_f64() * 1e3,
        c.candidates.len()
    );
}
