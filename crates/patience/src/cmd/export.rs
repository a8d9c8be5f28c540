//! `patience export GAME NUMBER --format solvitaire` (or `--position FILE`): the deal in another solver's format.

use patience_solver::export;

use crate::{input, output, ExportArgs, ExportFormat};

/// Runs the command.
pub fn run(args: &ExportArgs) -> anyhow::Result<()> {
    let (rules, position, _) = input::deal_or_position(&args.what)?;
    match args.format {
        ExportFormat::Solvitaire => {
            let deal = export::solvitaire(&rules, &position).map_err(|e| {
                anyhow::anyhow!(
                    "{} cannot be written in Solvitaire's format: {e}",
                    rules.name
                )
            })?;
            output::print_json(&deal)
        }
    }
}
