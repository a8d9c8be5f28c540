//! The terminal player end to end: the real binary in a tmux pane, keys and a mouse click sent with send-keys,
//! the screen read with capture-pane; it quits cleanly, gives the terminal back as it found it, and resumes the
//! game on the next start. And a long solve in a terminal: the line that shows how far it has gone, and Ctrl-C.
//! Skipped, with a notice, where tmux is missing (`.ci/test` installs it).

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A server for the test named `test`: tests run side by side, each with a server of its own.
    fn start(test: &str) -> Option<Tmux> {
        let found = Command::new("tmux").arg("-V").output();
        if !found.is_ok_and(|out| out.status.success()) {
            return None;
        }
        Some(Tmux {
            socket: format!("patience-test-{}-{test}", std::process::id()),
        })
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// Opens a 100 × 30 pane running `script` in sh.
    fn open(&self, script: &str) {
        let out = self.run(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            "100",
            "-y",
            "30",
            "sh",
            "-c",
            script,
        ]);
        assert!(
            out.status.success(),
            "tmux new-session: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs `script` in the pane in place of what runs there. The session stays, so the server does not exit
    /// between two runs: a new session started just after the last one was killed can reach a server that is
    /// exiting ("server exited unexpectedly").
    fn respawn(&self, script: &str) {
        let out = self.run(&["respawn-pane", "-k", "-t", "play", "sh", "-c", script]);
        assert!(
            out.status.success(),
            "tmux respawn-pane: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "play"]).stdout)
            .into_owned()
    }

    /// Types keys (tmux key names: `r`, `Escape`), one at a time, so that none is read as part of another.
    fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", "-t", "play", key]);
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Sends bytes as the terminal would (a mouse report, say).
    fn raw(&self, text: &str) {
        self.run(&["send-keys", "-t", "play", "-l", text]);
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Waits until the screen shows `text`; returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < end,
                "the screen never showed {text:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Tmux {
    /// Waits until the screen no longer shows `text`.
    fn wait_without(&self, text: &str) {
        let end = Instant::now() + Duration::from_secs(30);
        while self.screen().contains(text) {
            assert!(Instant::now() < end, "the screen still shows {text:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// A shell script that notes the terminal's settings, plays, notes them again with the exit status, and waits.
fn script(dir: &Path, args: &str, run: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_patience");
    let d = dir.display();
    format!(
        "stty -g > {d}/before-{run}; '{bin}' --data-dir {d}/data play {args}; echo \"exit $?\" > {d}/status-{run}; \
         stty -g > {d}/after-{run}; echo finished-{run}; sleep 60"
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn the_player_plays_undoes_quits_cleanly_and_resumes_in_a_real_terminal() {
    let Some(tmux) = Tmux::start("play") else {
        println!("notice: tmux is missing, so the terminal player's end-to-end test is skipped");
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    tmux.open(&script(dir.path(), "canfield --deal 1", "first"));
    let screen = tmux.wait_for("Canfield · deal 1");
    assert!(screen.contains("Q♣"), "{screen}");
    assert!(screen.contains("moves 0"), "{screen}");
    // The reserve's queen onto the king of hearts, by keys.
    tmux.keys(&["r", "4"]);
    let screen = tmux.wait_for("QC onto KH");
    assert!(screen.contains("moves 1"), "{screen}");
    // An illegal move is refused with the engine's reason.
    tmux.keys(&["1", "4"]);
    tmux.wait_for("does not go on QC");
    // A click on the stock draws (an SGR mouse report: button 0 at column 3, row 5, pressed and released).
    tmux.raw("\x1b[<0;3;5M");
    tmux.raw("\x1b[<0;3;5m");
    let screen = tmux.wait_for("turn 3 cards from the stock onto the waste");
    assert!(screen.contains("moves 2"), "{screen}");
    // Undo takes the draw back.
    tmux.keys(&["u"]);
    let screen = tmux.wait_for("undid draw");
    assert!(screen.contains("moves 1"), "{screen}");
    // The help, and Esc closes it.
    tmux.keys(&["?"]);
    tmux.wait_for("Help: keys and rules");
    tmux.keys(&["Escape"]);
    tmux.wait_without("Help: keys and rules");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("finished-first");
    assert_eq!(read(&dir.path().join("status-first")).trim(), "exit 0");
    assert!(
        !screen.contains("Canfield · deal 1"),
        "the main screen is back:\n{screen}"
    );
    assert_eq!(
        read(&dir.path().join("before-first")),
        read(&dir.path().join("after-first")),
        "the terminal's settings are restored"
    );

    // The next start, with no game named, resumes the game.
    tmux.respawn(&script(dir.path(), "", "second"));
    let screen = tmux.wait_for("Resumed where you left off (1 moves)");
    assert!(screen.contains("Canfield · deal 1"), "{screen}");
    assert!(screen.contains("moves 1"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for("finished-second");
    assert_eq!(read(&dir.path().join("status-second")).trim(), "exit 0");
    assert_eq!(
        read(&dir.path().join("before-second")),
        read(&dir.path().join("after-second"))
    );
}

/// A long solve shows, in a terminal, how far it has gone; Ctrl-C stops it with its answer, and the status of a
/// program interrupted.
#[test]
fn a_long_solve_shows_how_far_it_has_gone_and_ctrl_c_stops_it() {
    let Some(tmux) = Tmux::start("solve") else {
        println!(
            "notice: tmux is missing, so the solver's end-to-end test in a terminal is skipped"
        );
        return;
    };
    let bin = env!("CARGO_BIN_EXE_patience");
    // Canfield deal 95 is lost only after minutes of search. The shell traps Ctrl-C so as to go on and print the
    // status; a trap is not inherited, so the solver gets Ctrl-C as it would from a terminal's shell.
    tmux.open(&format!(
        "trap true INT; '{bin}' solve canfield 95; echo \"exit $?\"; sleep 60"
    ));
    let screen = tmux.wait_for("stored, table");
    assert!(screen.contains("searching: "), "{screen}");
    assert!(screen.contains("Ctrl-C stops it"), "{screen}");
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("exit 130");
    assert!(
        screen.contains("deal 95: unknown: stopped by Ctrl-C before the search decided"),
        "{screen}"
    );
    assert!(screen.contains("nodes searched"), "{screen}");
}
