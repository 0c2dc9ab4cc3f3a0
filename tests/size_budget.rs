//! The download's size budget: `scripts/dev.sh size DIR` (which `scripts/dev.sh build` runs on
//! dist/) prints the gzipped WebAssembly, JavaScript and page of a build and fails when they weigh
//! more than the budget, 600 KB unless `ROWKEY_SIZE_BUDGET_KB` says otherwise. The build here is
//! a stand-in of known size: bytes that do not compress, so gzip keeps their size.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// `len` bytes from a xorshift generator: the same every run, and incompressible.
fn noise(len: usize, mut state: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u8
        })
        .collect()
}

/// A directory shaped like dist/: a 300 KiB .wasm, its 4 KiB .js, and the service worker,
/// which is not part of the download.
fn stand_in_build(name: &str) -> Result<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    fs::write(dir.join("rowkey-0123_bg.wasm"), noise(300 * 1024, 1))?;
    fs::write(dir.join("rowkey-0123.js"), noise(4 * 1024, 2))?;
    fs::write(dir.join("sw.js"), noise(200 * 1024, 3))?;
    Ok(dir)
}

/// Runs `dev.sh size DIR` with the budget given (or none); exit code, stdout, stderr.
fn size(dir: &Path, budget_kb: Option<&str>) -> Result<(i32, String, String)> {
    let mut cmd = Command::new("bash");
    cmd.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/dev.sh"))
        .arg("size")
        .arg(dir);
    match budget_kb {
        Some(kb) => cmd.env("ROWKEY_SIZE_BUDGET_KB", kb),
        None => cmd.env_remove("ROWKEY_SIZE_BUDGET_KB"),
    };
    let out = cmd.output()?;
    Ok((
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout)?,
        String::from_utf8(out.stderr)?,
    ))
}

#[test]
fn a_build_over_a_lowered_budget_fails_with_its_size_and_the_budget() -> Result<()> {
    let dir = stand_in_build("size-over")?;
    let (code, out, err) = size(&dir, Some("200"))?;
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "gzipped size: wasm 300 KB + js 4 KB = 304 KB (raw wasm 300 KB); budget 200 KB\n"
    );
    assert_eq!(
        err,
        "size budget exceeded: the download is 304 KB gzipped, over the budget of 200 KB \
         (ROWKEY_SIZE_BUDGET_KB)\n"
    );
    Ok(())
}

#[test]
fn a_build_at_the_budget_passes() -> Result<()> {
    let dir = stand_in_build("size-at")?;
    let (code, out, err) = size(&dir, Some("304"))?;
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "gzipped size: wasm 300 KB + js 4 KB = 304 KB (raw wasm 300 KB); budget 304 KB\n"
    );
    Ok(())
}

/// The release build ships its WebAssembly packed as LZMA (scripts/pack.mjs), and its page
/// carries the loader that unpacks it: the packed file and the page are what is downloaded.
#[test]
fn a_packed_build_counts_its_packed_module_and_its_page() -> Result<()> {
    let dir = stand_in_build("size-packed")?;
    fs::remove_file(dir.join("rowkey-0123_bg.wasm"))?;
    fs::write(dir.join("rowkey-0123_bg.wasm.lzma"), noise(200 * 1024, 4))?;
    fs::write(dir.join("index.html"), noise(8 * 1024, 5))?;
    let (code, out, err) = size(&dir, Some("211"))?;
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "gzipped size: wasm 200 KB + js 4 KB + html 8 KB = 212 KB (raw wasm 200 KB); budget 211 KB\n"
    );
    assert_eq!(
        err,
        "size budget exceeded: the download is 212 KB gzipped, over the budget of 211 KB \
         (ROWKEY_SIZE_BUDGET_KB)\n"
    );
    Ok(())
}

#[test]
fn the_budget_is_600_kb_unless_overridden() -> Result<()> {
    let dir = stand_in_build("size-default")?;
    let (code, out, _) = size(&dir, None)?;
    assert_eq!(code, 0);
    assert!(out.ends_with("; budget 600 KB\n"), "{out}");
    Ok(())
}

#[test]
fn a_directory_without_a_build_fails_saying_so() -> Result<()> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("size-empty");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    let (code, out, err) = size(&dir, None)?;
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "size: no build in {} (a .wasm and its .js); run: bash scripts/dev.sh build\n",
            dir.display()
        )
    );
    Ok(())
}
