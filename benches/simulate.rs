//! Simulator benchmark (prints figures, asserts nothing): the workload in
//! `benches/simulate_workload.json` (a three-field key — a salt bucket of the sensor, a
//! Zipf-skewed sensor id, a reverse timestamp — plus a sequence; 10,000 operations a second for 24 simulated
//! hours, 864 million, 16 region servers) played out once; prints the
//! wall time, the operations it stands for, the samples drawn, the heap's peak (a counting
//! allocator) and the process's peak resident memory; then once more in slices of
//! `SLICE_SAMPLES` samples, as the page plays it, printing the slices and the longest one,
//! and the CPU time of each call making a table's figures at its end (the thread's own time,
//! from /proc/thread-self/schedstat where there is one, so other jobs on the machine do not
//! count); then the sample the page opens in the console, built in one call, timed.
//!
//!     cargo bench --bench simulate
//!     cargo bench --profile test-opt --bench simulate     # optimized like the test suite

use std::time::Instant;

use rowkey::simulate::{
    sample_engine, simulate, Options, Report, Run, SampleLimits, Workload, SLICE_SAMPLES,
};

#[path = "../tests/common/counting_alloc.rs"]
mod counting;

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

/// The process's peak resident set (VmHWM) in kB, where /proc has it.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time this thread has run, in ms (Linux's schedstat), if known.
fn thread_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/simulate_workload.json"
    );
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return;
        }
    };
    let workload = match Workload::from_json(&text) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{path}: {e}");
            return;
        }
    };
    let started = Instant::now();
    let sim = match simulate(&workload, &Options::default()) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("simulate: {e}");
            return;
        }
    };
    let elapsed = started.elapsed();
    let report = Report::of(&sim);
    let table = &sim.tables[0];
    println!("simulate: 24 simulated hours, 16 region servers, three-field key");
    println!(
        "  operations      {:>14.0}  (samples {}, {:.0} operations per sample)",
        table.totals.ops,
        table.samples.len(),
        sim.ops_per_sample
    );
    println!(
        "  rows, bytes     {:>14}  {} bytes",
        table.totals.rows, table.totals.bytes
    );
    println!(
        "  regions         {:>14}  ({} splits, {} moves)",
        table.timeline.regions.len() - table.timeline.splits.len(),
        table.timeline.splits.len(),
        table.timeline.moves.len()
    );
    println!(
        "  heat grid       {:>14}  ranges x {} steps x {} metrics",
        table.heat.ranges.len(),
        table.heat.steps,
        table.heat.grids.len()
    );
    println!("  findings        {:>14}", table.findings.len());
    println!("  wall time       {:>11.3} s", elapsed.as_secs_f64());
    println!(
        "  heap peak       {:>11.1} MB",
        counting::peak() as f64 / 1_048_576.0
    );
    if let Some(kb) = peak_rss_kb() {
        println!("  peak resident   {:>11.1} MB", kb as f64 / 1024.0);
    }
    println!(
        "  report          {:>11} bytes of JSON",
        report.to_json().len()
    );
    drop(sim);

    // In slices, as the page runs it: the longest slice is what a frame waits for.
    let mut run = match Run::new(workload, Options::default()) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("run: {e}");
            return;
        }
    };
    let (mut slices, mut longest, mut longest_at) = (0usize, 0.0f64, 0.0f64);
    let (mut longest_cpu, mut figure_calls) = (0.0f64, Vec::new());
    let started = Instant::now();
    loop {
        let at = run.progress();
        let cpu = thread_cpu_ms();
        let slice = Instant::now();
        let over = match run.advance(SLICE_SAMPLES) {
            Ok(over) => over,
            Err(e) => {
                eprintln!("run: {e}");
                return;
            }
        };
        let took = slice.elapsed().as_secs_f64() * 1000.0;
        let cpu_ms = thread_cpu_ms().zip(cpu).map_or(took, |(b, a)| b - a);
        longest_cpu = longest_cpu.max(cpu_ms);
        // A call that plays no step makes the figures at a table's end.
        if run.progress() == at {
            figure_calls.push(cpu_ms);
        }
        if took > 50.0 {
            println!("  slice {slices:>9}  {took:.1} ms (at {:.0} %)", at * 100.0);
        }
        if took > longest {
            (longest, longest_at) = (took, at);
        }
        slices += 1;
        if over {
            break;
        }
    }
    let whole = started.elapsed();
    let finished = run.finish();
    let same = finished
        .as_ref()
        .map(|sim| Report::of(sim).to_json() == report.to_json())
        .unwrap_or(false);
    println!(
        "  in slices       {:>14}  of {SLICE_SAMPLES} samples, {:.3} s in all, the longest {:.1} ms (at {:.0} %), report {}",
        slices,
        whole.as_secs_f64(),
        longest,
        longest_at * 100.0,
        if same { "identical" } else { "DIFFERENT" }
    );
    println!(
        "  longest CPU     {longest_cpu:>11.1} ms of a slice; the figures at the end in {} calls (CPU ms): {}",
        figure_calls.len(),
        figure_calls
            .iter()
            .map(|ms| format!("{ms:.0}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    // The sample the page opens in the console, built in one call on the click.
    if let Ok(sim) = &finished {
        let (cpu, wall) = (thread_cpu_ms(), Instant::now());
        let sample = sample_engine(sim, SampleLimits::default());
        let took = wall.elapsed().as_secs_f64() * 1000.0;
        let cpu_ms = thread_cpu_ms().zip(cpu).map_or(took, |(b, a)| b - a);
        match sample {
            Ok(sample) => println!(
                "  sample engine   {took:>11.1} ms ({cpu_ms:.0} ms CPU): {} cells, stride {}",
                sample.tables.iter().map(|t| t.cells).sum::<u64>(),
                sample.tables.first().map_or(0, |t| t.stride)
            ),
            Err(e) => eprintln!("sample engine: {e}"),
        }
    }
}
