//! Ctrl-C in the commands that search for long (`solve`, `stats`): the first stops the searches, which then report
//! what they did, and the program exits as one interrupted does ([`crate::EXIT_INTERRUPTED`]); a second ends the
//! program at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

/// Set by the first Ctrl-C once [`catch`] has been called.
pub static PRESSED: AtomicBool = AtomicBool::new(false);

/// From now on, Ctrl-C sets [`PRESSED`] instead of ending the program, and a second one ends it.
pub fn catch() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Should the handler not install, Ctrl-C ends the program as it always did, with no answer: what is saved
        // as it goes (a results file) is saved all the same.
        let _ = ctrlc::set_handler(|| {
            if PRESSED.swap(true, Ordering::Relaxed) {
                std::process::exit(i32::from(crate::EXIT_INTERRUPTED));
            }
        });
    });
}

/// A command stopped by Ctrl-C once it has printed what it did.
#[derive(Debug, thiserror::Error)]
#[error("stopped by Ctrl-C")]
pub struct Stopped;
