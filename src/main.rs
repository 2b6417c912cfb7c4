//! The `menhir` binary: parses the command line and calls into the library.

use clap::{Parser, Subcommand};
use menhir::commands::{AnalyzeArgs, BenchArgs, PerftArgs, ServeArgs};
use menhir::matchrun::MatchArgs;
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
    Tei,
    /// Speak TEI over WebSocket for PTN Ninja (ws://127.0.0.1:7731 by default).
    Serve(ServeArgs),
    /// Count the positions reached after a number of plies.
    Perft(PerftArgs),
    /// Search a fixed set of positions to a fixed depth; prints nodes and speed.
    Bench(BenchArgs),
    /// Search one position and print the info lines and the best move.
    Analyze(AnalyzeArgs),
    /// Play a match between two TEI engines.
    Match(MatchArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Tei) {
        Command::Tei => menhir::tei::run_stdio(),
        Command::Serve(args) => menhir::commands::serve(&args),
        Command::Perft(args) => menhir::commands::perft(&args),
        Command::Bench(args) => menhir::commands::bench(&args),
        Command::Analyze(args) => menhir::commands::analyze(&args),
        Command::Match(args) => menhir::matchrun::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("menhir: {message}");
            ExitCode::FAILURE
        }
    }
}
