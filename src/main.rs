//! The `menhir` binary: parses the command line and calls into the library.

use clap::{Parser, Subcommand};
use menhir::commands::{
    AnalyzeArgs, AnnotateArgs, BenchArgs, BookArgs, ConvertDataArgs, DatagenArgs, MatchArgs,
    PerftArgs, PlaytakArgs, ReportArgs, ServeArgs, SpsaArgs, TacticsArgs, TinueArgs, TuneEvalArgs,
    TunePolicyArgs,
};
use std::process::ExitCode;

/// Menhir, a Tak engine. With no subcommand it speaks TEI on stdin/stdout.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak TEI on stdin/stdout (the default).
    Tei {
        /// Tuning mode: offer the search parameters as options too (as `MENHIR_TUNE=1` does).
        #[arg(long)]
        tune: bool,
    },
    /// Speak TEI over WebSocket for PTN Ninja (ws://127.0.0.1:7731 by default).
    Serve(ServeArgs),
    /// Play on a playtak server as a bot (Menhir or any TEI engine).
    // Boxed: its many flags would make every other variant as large.
    Playtak(Box<PlaytakArgs>),
    /// Count the positions reached after a number of plies.
    Perft(PerftArgs),
    /// Search a fixed set of positions to a fixed depth; prints nodes and speed.
    Bench(BenchArgs),
    /// Search one position and print the info lines and the best move.
    Analyze(AnalyzeArgs),
    /// Annotate PTN games: every move's evaluation and win chance, the engine's preferred
    /// move, and the marks ' " ? ?? !.
    Annotate(AnnotateArgs),
    /// Prove or disprove tinue (a road that cannot be stopped) for the side to move.
    Tinue(TinueArgs),
    /// Search the tactical suite (roads in 1, 3, 5 plies, defences) and check every move.
    Tactics(TacticsArgs),
    /// Play a match between two TEI engines.
    Match(MatchArgs),
    /// Sum up PTN game files per engine pair, as `match` does at the end.
    Report(ReportArgs),
    /// Make balanced openings for `match --openings`: random lines a search scores near even.
    Book(BookArgs),
    /// Self-play at a fixed node budget, written as training data (text, or binary for an
    /// `--out` ending in `.mhd`).
    Datagen(DatagenArgs),
    /// Convert training data between the text format and the binary one (`.mhd`).
    ConvertData(ConvertDataArgs),
    /// Fit one board size's evaluation weights to training data (`tune` is the old name).
    #[command(alias = "tune")]
    TuneEval(TuneEvalArgs),
    /// Fit one board size's move-ordering policy to the moves chosen in training data.
    TunePolicy(TunePolicyArgs),
    /// Tune search parameters by SPSA over self-play games at a fast clock.
    Spsa(SpsaArgs),
}

fn main() -> ExitCode {
    exit_quietly_when_stdout_closes();
    let cli = Cli::try_parse();
    // The playtak bot runs as a service: its one line per game and its decisions are what the
    // operator reads (journald keeps stderr), so they show without RUST_LOG.
    let default_filter = match &cli {
        Ok(Cli {
            command: Some(Command::Playtak(_)),
        }) => "warn,menhir::playtak=info",
        _ => "warn",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_filter))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = match cli {
        Ok(cli) => cli,
        Err(error) => return command_line_error(error),
    };
    let outcome = match cli.command.unwrap_or(Command::Tei { tune: false }) {
        Command::Tei { tune } => menhir::tei::run_stdio(tune),
        Command::Serve(args) => menhir::commands::serve(&args),
        Command::Playtak(args) => return playtak_exit(menhir::commands::playtak(&args)),
        Command::Perft(args) => menhir::commands::perft(&args),
        Command::Bench(args) => menhir::commands::bench(&args),
        Command::Analyze(args) => menhir::commands::analyze(&args),
        Command::Annotate(args) => menhir::commands::annotate(&args),
        Command::Tinue(args) => menhir::commands::tinue(&args),
        Command::Tactics(args) => return tactics_exit(menhir::commands::tactics(&args)),
        Command::Match(args) => menhir::matchrun::run(&args.into()),
        Command::Report(args) => menhir::commands::report(&args),
        Command::Book(args) => menhir::commands::book(&args),
        Command::Datagen(args) => menhir::train::datagen(&args.into()),
        Command::ConvertData(args) => menhir::commands::convert(&args),
        Command::TuneEval(args) => menhir::train::tune(&args.into()),
        Command::TunePolicy(args) => menhir::train::tune_policy(&args.into()),
        Command::Spsa(args) => menhir::spsa::run(&args.into()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("menhir: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `menhir tactics` exits 0 when every line passed, 1 when one failed, and 2 (as for a bad
/// command line) when the file, a TPS or a flag value is bad, so a script tells a failing
/// engine from a broken run.
fn tactics_exit(outcome: Result<bool, String>) -> ExitCode {
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("menhir: {message}");
            ExitCode::from(2)
        }
    }
}

/// `menhir playtak` exits 0 when it stopped as asked (`--max-games`, Ctrl-C, SIGTERM), 2 for
/// a bad command line (its own checks of the flags, as for clap's), 1 when the run failed.
fn playtak_exit(outcome: Result<(), menhir::commands::PlaytakError>) -> ExitCode {
    use menhir::commands::PlaytakError;
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(PlaytakError::CommandLine(message)) => {
            eprintln!("menhir: {message}");
            ExitCode::from(2)
        }
        Err(PlaytakError::Failed(message)) => {
            eprintln!("menhir: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `--help` and `--version` print as clap writes them; a bad command line gets one line on
/// stderr (clap's first line, without its usage hint) and exit status 2, as clap would give.
fn command_line_error(error: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        error.exit();
    }
    let text = error.to_string();
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("bad command line");
    eprintln!("menhir: {}", first.trim_start_matches("error: "));
    ExitCode::from(2)
}

/// A reader that stops reading (`menhir tactics … | head`) is not a fault of ours, but std's
/// `print!` panics when stdout is a closed pipe. Such a panic ends the program at once, with no
/// message and the status a shell gives a program killed by SIGPIPE (128 + 13), as `yes | head`
/// ends `yes`; every other panic reports as before.
fn exit_quietly_when_stdout_closes() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        report(info);
    }));
}
