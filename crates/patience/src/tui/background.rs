//! Background threads give way to the player: each solver thread asks the system to run it only when the
//! processor is otherwise idle (Linux's idle scheduling class; the lowest priority elsewhere), so that a key press
//! is handled and drawn at once even while every core is solving.

/// Lowers the priority of the calling thread. A system that refuses leaves it as it was: the player still works,
/// with a little more delay under load.
pub fn give_way() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use thread_priority::unix::{
            set_thread_priority_and_policy, thread_native_id, NormalThreadSchedulePolicy,
            ThreadSchedulePolicy,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if set_thread_priority_and_policy(
            thread_native_id(),
            thread_priority::ThreadPriority::Min,
            idle,
        )
        .is_ok()
        {
            return;
        }
    }
    let _ = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min);
}

#[cfg(test)]
mod tests {
    #[test]
    fn giving_way_leaves_the_thread_working() {
        let sum = std::thread::spawn(|| {
            super::give_way();
            (1..=100u64).sum::<u64>()
        })
        .join()
        .expect("the thread ends");
        assert_eq!(sum, 5050);
    }
}
