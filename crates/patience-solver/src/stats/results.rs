//! Per-deal results as JSON lines: one record a finished deal, appended and flushed as it finishes, so that a run
//! that is stopped loses nothing it finished and can be started again where it stopped.
//!
//! A record: `{"game":"canfield","deal":17,"verdict":"won","limit":null,"moves":112,"nodes":48211,"seconds":0.021}`.
//! `verdict` is `won`, `lost` or `unknown`; `limit` says which limit left an unknown deal undecided (`time`,
//! `memory`, `nodes` or `cancelled`) and is `null` otherwise; `moves` is the length of the winning line, `null`
//! unless won.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Limit, Report, Verdict};

/// What the solver found for one deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Winnable.
    Won,
    /// Proved unwinnable.
    Lost,
    /// Undecided: a limit was reached first.
    Unknown,
}

/// The limit that left a deal undecided, as a record names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stopped {
    /// The time limit.
    Time,
    /// The memory limit.
    Memory,
    /// The node limit.
    Nodes,
    /// The run was stopped.
    Cancelled,
}

impl From<Limit> for Stopped {
    fn from(limit: Limit) -> Stopped {
        match limit {
            Limit::Time => Stopped::Time,
            Limit::Memory => Stopped::Memory,
            Limit::Nodes => Stopped::Nodes,
            Limit::Cancelled => Stopped::Cancelled,
        }
    }
}

/// One finished deal: a line of a results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DealResult {
    /// The game's id.
    pub game: String,
    /// The deal number.
    pub deal: u64,
    /// What the solver found.
    pub verdict: Outcome,
    /// Which limit stopped the search, for an unknown deal.
    pub limit: Option<Stopped>,
    /// How many moves the winning line has, for a won deal.
    pub moves: Option<usize>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the search took.
    pub seconds: f64,
}

impl DealResult {
    /// The record of a solver's report on deal `deal` of `game`.
    pub fn from_report(game: &str, deal: u64, report: &Report) -> DealResult {
        let (verdict, limit, moves) = match &report.verdict {
            Verdict::Won(line) => (Outcome::Won, None, Some(line.len())),
            Verdict::Lost => (Outcome::Lost, None, None),
            Verdict::Unknown(limit) => (Outcome::Unknown, Some(Stopped::from(*limit)), None),
        };
        DealResult {
            game: game.to_string(),
            deal,
            verdict,
            limit,
            moves,
            nodes: report.nodes,
            seconds: report.elapsed.as_secs_f64(),
        }
    }

    /// Of this record and `other`, of the same deal, the one that says more: a verdict rather than an unknown, and
    /// of two unknown deals the longer search (the first where they searched as long); `None` when one says won
    /// and the other lost. So a deal left unknown in one run and decided in a run with a longer time limit is
    /// decided.
    pub fn better_of<'a>(&'a self, other: &'a DealResult) -> Option<&'a DealResult> {
        match (self.verdict, other.verdict) {
            (Outcome::Unknown, Outcome::Unknown) if other.nodes > self.nodes => Some(other),
            (Outcome::Unknown, Outcome::Won | Outcome::Lost) => Some(other),
            (mine, theirs) if mine == theirs || theirs == Outcome::Unknown => Some(self),
            _ => None,
        }
    }

    /// Whether a search with the time limit `time` and the node limit `nodes` (none where `None`) may decide this
    /// deal where the search recorded did not: it is unknown, stopped by its time or node limit, and both new
    /// limits let a search go further than it went. A deal stopped by the memory limit is not, since the record
    /// does not say how much memory it had.
    pub fn worth_solving_again(&self, time: Option<Duration>, nodes: Option<u64>) -> bool {
        self.verdict == Outcome::Unknown
            && matches!(self.limit, Some(Stopped::Time | Stopped::Nodes))
            && time.is_none_or(|time| time.as_secs_f64() > self.seconds)
            && nodes.is_none_or(|nodes| nodes > self.nodes)
    }
}

/// A results file could not be read or written, or contradicts itself.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A line other than the last is not a record.
    #[error("{path}, line {line}: not a result record: {reason}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// One record of a deal says won and another lost.
    #[error("deal {deal} of {game} is {first} in one record and {second} in another")]
    Disagree {
        /// The game's id.
        game: String,
        /// The deal number.
        deal: u64,
        /// The first verdict, in words.
        first: String,
        /// The other verdict, in words.
        second: String,
    },
}

/// The records of a results file, and what had to be skipped to read it.
#[derive(Debug, Clone, Default)]
pub struct ResultsFile {
    /// The records, in file order.
    pub records: Vec<DealResult>,
    /// The length in bytes of the part of the file that holds whole, good records: a writer that resumes cuts the
    /// file there.
    pub good_bytes: u64,
    /// Warnings for people: a last line that was cut short, and was ignored.
    pub warnings: Vec<String>,
}

/// Reads a results file. A missing file has no records. A last line that is not a record (the run was killed
/// while writing it) is ignored with a warning; a bad line before it is an error.
pub fn read(path: &Path) -> Result<ResultsFile, ResultsError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ResultsFile::default()),
        Err(source) => {
            return Err(ResultsError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    parse(path, &text)
}

/// Reads the bytes of a results file named `path` (the name is for messages).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<ResultsFile, ResultsError> {
    let mut file = ResultsFile::default();
    let mut offset = 0usize;
    let mut line_number = 0;
    while offset < bytes.len() {
        line_number += 1;
        let (line, next, complete) = match bytes[offset..].iter().position(|&b| b == b'\n') {
            Some(i) => (&bytes[offset..offset + i], offset + i + 1, true),
            None => (&bytes[offset..], bytes.len(), false),
        };
        let last = next >= bytes.len();
        let text = String::from_utf8_lossy(line);
        if text.trim().is_empty() {
            offset = next;
            if complete {
                file.good_bytes = next as u64;
            }
            continue;
        }
        match serde_json::from_str::<DealResult>(&text) {
            Ok(record) if complete => {
                file.records.push(record);
                file.good_bytes = next as u64;
            }
            // A record without its newline was cut short while being written: it may be whole, but the writer
            // rewrites it rather than trust it.
            Ok(_) => file.warnings.push(format!(
                "{}, line {line_number}: the last record has no end of line (the run was stopped while writing it); ignored",
                path.display()
            )),
            Err(e) if last => file.warnings.push(format!(
                "{}, line {line_number}: the last line is not a whole record (the run was stopped while writing it?); ignored: {e}",
                path.display()
            )),
            Err(e) => {
                return Err(ResultsError::BadLine {
                    path: path.to_path_buf(),
                    line: line_number,
                    reason: e.to_string(),
                })
            }
        }
        offset = next;
    }
    Ok(file)
}

/// Records by game and deal, one each: of several records of a deal, the one that says most
/// ([`DealResult::better_of`]). A deal won in one record and lost in another is an error.
pub fn merge(
    records: impl IntoIterator<Item = DealResult>,
) -> Result<BTreeMap<(String, u64), DealResult>, ResultsError> {
    let mut merged: BTreeMap<(String, u64), DealResult> = BTreeMap::new();
    for record in records {
        let key = (record.game.clone(), record.deal);
        let Some(kept) = merged.get_mut(&key) else {
            merged.insert(key, record);
            continue;
        };
        match kept.better_of(&record) {
            None => {
                return Err(ResultsError::Disagree {
                    game: record.game.clone(),
                    deal: record.deal,
                    first: verdict_word(kept.verdict).into(),
                    second: verdict_word(record.verdict).into(),
                })
            }
            Some(better) if std::ptr::eq(better, &record) => *kept = record,
            Some(_) => {}
        }
    }
    Ok(merged)
}

/// A verdict as a record writes it.
fn verdict_word(verdict: Outcome) -> &'static str {
    match verdict {
        Outcome::Won => "won",
        Outcome::Lost => "lost",
        Outcome::Unknown => "unknown",
    }
}

/// Appends records to a results file, one line each, flushed as each is written.
#[derive(Debug)]
pub struct ResultsWriter {
    path: PathBuf,
    out: BufWriter<File>,
}

impl ResultsWriter {
    /// Opens `path` for appending after its first `good_bytes` bytes (from [`read`]): a record cut short at the
    /// end is dropped, every whole record before it kept. A missing file is created.
    pub fn open(path: &Path, good_bytes: u64) -> Result<ResultsWriter, ResultsError> {
        let io = |source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len > good_bytes {
            file.set_len(good_bytes).map_err(io)?;
        }
        Ok(ResultsWriter {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }

    /// Writes one record as a line, and flushes it to the file.
    pub fn write(&mut self, record: &DealResult) -> Result<(), ResultsError> {
        let io = |source| ResultsError::Io {
            path: self.path.clone(),
            source,
        };
        let line = serde_json::to_string(record).map_err(|e| io(std::io::Error::other(e)))?;
        self.out
            .write_all(line.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
            .and_then(|()| self.out.flush())
            .map_err(io)
    }

    /// The file written to.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(deal: u64, verdict: Outcome) -> DealResult {
        DealResult {
            game: "florentine".into(),
            deal,
            verdict,
            limit: (verdict == Outcome::Unknown).then_some(Stopped::Time),
            moves: (verdict == Outcome::Won).then_some(40),
            nodes: 100 + deal,
            seconds: 0.5,
        }
    }

    fn lines(records: &[DealResult]) -> String {
        records
            .iter()
            .map(|r| serde_json::to_string(r).expect("serialise") + "\n")
            .collect()
    }

    #[test]
    fn records_round_trip_through_lines() {
        let records = vec![
            record(1, Outcome::Won),
            record(2, Outcome::Lost),
            record(3, Outcome::Unknown),
        ];
        let text = lines(&records);
        assert!(
            text.contains(r#""verdict":"unknown","limit":"time""#),
            "{text}"
        );
        let file = parse(Path::new("r.jsonl"), text.as_bytes()).expect("readable");
        assert_eq!(file.records, records);
        assert_eq!(file.good_bytes, text.len() as u64);
        assert!(file.warnings.is_empty());
    }

    #[test]
    fn a_cut_last_line_is_ignored_with_a_warning() {
        let whole = lines(&[record(1, Outcome::Won), record(2, Outcome::Lost)]);
        let text = format!("{whole}{{\"game\":\"florentine\",\"de");
        let file = parse(Path::new("r.jsonl"), text.as_bytes()).expect("readable");
        assert_eq!(file.records.len(), 2);
        assert_eq!(file.good_bytes, whole.len() as u64);
        assert_eq!(file.warnings.len(), 1);
        assert!(file.warnings[0].contains("line 3"), "{:?}", file.warnings);
    }

    #[test]
    fn a_bad_line_in_the_middle_is_an_error() {
        let text = format!(
            "{}garbage\n{}",
            lines(&[record(1, Outcome::Won)]),
            lines(&[record(2, Outcome::Won)])
        );
        let error = parse(Path::new("r.jsonl"), text.as_bytes()).expect_err("bad line 2");
        assert!(error.to_string().contains("line 2"), "{error}");
    }

    #[test]
    fn merging_keeps_one_record_a_deal_and_refuses_disagreement() {
        let merged = merge([
            record(2, Outcome::Won),
            record(1, Outcome::Lost),
            record(2, Outcome::Won),
        ])
        .expect("they agree");
        assert_eq!(merged.len(), 2);
        let error =
            merge([record(1, Outcome::Won), record(1, Outcome::Lost)]).expect_err("disagree");
        assert!(
            error.to_string().contains("deal 1 of florentine is won"),
            "{error}"
        );
    }

    #[test]
    fn a_verdict_outweighs_an_unknown_and_a_longer_search_a_shorter_one() {
        let unknown = record(1, Outcome::Unknown);
        let longer = DealResult {
            nodes: unknown.nodes * 10,
            seconds: 5.0,
            ..unknown.clone()
        };
        for verdict in [Outcome::Won, Outcome::Lost] {
            let decided = record(1, verdict);
            for order in [[&unknown, &decided], [&decided, &unknown]] {
                let merged = merge(order.map(Clone::clone)).expect("no contradiction");
                assert_eq!(merged[&("florentine".into(), 1)], decided);
            }
        }
        for order in [[&unknown, &longer], [&longer, &unknown]] {
            let merged = merge(order.map(Clone::clone)).expect("no contradiction");
            assert_eq!(merged[&("florentine".into(), 1)], longer);
        }
    }

    #[test]
    fn only_a_deal_stopped_by_a_lower_time_or_node_limit_is_worth_solving_again() {
        let unknown = record(1, Outcome::Unknown);
        let seconds = |s: f64| Some(Duration::from_secs_f64(s));
        assert!(unknown.worth_solving_again(seconds(10.0), None));
        assert!(unknown.worth_solving_again(None, None));
        assert!(!unknown.worth_solving_again(seconds(0.5), None));
        assert!(!unknown.worth_solving_again(seconds(0.1), None));
        // A node limit the search went past already cannot take it further, whatever the time.
        assert!(!unknown.worth_solving_again(None, Some(unknown.nodes)));
        assert!(unknown.worth_solving_again(None, Some(unknown.nodes + 1)));
        let out_of_nodes = DealResult {
            limit: Some(Stopped::Nodes),
            ..unknown.clone()
        };
        assert!(out_of_nodes.worth_solving_again(None, Some(out_of_nodes.nodes * 2)));
        assert!(out_of_nodes.worth_solving_again(seconds(10.0), None));
        assert!(!out_of_nodes.worth_solving_again(None, Some(out_of_nodes.nodes)));
        assert!(!out_of_nodes.worth_solving_again(seconds(0.1), Some(out_of_nodes.nodes * 2)));
        let out_of_memory = DealResult {
            limit: Some(Stopped::Memory),
            ..unknown
        };
        assert!(!out_of_memory.worth_solving_again(None, None));
        for verdict in [Outcome::Won, Outcome::Lost] {
            assert!(!record(1, verdict).worth_solving_again(None, None));
        }
    }

    #[test]
    fn a_writer_resumes_after_the_last_whole_record() {
        let path =
            std::env::temp_dir().join(format!("patience-results-{}.jsonl", std::process::id()));
        let whole = lines(&[record(1, Outcome::Won)]);
        std::fs::write(&path, format!("{whole}{{\"game\":")).expect("write");
        let file = read(&path).expect("readable");
        let mut writer = ResultsWriter::open(&path, file.good_bytes).expect("open");
        writer.write(&record(2, Outcome::Lost)).expect("write");
        drop(writer);
        let again = read(&path).expect("readable");
        let _ = std::fs::remove_file(&path);
        assert_eq!(
            again.records,
            vec![record(1, Outcome::Won), record(2, Outcome::Lost)]
        );
        assert!(again.warnings.is_empty());
    }
}
