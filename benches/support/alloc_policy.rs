//! The allocator's policy, fixed for a bench that compares the time per byte of two sizes
//! (`#[path]`-included).
//!
//! glibc serves a block over its mmap threshold with fresh pages from the kernel each time, and
//! that threshold follows freed blocks up to 32 MB only. A parse whose result and tables stay
//! under it reuses the memory the round before freed; one past it has every page cleared and
//! faulted in again, every round. A line of compact headings shows it: the 1 MB turn's 13 MB
//! result is reused, the 8 MB turn's 126 MB result costs about 41,000 page faults per parse.
//! That is the kernel's work, linear in the memory but paid by the larger size alone, so the
//! ratio of the two sizes would measure the allocator's policy rather than the parser.
//! [`settle`] makes every size reuse its memory: no block is mapped on its own and the heap is
//! never given back. `PLURNK_BENCH_ALLOC=system` keeps glibc's default policy, to see it.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" {
    fn mallopt(param: i32, value: i32) -> i32;
}

/// Fixes the policy (unless `PLURNK_BENCH_ALLOC=system`) and says which one the figures are for.
pub fn settle() -> &'static str {
    if std::env::var("PLURNK_BENCH_ALLOC").as_deref() == Ok("system") {
        return "the system allocator's default policy (PLURNK_BENCH_ALLOC=system)";
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // M_MMAP_MAX = 0: no block of its own; M_TRIM_THRESHOLD: never trim the heap's top.
        const M_TRIM_THRESHOLD: i32 = -1;
        const M_MMAP_MAX: i32 = -4;
        // SAFETY: glibc's documented tuning calls, made before any timed allocation.
        let set = unsafe { mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, i32::MAX) == 1 };
        if set {
            return "memory reused between rounds at every size (glibc: M_MMAP_MAX 0, heap never trimmed; PLURNK_BENCH_ALLOC=system for the default)";
        }
    }
    "the system allocator's default policy (no glibc tuning on this target)"
}
