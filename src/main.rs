//! The `shoutan` command: a GTP server on stdin/stdout, or `shoutan bench`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use shoutan::gtp::{self, Engine, EngineOptions};
use shoutan::playout::Policy;
use shoutan::rules::{KoRule, Rules};

/// 手談 shoutan: a Go engine speaking GTP on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "shoutan", version, about)]
struct Cli {
    /// Initial board size (2 to 25).
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Komi in points (default: the ruleset's).
    #[arg(long, allow_negative_numbers = true)]
    komi: Option<f32>,
    /// Ruleset: chinese, japanese, korean, ancient, tromp-taylor.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Repetition rule: positional, situational or simple (default: the ruleset's).
    #[arg(long)]
    ko: Option<String>,
    /// Playouts per move.
    #[arg(long)]
    playouts: Option<u64>,
    /// Seconds per move.
    #[arg(long)]
    time: Option<f64>,
    /// Search threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Random seed, for reproducible play.
    #[arg(long, global = true)]
    seed: Option<u64>,
    /// Playout policy: light or heavy.
    #[arg(long, default_value = "heavy", global = true)]
    playout: String,
    /// Resign when the win rate falls below this.
    #[arg(long, default_value_t = 0.1)]
    resign_threshold: f32,
    /// Log search progress to stderr (same as RUST_LOG=info).
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Measure playout speed (light and heavy) on empty 9x9 and 19x19 boards.
    Bench {
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Runs per configuration (the median is reported).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Seconds per run.
        #[arg(long, default_value_t = 1.0)]
        seconds: f64,
    },
}

fn options(cli: &Cli) -> Result<EngineOptions, String> {
    let defaults = EngineOptions::default();
    if let Some(t) = cli.time
        && !(t.is_finite() && t > 0.0)
    {
        return Err(format!(
            "--time must be a positive number of seconds, got {t}"
        ));
    }
    if cli.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    shoutan::game::check_size(cli.size)?;
    Ok(EngineOptions {
        size: cli.size,
        rules: Rules::preset(&cli.rules)?,
        komi: cli.komi,
        ko: cli.ko.as_deref().map(KoRule::parse).transpose()?,
        playouts: cli.playouts,
        time_per_move: cli.time,
        threads: cli.threads.unwrap_or(defaults.threads),
        seed: cli.seed,
        policy: Policy::parse(&cli.playout)?,
        resign_threshold: cli.resign_threshold,
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let level = if cli.verbose { "info" } else { "warn" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .target(env_logger::Target::Stderr)
        .init();
    let opts = match options(&cli) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("shoutan: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Some(Command::Bench {
            json,
            runs,
            seconds,
        }) => {
            let policies = [Policy::Light, Policy::Heavy];
            let figures = shoutan::bench::run(&policies, opts.threads, runs, seconds);
            if json {
                println!("{}", shoutan::bench::to_json(&figures));
            } else {
                print!("{}", shoutan::bench::to_text(&figures));
            }
            ExitCode::SUCCESS
        }
        None => {
            let mut engine = match Engine::new(opts) {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    return ExitCode::from(2);
                }
            };
            let stdout = std::io::stdout();
            match gtp::serve(std::io::stdin(), stdout.lock(), &mut engine) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
