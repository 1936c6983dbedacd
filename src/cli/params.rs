//! `gamut params`: the search's tunable parameters, one per line with its
//! default, range and SPSA step, for `--param`, engine specs
//! (`param.<name>=`), the protocol's `setoption` and `gamut tune`.

use super::CliError;
use clap::Args;
use gamut_search::params::TUNABLES;
use std::io::Write;

/// Options of `gamut params`.
#[derive(Args, Debug)]
pub struct ParamsArgs {
    /// Also print what each parameter does, after a `#`.
    #[arg(long)]
    pub describe: bool,
}

/// Prints every tunable parameter: `<name> default <d> min <lo> max <hi>
/// step <c>`.
pub fn params(a: &ParamsArgs, out: &mut impl Write) -> Result<(), CliError> {
    for t in TUNABLES {
        if a.describe {
            writeln!(out, "{} # {}", t.line(), t.help.trim())?;
        } else {
            writeln!(out, "{}", t.line())?;
        }
    }
    Ok(())
}
