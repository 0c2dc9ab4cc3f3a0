//! Share links' zlib benchmark (prints figures, asserts nothing): Rowkey's own `share::zlib`
//! against miniz_oxide at level 9 (which made the links before it), on a large design session,
//! a console history of 5,000 and of 20,000 puts and 1 MB of words: each one's compressed
//! size, and the time to compress and to decompress it (the median of 5 runs).
//!
//!     cargo bench --bench share_zlib

use std::time::{Duration, Instant};

use rowkey::designs;
use rowkey::dialect::HistoryLine;
use rowkey::kit::base64::{self, Alphabet};
use rowkey::share::zlib::{compress, decompress};
use rowkey::share::{encode, Shared};
use rowkey::simulate::gallery;

#[path = "../tests/common/words.rs"]
mod words;
use words::text;

const LIMIT: usize = 64 * 1024 * 1024;

/// The median time of 5 runs of `f`.
fn median(mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[2]
}

/// The JSON a session's link carries (its setup lines cut to what a link can hold).
fn design_json(id: &str) -> Vec<u8> {
    let design = designs::find(id).expect("a gallery design");
    let setup = design.setup_script();
    let mut lines: Vec<&str> = setup.lines().collect();
    loop {
        let shared = Shared {
            design: Some(design.id.to_string()),
            entries: lines.iter().map(|l| HistoryLine::hbase(*l)).collect(),
            workload: gallery::workload(design.id),
        };
        if let Ok(fragment) = encode(&shared) {
            let data = fragment.split_once('.').expect("a version").1;
            let packed = base64::decode(data, Alphabet::UrlNoPad).expect("base64");
            return decompress(&packed, LIMIT).expect("a link's own zlib");
        }
        lines.truncate(lines.len() * 9 / 10);
    }
}

/// A console history of `n` puts as a link's JSON carries it (not cut: a link would refuse it
/// after compressing it).
fn puts_json(n: usize) -> Vec<u8> {
    let mut json = String::from("{\"entries\":[");
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            "{{\"dialect\":\"hbase\",\"text\":\"put 'users', 'u{i:08}', 'info:name', 'name of user number {i}'\"}}"
        ));
    }
    json.push_str("]}");
    json.into_bytes()
}

fn main() {
    let inputs = [
        ("weibo.posts session", design_json("weibo.posts")),
        ("5,000 puts", puts_json(5_000)),
        ("20,000 puts", puts_json(20_000)),
        ("1 MB of words", text(6, 1 << 20)),
    ];
    for (name, data) in &inputs {
        let ours = compress(data);
        let theirs = miniz_oxide::deflate::compress_to_vec_zlib(data, 9);
        let ours_c = median(|| drop(compress(data)));
        let theirs_c = median(|| drop(miniz_oxide::deflate::compress_to_vec_zlib(data, 9)));
        let ours_d = median(|| drop(decompress(&ours, LIMIT)));
        let theirs_d = median(|| drop(miniz_oxide::inflate::decompress_to_vec_zlib(&theirs)));
        println!(
            "{name:<20} {:>9} bytes -> ours {:>7} (compress {:>7.2} ms, decompress {:>6.2} ms), miniz 9 {:>7} ({:>7.2} ms, {:>6.2} ms)",
            data.len(),
            ours.len(),
            ours_c.as_secs_f64() * 1e3,
            ours_d.as_secs_f64() * 1e3,
            theirs.len(),
            theirs_c.as_secs_f64() * 1e3,
            theirs_d.as_secs_f64() * 1e3,
        );
    }
}
