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

/// The page's allocator: the standard library's own (dlmalloc), with its free called where a
/// value is dropped rather than inlined there. Inlined, each of some five hundred drops of a
/// vector or string carried dlmalloc's size check and its free, two calls where one does (6 KB of
/// compiled code, 1.6 KB of the download). Allocating stays inlined as before: calling it
/// too made the download 0.1 KB larger.
#[cfg(target_arch = "wasm32")]
mod allocator {
    use std::alloc::{GlobalAlloc, Layout, System};

    struct Called;

    // SAFETY: every method hands its arguments to the standard library's allocator unchanged,
    // so each keeps the promises `GlobalAlloc` asks of its callers and gives those it makes.
    unsafe impl GlobalAlloc for Called {
        #[inline]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            unsafe { System.alloc(layout) }
        }

        #[inline(never)]
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }

        #[inline]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            unsafe { System.alloc_zeroed(layout) }
        }

        #[inline]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Called = Called;
}
