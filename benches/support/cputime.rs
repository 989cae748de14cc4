//! This thread's CPU time, for the benches and probes that run on a machine shared with other
//! work: the time the thread ran, not the time it waited (`#[path]`-included).

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_ns() -> f64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: a plain libc call writing the struct it is handed.
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as f64 * 1e9 + ts.nsec as f64
}
