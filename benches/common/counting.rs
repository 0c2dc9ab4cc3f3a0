//! A counting allocator the benchmarks share: the system allocator, counting the bytes live
//! now and the most live since the last reset. A benchmark includes this file with
//! `#[path = "common/counting.rs"] mod counting;`.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes live now and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    /// The system's own reallocation (not an allocation, a copy and a free): a growing one
    /// counts the new size while the old is still live (it may move); a shrinking one frees
    /// the difference, as glibc and WebAssembly's dlmalloc shrink in place.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size > layout.size() {
                let now = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
                PEAK.fetch_max(now, Ordering::Relaxed);
                LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

pub fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

pub fn reset_peak() -> usize {
    let now = live();
    PEAK.store(now, Ordering::Relaxed);
    now
}

pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// Raises the recorded peak to at least `bytes`.
pub fn raise_peak(bytes: usize) {
    PEAK.fetch_max(bytes, Ordering::Relaxed);
}
