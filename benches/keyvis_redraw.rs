//! Key Visualizer redraw benchmark (prints figures, asserts nothing): the simulator's benchmark
//! workload (`benches/simulate_workload.json`, 24 simulated hours, 1,440 steps) played once,
//! then the work the page does to redraw the heatmap after a drill-down into the busiest key
//! prefix and after a zoom in time, each part timed (the median of 7 runs, wall and the
//! thread's CPU time), so that what costs shows.
//!
//!     cargo bench --profile release --bench keyvis_redraw   # optimized as the page's build

use std::time::Instant;

use rowkey::keyvis::{
    grid_pixels, lanes, prefixes, rows_at, split_marks, summary_rows, RegionSort, Scope, Window,
};
use rowkey::simulate::{simulate, KeyOrder, Metric, Options, Workload};

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// The CPU time this thread has run, in ms (Linux's CLOCK_THREAD_CPUTIME_ID), so that the other
/// jobs on a shared machine do not count.
fn thread_cpu_ms() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one timespec (two longs on 64-bit Linux) into `ts`.
    let ok = unsafe { clock_gettime(3, &mut ts) } == 0;
    if ok {
        ts.sec as f64 * 1000.0 + ts.nsec as f64 / 1e6
    } else {
        0.0
    }
}

/// The median wall time and the median CPU time of `f` over 7 runs, in ms.
fn time<T>(mut f: impl FnMut() -> T) -> (f64, f64) {
    let (mut wall, mut cpu): (Vec<f64>, Vec<f64>) = (0..7)
        .map(|_| {
            let (t, c) = (Instant::now(), thread_cpu_ms());
            std::hint::black_box(f());
            (t.elapsed().as_secs_f64() * 1000.0, thread_cpu_ms() - c)
        })
        .unzip();
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    (wall[3], cpu[3])
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/simulate_workload.json"
    );
    let workload = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| Workload::from_json(&t).map_err(|e| e.to_string()))
    {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{path}: {e}");
            return;
        }
    };
    let sim = match simulate(&workload, &Options::default()) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("simulate: {e}");
            return;
        }
    };
    let Some(run) = sim.tables.first() else {
        return;
    };
    let servers = workload.cluster.region_servers;
    let steps = sim.steps;
    let whole = Scope::whole(run);
    let Some((busiest, _)) = prefixes(run, &whole, 12).into_iter().next() else {
        eprintln!("no prefix to drill into");
        return;
    };
    let scope = whole.into_prefix(&busiest);
    let heat = scope.heat(run, 1_000);
    let all = Window::all(steps);
    let zoomed = all.zoom_in(steps / 2);
    let grid = |w: Window| {
        heat.grid(Metric::Writes).map(|g| {
            grid_pixels(&g.values, heat.ranges.len(), heat.steps, w)
                .0
                .len()
        })
    };
    println!(
        "keyvis redraw: {} samples, {} steps, {} ranges and {} samples in the drilled scope",
        run.samples.len(),
        steps,
        heat.ranges.len(),
        scope.inside(run).len()
    );
    let parts: [(&str, (f64, f64)); 11] = [
        (
            "copy of the whole table's heat (every metric)",
            time(|| whole.heat(run, 1_000)),
        ),
        (
            "heat of the drilled scope, every metric",
            time(|| scope.heat(run, 1_000)),
        ),
        (
            "heat of the drilled scope, the metric on show",
            time(|| scope.heat_of(run, 1_000, &[Metric::Writes])),
        ),
        ("heatmap pixels, every step", time(|| grid(all))),
        ("heatmap pixels, zoomed", time(|| grid(zoomed))),
        (
            "server lanes",
            time(|| {
                let l = lanes(&run.timeline, servers, Metric::Writes);
                let flat: Vec<f64> = l.concat();
                grid_pixels(&flat, l.len(), run.timeline.steps.len(), zoomed)
                    .0
                    .len()
            }),
        ),
        (
            "key order of every sample (the run sorts it once)",
            time(|| KeyOrder::of(&run.samples, &run.keys)),
        ),
        ("samples inside the scope", time(|| scope.inside(run))),
        (
            "drill-down prefixes of the scope (their own pass)",
            time(|| prefixes(run, &scope, 12)),
        ),
        (
            "splits and text summary",
            time(|| {
                (
                    split_marks(&run.timeline, &heat, &scope).len(),
                    summary_rows(&heat, Metric::Writes, zoomed, 10).len(),
                )
            }),
        ),
        (
            "region table of the moment",
            time(|| rows_at(&run.timeline, steps - 1, RegionSort::default()).len()),
        ),
    ];
    println!("  {:<50} {:>11} {:>11}", "(median of 7)", "wall", "CPU");
    for (name, (wall, cpu)) in parts {
        println!("  {name:<50} {wall:>8.1} ms {cpu:>8.1} ms");
    }
}
