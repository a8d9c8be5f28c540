//! The C allocator's settings that keep the process within the solver's memory limit.

/// Makes glibc map every block of 128 KiB or more on its own, and unmap it when it is freed.
///
/// By default glibc raises that threshold (up to 32 MiB) each time a mapped block is freed, and then serves such
/// blocks from its heap, which gives memory back only from its top. The solver's passes each free their table
/// before the next pass's grows, shard by shard, so their memory stayed resident beside it: `patience solve
/// canfield 137 --memory 256` peaked at 289 MiB resident, and at 260 MiB with the threshold fixed (the budget and
/// the program's own few MiB).
pub fn unmap_large_blocks_when_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: `mallopt` sets a parameter of the allocator and touches no memory of the program; it is called before
    // any thread is started.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE_BLOCK);
    }
}

/// The size from which a block is mapped on its own: glibc's default before it adjusts it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const LARGE_BLOCK: libc::c_int = 128 * 1024;
