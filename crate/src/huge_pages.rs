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

/// The whole huge pages inside the block `addr..addr + size`, as a start
/// address and a length, if there are any: the advice applies to whole
/// pages, and the block's first and last bytes may share a page with other
/// allocations, which must not be advised.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn hinted_range(addr: usize, size: usize) -> Option<(usize, usize)> {
    let start = addr.checked_next_multiple_of(HUGE_PAGE)?;
    let end = addr.checked_add(size)? & !(HUGE_PAGE - 1);
    (end > start).then(|| (start, end - start))
}

#[cfg(target_os = "linux")]
fn hint(ptr: *mut u8, size: usize) {
    use std::ffi::{c_int, c_void};
    extern "C" {
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    const MADV_HUGEPAGE: c_int = 14;
    if let Some((start, len)) = hinted_range(ptr as usize, size) {
        // SAFETY: the range lies inside a live allocation of `size` bytes
        // at `ptr`, and MADV_HUGEPAGE changes how it is backed, never its
        // contents. A failure (huge pages disabled) only leaves 4 KB pages.
        unsafe {
            madvise(start as *mut c_void, len, MADV_HUGEPAGE);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_huge_pages_inside_the_block_are_hinted() {
        let h = HUGE_PAGE;
        // An aligned block of exactly two huge pages: both.
        assert_eq!(hinted_range(4 * h, 2 * h), Some((4 * h, 2 * h)));
        // A block starting 16 bytes into a page (the allocator's header):
        // the first partial page is left out, and so is the last.
        assert_eq!(hinted_range(4 * h + 16, 3 * h), Some((5 * h, 2 * h)));
        // Less than one whole huge page inside: nothing.
        assert_eq!(hinted_range(4 * h + 16, h), None);
        assert_eq!(hinted_range(4 * h + 16, 0), None);
        // At the top of the address space: no overflow, nothing hinted.
        assert_eq!(hinted_range(usize::MAX - 8, 4 * h), None);
        for (addr, size) in [(h / 3, 5 * h), (7 * h - 1, 2 * h + 2), (12345, 9 * h + 7)] {
            let (start, len) = hinted_range(addr, size).unwrap();
            assert!(start >= addr && start + len <= addr + size, "{addr} {size}");
            assert_eq!((start % h, len % h), (0, 0));
        }
    }

    #[test]
    fn blocks_behave_as_the_system_allocators() {
        // Small and hinted sizes: zeroed memory reads zero, and growing a
        // block keeps its contents.
        let a = HugePageHint;
        for size in [64, HINTED_FROM - 1, HINTED_FROM, 3 * HUGE_PAGE + 123] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            // SAFETY: each block is used within its size and freed once
            // with the layout it has.
            unsafe {
                let block = a.alloc_zeroed(layout);
                assert!(!block.is_null());
                assert!(std::slice::from_raw_parts(block, size)
                    .iter()
                    .all(|&b| b == 0));
                block.write_bytes(7, size);
                let grown = a.realloc(block, layout, 2 * size);
                assert!(!grown.is_null());
                assert!(std::slice::from_raw_parts(grown, size)
                    .iter()
                    .all(|&b| b == 7));
                a.dealloc(grown, Layout::from_size_align(2 * size, 8).unwrap());
            }
        }
    }
}
