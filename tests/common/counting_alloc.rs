//! A process-wide allocation counter for the tests that measure what an operation allocates:
//! the system allocator, counting allocations, the bytes live now, and the most live since the
//! last reset. A test file that uses it holds one test, so nothing else in the process
//! allocates while it measures.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Counting;

static COUNT: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            COUNT.fetch_add(1, Ordering::Relaxed);
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    /// A growing reallocation counts as an allocation of the new size while the old one is
    /// still live (it may move, holding both at once); a shrinking one frees the difference
    /// (allocators shrink in place).
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            COUNT.fetch_add(1, Ordering::Relaxed);
            if new_size > layout.size() {
                grow(new_size);
                LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

/// What `f` allocated: how many allocations, and the most bytes live at once above what was
/// live when it started.
pub struct Allocated {
    pub count: usize,
    pub peak_above_start: usize,
}

/// Runs `f` and counts what it allocates.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Allocated) {
    let start = LIVE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let count = COUNT.load(Ordering::Relaxed);
    let out = f();
    let allocated = Allocated {
        count: COUNT.load(Ordering::Relaxed) - count,
        peak_above_start: PEAK.load(Ordering::Relaxed).saturating_sub(start),
    };
    (out, allocated)
}

/// The bytes live now.
#[allow(dead_code)]
pub fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts a new peak from what is live now, and returns that.
#[allow(dead_code)]
pub fn reset_peak() -> usize {
    let now = live();
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The most bytes live at once since the last reset.
#[allow(dead_code)]
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// Raises the recorded peak to at least `bytes`.
#[allow(dead_code)]
pub fn raise_peak(bytes: usize) {
    PEAK.fetch_max(bytes, Ordering::Relaxed);
}
