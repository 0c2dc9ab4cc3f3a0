//! Rowkey's binary: in the browser it mounts the app; natively it is the command line of
//! [`rowkey::cli`] (`rowkey shell [FILE] [-D key=value]...`).

#[cfg(target_arch = "wasm32")]
fn main() {
    rowkey::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(rowkey::cli::main(&args));
}
