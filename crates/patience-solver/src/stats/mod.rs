//! Statistics over many deals: which deals to solve ([`batch::DealRange`], [`batch::Shard`]), solving them in
//! parallel ([`batch::run`]), one record a deal in a JSON-lines results file that a stopped run resumes from
//! ([`results`]), and what the records say: win rates with conservative 95 % intervals, or estimated from a
//! sample of the undecided deals solved again ([`interval`]; which of those records a merge may use:
//! [`mod@fair_sample`]), time and nodes per deal ([`summary`]).

pub mod batch;
pub mod fair_sample;
pub mod interval;
pub mod results;
pub mod summary;

pub use batch::{DealRange, Job, Shard};
pub use fair_sample::{fair_sample, FairSample, Gap};
pub use interval::{wilson, Interval, Sample, WinRate};
pub use results::{DealResult, Outcome, ResultsError, ResultsWriter, Stopped};
pub use summary::{SecondsByVerdict, Spread, Summary};
