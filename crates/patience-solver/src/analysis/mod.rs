//! What the players' front-ends make of the solver while a game is played: what is known of each position
//! ([`Knowledge`]: a winning line, a proof of loss, or an undecided search), the post-mortem's search for the move
//! that lost a game ([`FatalSearch`]), and the choices of base card a deal opens with ([`choices()`]).
//!
//! None knows threads or async: a front-end runs the searches its own way and tells these what they found.

pub mod choices;
pub mod knowledge;
pub mod postmortem;

pub use choices::{choices, refine_deal, Choice};
pub use knowledge::{Knowledge, Known};
pub use postmortem::{Fatal, FatalSearch, Outcome};
