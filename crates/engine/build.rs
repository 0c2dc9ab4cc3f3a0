//! Sets `rowkey_cold` when the compiler is a nightly one (the release build's, see
//! `RELEASE_TOOLCHAIN` in `scripts/dev.sh`): the engine then marks its cold code (table
//! administration, splits, the catalog) `#[optimize(size)]`, so that code is compiled for size
//! like the app around it while the read and write paths stay compiled for speed. Stable
//! compilers (tests, benchmarks, the command line) build every function for speed as before.

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(rowkey_cold)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let nightly = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).contains("-nightly"))
        .unwrap_or(false);
    if nightly {
        println!("cargo::rustc-cfg=rowkey_cold");
    }
}
