//! The allocator of the native programs (`tailslice` and the benchmark's
//! bare loop): the system's, with a hint on every block of 4 MB or more that
//! the kernel may back it with 2 MB pages (Linux transparent huge pages, in
//! `madvise` mode on most systems).
//!
//! Why: a million-task run touches tens of megabytes of fresh memory (the
//! durations, one completion per task and policy), and the kernel maps
//! fresh memory one 4 KB page at a time, one page fault each: some 9,000
//! faults, a quarter of the process's time. With the hint, a 2 MB stretch
//! is one fault, and memory that is only read (arrival times of zero) maps
//! the kernel's shared zero page without using any.
//!
//! Only a hint: the contents and the allocation are the system allocator's,
//! and where huge pages are off or unavailable nothing changes.

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator plus the huge-page hint; install it with
/// `#[global_allocator]`.
pub struct HugePageHint;

/// Size of a huge page on x86-64 and (with 4 KB base pages) arm64.
const HUGE_PAGE: usize = 2 << 20;
/// Blocks below this are left alone: at most half a huge page could be
/// covered, and small blocks come from the allocator's shared heap.
const HINTED_FROM: usize = 4 << 20;

#[cfg(target_os = "linux")]
fn hint(ptr: *mut u8, size: usize) {
    use std::ffi::{c_int, c_void};
    extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    const MADV_HUGEPAGE: c_int = 14;
    // Only whole huge pages inside the block: the advice applies to whole
    // pages, and the block's first and last bytes may share a page with
    // other allocations.
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize + size) & !(HUGE_PAGE - 1);
    if end > start {
        // SAFETY: the range lies inside a live allocation of `size` bytes
        // at `ptr`, and MADV_HUGEPAGE changes how it is backed, never its
        // contents. A failure (huge pages disabled) only leaves 4 KB pages.
        unsafe {
            madvise(start as *mut c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn hint(_ptr: *mut u8, _size: usize) {}

// SAFETY: every call is forwarded to `System` unchanged; the hint does not
// touch the memory.
unsafe impl GlobalAlloc for HugePageHint {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if layout.size() >= HINTED_FROM && !ptr.is_null() {
            hint(ptr, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc_zeroed(layout);
        if layout.size() >= HINTED_FROM && !ptr.is_null() {
            hint(ptr, layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = System.realloc(ptr, layout, new_size);
        if new_size >= HINTED_FROM && !new.is_null() {
            hint(new, new_size);
        }
        new
    }
}
