//! The `shoutan` command: a GTP server on stdin/stdout, or `shoutan bench` (playout speed),
//! `shoutan review` and `shoutan score` (game records), `shoutan train-patterns` and
//! `shoutan bench-policy` (the move-prediction model).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use shoutan::book::{self, Book};
use shoutan::gtp::{self, Engine, EngineOptions};
use shoutan::playout::Policy;
use shoutan::review::{self, ReviewError, ReviewJob, ReviewOptions};
use shoutan::rules::{KoRule, Rules};
use shoutan::search::Searcher;

/// 手談 shoutan: a Go engine speaking GTP on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "shoutan", version, about)]
struct Cli {
    /// Board size (2 to 25) [default: the controller's `boardsize`, 19 until it sends one].
    #[arg(long)]
    size: Option<usize>,
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
    /// At most this many seconds per move (a clear best move stops at three quarters).
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
    /// Resign when the win rate stays below this for a few moves.
    #[arg(long, default_value_t = 0.1)]
    resign_threshold: f32,
    /// Memory for the search tree, e.g. 768M, 2G (bytes without a suffix). When it is
    /// nearly full the least visited subtrees are dropped and the search goes on deepening.
    #[arg(long, default_value = "768M")]
    max_memory: String,
    /// Seconds per move kept in reserve against the controller's clock (pipes, GUI).
    #[arg(long, default_value_t = shoutan::time::DEFAULT_LAG)]
    lag: f64,
    /// Think on the opponent's time: after each generated move, search on until the next
    /// command arrives (the next move reuses that tree).
    #[arg(long)]
    ponder: bool,
    /// Dynamic komi in handicap games: off, linear or adaptive (the search counts with komi
    /// shifted towards White, shrinking as the game goes on).
    #[arg(long, default_value = "linear")]
    dynamic_komi: String,
    /// Search tuning, NAME=VALUE (repeatable): explore, root_explore, rave_equiv,
    /// rave_weighting, rave_floor, expand_threshold, score_weight, prime_playouts,
    /// early_stop, resign_streak, virtual_loss, lgrf, lgrf_order, gammas, gamma_rest,
    /// ko_fight, self_atari_check, capture_anywhere, nlib_defense, fight_two_lib,
    /// fight_eye_fix, fight_self_atari, fight_eye_fill, fight_nakade, fight_refused_attack,
    /// ladder_both, widen_visits, widen_rate, policy_bias, root_policy_bias, policy_bias_power,
    /// move_time_target, best2_ratio, behind_time, phase_time, crit_rave, crit_min_visits,
    /// margin_komi, opening_corners, group_defence, prior.RULE (meanings in docs/search.md).
    #[arg(long = "search-param", value_name = "NAME=VALUE")]
    search_params: Vec<String>,
    /// Opening book: a book file (`shoutan build-book`), or `none` to search every move
    /// [default: the built-in 9x9 book, komi 7.5, area counting].
    #[arg(long, value_name = "FILE|none")]
    book: Option<String>,
    /// Move-prediction model file to use instead of the built-in one.
    #[arg(long, global = true)]
    patterns: Option<PathBuf>,
    /// Log search progress to stderr (same as RUST_LOG=info).
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Train the move-prediction model (shape patterns and tactical features) on SGF games.
    TrainPatterns {
        /// Training games: SGF files, directories of them, .tar.gz archives.
        #[arg(long, num_args = 1.., required = true)]
        games: Vec<PathBuf>,
        /// Games kept out of training: the accuracy is measured on them.
        #[arg(long, num_args = 1..)]
        test_games: Vec<PathBuf>,
        /// Where to write the model.
        #[arg(long)]
        out: PathBuf,
        /// Keep shapes played at least this many times.
        #[arg(long, default_value_t = 3)]
        min_count: u32,
        /// Passes of the fit over the training positions.
        #[arg(long, default_value_t = 4)]
        epochs: usize,
        /// Step size of the fit (Adagrad).
        #[arg(long, default_value_t = 0.2)]
        learning_rate: f32,
        /// Fraction of the training positions to use, in (0, 1].
        #[arg(long, default_value_t = 1.0)]
        sample: f64,
        /// Start from this model (fine-tuning): its shapes and weights.
        #[arg(long)]
        init: Option<PathBuf>,
    },
    /// Count the learned 3x3 pattern gammas of the heavy playouts on SGF games and write
    /// them as a gamma file (see `docs/policy.md`).
    TrainPlayoutPatterns {
        /// Games: SGF files, directories of them, .tar.gz archives.
        #[arg(long, num_args = 1.., required = true)]
        games: Vec<PathBuf>,
        /// Where to write the gamma file.
        #[arg(long)]
        out: PathBuf,
        /// Smoothing: gamma = (played + a) / (available + b).
        #[arg(long, default_value_t = 1.0)]
        prior_played: f64,
        /// Smoothing: gamma = (played + a) / (available + b).
        #[arg(long, default_value_t = 20.0)]
        prior_available: f64,
        /// Instead of counting, fit a Bradley-Terry model with "a move elsewhere" as one
        /// more contestant, by this many minorization-maximization steps (0: count).
        #[arg(long, default_value_t = 0)]
        mm_iterations: usize,
    },
    /// Measure how well the model (built in, or --patterns) predicts the moves of SGF games.
    BenchPolicy {
        /// Games: SGF files, directories of them, .tar.gz archives.
        #[arg(long, num_args = 1.., required = true)]
        games: Vec<PathBuf>,
    },
    /// Measure the playouts' judgement: from positions of finished games (counted results,
    /// e.g. B+3.5), their ownership of every point against the final count. Uses
    /// --playouts per position (default 2000), --playout, --search-param and --seed (see
    /// `docs/strength.md`).
    BenchPlayouts {
        /// Games: SGF files, directories of them, .tar.gz archives.
        #[arg(long, num_args = 1.., required = true)]
        games: Vec<PathBuf>,
        /// Judge the positions before these move numbers.
        #[arg(long, value_delimiter = ',', default_values_t = [100, 150, 200])]
        at: Vec<usize>,
        /// Only where the game went on for at least this many moves after.
        #[arg(long, default_value_t = 50)]
        margin: usize,
        /// At most this many games are used (0: all).
        #[arg(long, default_value_t = 0)]
        max_games: usize,
    },
    /// Build an opening book: search every position shoutan may meet in the first moves
    /// (as Black or White) with many playouts and write the replies (see `docs/book.md`);
    /// with --base, lengthen a book along the lines of --games instead.
    /// Uses --size (default 9), --komi, --seed, --threads (positions searched at once).
    BuildBook {
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// The book holds shoutan's moves up to this many moves into the game.
        #[arg(long, default_value_t = 5)]
        plies: usize,
        /// Opponent moves followed from each of its positions (its likeliest distinct ones).
        #[arg(long, default_value_t = 5)]
        replies: usize,
        /// Opponent moves with less than this share of the visits are not followed.
        #[arg(long, default_value_t = 0.02)]
        min_share: f64,
        /// Playouts of each position's search.
        #[arg(long, default_value_t = 200_000)]
        book_playouts: u64,
        /// Games (SGF files, directories, .tar.gz) whose opponent moves are followed too.
        #[arg(long, num_args = 1..)]
        games: Vec<PathBuf>,
        /// A move of those games is followed when played at least this many times.
        #[arg(long, default_value_t = 2)]
        min_games: u32,
        /// Lengthen this book instead: keep its lines and add searched replies along the
        /// lines --games play (opponent moves played --min-games times), --plies deep.
        #[arg(long)]
        base: Option<PathBuf>,
    },
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
    /// Review a game record: search every position of its main line and write a copy with
    /// Black's win rate (Sabaki's SBKV/SBKS), comments, mistakes and shoutan's variations.
    Review(ReviewArgs),
    /// Count the final position of a game record as a referee (the shoutan-count breakdown).
    Score {
        /// The game (SGF).
        game: String,
        /// Rules to count under [default: the file's RU, else chinese].
        #[arg(long)]
        rules: Option<String>,
        /// Print one JSON object instead of the breakdown.
        #[arg(long)]
        json: bool,
    },
}

/// The options of `shoutan review`.
#[derive(Args, Debug)]
struct ReviewArgs {
    /// The game (SGF); it is only read.
    game: String,
    /// Where to write the reviewed game (`-`: standard output) [default: GAME-review.sgf].
    #[arg(short, long)]
    output: Option<String>,
    /// Playouts per position [default: 1,600,000 / points: 19,753 on 9x9, 4,432 on 19x19].
    #[arg(long)]
    playouts: Option<u64>,
    /// Seconds per position.
    #[arg(long)]
    time: Option<f64>,
    /// A move that loses more than this many percent of its player's win rate is a mistake.
    #[arg(long, default_value_t = 10.0)]
    blunder: f64,
    /// Also draw Black's win rate, move by move, as an SVG picture.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<String>,
    /// Rules to review under [default: the file's RU, else chinese].
    #[arg(long)]
    rules: Option<String>,
}

/// The `review` subcommand's job, checked.
fn review_job(cli: &Cli, args: &ReviewArgs) -> Result<ReviewJob, String> {
    let playouts = args.playouts.or(cli.playouts);
    let time = args.time.or(cli.time);
    let blunder = args.blunder;
    if playouts == Some(0) {
        return Err("--playouts must be at least 1".into());
    }
    if let Some(t) = time
        && !(t.is_finite() && t > 0.0)
    {
        return Err(format!(
            "--time must be a positive number of seconds, got {t}"
        ));
    }
    if !(blunder > 0.0 && blunder <= 100.0) {
        return Err(format!(
            "--blunder must be a percentage above 0 and at most 100, got {blunder}"
        ));
    }
    Ok(ReviewJob {
        input: args.game.clone(),
        output: args.output.clone(),
        plot: args.plot.clone(),
        rules: args.rules.as_deref().map(Rules::preset).transpose()?,
        options: ReviewOptions {
            playouts,
            time: time.map(Duration::from_secs_f64),
            blunder: blunder / 100.0,
        },
    })
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
    if let Some(size) = cli.size {
        shoutan::game::check_size(size)?;
    }
    if !(0.0..=1.0).contains(&cli.resign_threshold) {
        return Err(format!(
            "--resign-threshold must lie between 0 and 1, got {}",
            cli.resign_threshold
        ));
    }
    if !(cli.lag.is_finite() && cli.lag >= 0.0) {
        return Err(format!(
            "--lag must be a non-negative number, got {}",
            cli.lag
        ));
    }
    let mut params = shoutan::search::Params::default();
    for p in &cli.search_params {
        params.set(p)?;
    }
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
        max_memory: parse_memory(&cli.max_memory)?,
        params,
        lag: cli.lag,
        ponder: cli.ponder,
        dynamic_komi: shoutan::search::dynkomi::DynamicKomiScheme::parse(&cli.dynamic_komi)?,
        book: match cli.book.as_deref() {
            None => defaults.book,
            Some("none") => None,
            Some(path) => Some(std::sync::Arc::new(
                Book::load(std::path::Path::new(path)).map_err(|e| format!("--book: {e}"))?,
            )),
        },
    })
}

/// Parses a memory size: a number of bytes with an optional K, M, G or T suffix (powers of
/// 1024), e.g. `4G`.
fn parse_memory(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let (digits, unit) = match t
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit() && *c != '.')
    {
        Some((i, _)) => (&t[..i], t[i..].trim()),
        None => (t, ""),
    };
    let shift = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "--max-memory: unknown unit in '{text}' (use K, M, G or T)"
            ));
        }
    };
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("--max-memory: '{text}' is not a size"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(bytes >= 1_048_576.0 && bytes < usize::MAX as f64) {
        return Err(format!("--max-memory: '{text}' must be at least 1M"));
    }
    Ok(bytes as usize)
}

/// `shoutan train-patterns`: trains, writes the model, prints the test accuracy.
fn train_patterns(
    opts: &shoutan::policy::train::TrainOptions,
    out: &std::path::Path,
) -> Result<(), String> {
    let start = std::time::Instant::now();
    let report = shoutan::policy::train::train(opts)?;
    shoutan::policy::model_file::save(&report.policy, out)?;
    println!("{}", report.summary);
    println!(
        "model: {} patterns, {} bytes, written to {}",
        report.policy.pattern_count(),
        shoutan::policy::model_file::to_bytes(&report.policy).len(),
        out.display()
    );
    if let Some(acc) = &report.test {
        println!("held-out accuracy ({} games):", acc.games);
        print!("{}", acc.table());
    }
    println!("wall time {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// `shoutan train-playout-patterns`: counts the playout pattern gammas and writes them.
fn train_playout_patterns(
    games: &[PathBuf],
    out: &std::path::Path,
    (a, b): (f64, f64),
    mm_iterations: usize,
    threads: usize,
) -> Result<(), String> {
    use shoutan::playout::gammas::Counts;
    use shoutan::policy::train::{Progress, load_games};
    if !(a > 0.0 && b >= a && b.is_finite()) {
        return Err("need 0 < --prior-played <= --prior-available".into());
    }
    let start = std::time::Instant::now();
    let progress = Progress::new(true);
    let set = load_games(games, threads, &progress, "games")?;
    let mut counts = Counts::new();
    if mm_iterations > 0 {
        counts.keep_positions();
    }
    for game in &set.games {
        counts.add_game(game);
    }
    let file = if mm_iterations > 0 {
        // The prior opponent: the smoothing's gamma for a pattern never seen.
        let (file, rest) = counts.fit(mm_iterations, a / b);
        println!("gamma of a move elsewhere (use as gamma_rest): {rest:.4}");
        file
    } else {
        counts.to_file(a, b)
    };
    let bytes = file.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{} games ({})", set.games.len(), set.skip_summary());
    println!(
        "{} positions, {:.2} candidates a position, the move played among them in {:.1}%",
        counts.positions,
        counts.candidates as f64 / counts.positions.max(1) as f64,
        100.0 * counts.local_moves as f64 / counts.positions.max(1) as f64
    );
    println!(
        "{} patterns, {} bytes, written to {} in {:.1} s",
        file.entries.len(),
        bytes.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `shoutan build-book`: searches the opening (or lengthens the book `base`) and writes the
/// book.
fn build_book(
    opts: &book::BuildOptions,
    engine: &EngineOptions,
    base: Option<&std::path::Path>,
    out: &std::path::Path,
) -> Result<(), String> {
    let start = std::time::Instant::now();
    let config = gtp::search_config(engine);
    let progress = |e: &book::BuiltEntry, done: usize, of: usize| {
        let board = shoutan::board::Board::new(opts.size);
        let moves: Vec<String> = e.moves.iter().map(|&m| board.move_name(m)).collect();
        eprintln!(
            "[{done}/{of}] {} : {} ({:.1}%, {:.0}% of the visits), {:.0} s",
            moves.join(" "),
            board.move_name(e.reply),
            100.0 * e.winrate,
            100.0 * e.share,
            start.elapsed().as_secs_f64()
        );
    };
    let command: Vec<String> = std::env::args().skip(1).collect();
    let command = format!("shoutan {}", command.join(" "));
    let text = match base {
        None => book::to_text(&book::build(opts, &config, &progress)?, opts, &command),
        Some(path) => {
            let base_text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let base_book =
                Book::parse(&base_text).map_err(|e| format!("{}: {e}", path.display()))?;
            let entries = book::extend(&base_book, opts, &config, &progress)?;
            book::extended_text(&base_text, &entries, opts, &command)
        }
    };
    std::fs::write(out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    let check = Book::parse(&text)?;
    println!(
        "{} positions written to {} in {:.0} s",
        check.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `shoutan bench-policy`: the model's accuracy on games.
fn bench_policy(
    games: &[PathBuf],
    patterns: Option<&std::path::Path>,
    threads: usize,
) -> Result<(), String> {
    use shoutan::policy::train::{Progress, load_games};
    let loaded = patterns
        .map(shoutan::policy::model_file::load)
        .transpose()?;
    let policy = loaded
        .as_ref()
        .unwrap_or_else(|| shoutan::policy::Policy::builtin());
    let progress = Progress::new(true);
    let set = load_games(games, threads, &progress, "games")?;
    let n = set.games.len();
    let start = std::time::Instant::now();
    let acc = shoutan::policy::accuracy::measure(policy, &set.games, threads, &|done| {
        progress.report(false, || format!("accuracy: {done} of {n} games"))
    });
    println!("{} games ({})", n, set.skip_summary());
    print!("{}", acc.table());
    println!(
        "{:.1} s, {:.0} positions/s",
        start.elapsed().as_secs_f64(),
        acc.overall.positions as f64 / start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_bench_playouts(
    games: &[PathBuf],
    settings: &shoutan::playout_accuracy::Settings,
    max_games: usize,
) -> Result<(), String> {
    use shoutan::policy::records::{GameSet, read_texts};
    let mut set = GameSet::default();
    let mut texts = read_texts(games, &mut set, |_| {})?;
    if max_games > 0 {
        texts.truncate(max_games);
    }
    let start = std::time::Instant::now();
    let n = texts.len();
    let (acc, skipped) = shoutan::playout_accuracy::measure(&texts, settings, |done| {
        if done % 20 == 0 {
            eprintln!("bench-playouts: {done} of {n} games");
        }
    });
    println!(
        "{n} games read: {} without a counted result, {} whose count disagrees with it (more than {} points)",
        skipped.no_count, skipped.disputed, settings.max_count_gap
    );
    print!("{}", acc.table());
    println!("{:.1} s", start.elapsed().as_secs_f64());
    Ok(())
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
        Some(Command::TrainPatterns {
            games,
            test_games,
            out,
            min_count,
            epochs,
            learning_rate,
            sample,
            init,
        }) => {
            let init = match init.as_deref().map(shoutan::policy::model_file::load) {
                None => None,
                Some(Ok(policy)) => Some(policy),
                Some(Err(e)) => {
                    eprintln!("shoutan: --init: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let opts = shoutan::policy::train::TrainOptions {
                games,
                test_games,
                seed: cli.seed.unwrap_or(1),
                threads: opts.threads,
                min_count,
                epochs,
                learning_rate,
                sample,
                verbose: true,
                init,
            };
            match train_patterns(&opts, &out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::TrainPlayoutPatterns {
            games,
            out,
            prior_played,
            prior_available,
            mm_iterations,
        }) => {
            let priors = (prior_played, prior_available);
            match train_playout_patterns(&games, &out, priors, mm_iterations, opts.threads) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::BenchPolicy { games }) => {
            match bench_policy(&games, cli.patterns.as_deref(), opts.threads) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::BenchPlayouts {
            ref games,
            ref at,
            margin,
            max_games,
        }) => {
            let settings = shoutan::playout_accuracy::Settings {
                at: at.clone(),
                margin,
                playouts: u32::try_from(opts.playouts.unwrap_or(2000)).unwrap_or(u32::MAX),
                policy: opts.policy,
                params: opts.params.clone(),
                seed: opts.seed.unwrap_or(1),
                max_count_gap: 8.0,
            };
            match run_bench_playouts(games, &settings, max_games) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::BuildBook {
            ref out,
            plies,
            replies,
            min_share,
            book_playouts,
            ref games,
            min_games,
            ref base,
        }) => {
            let size = cli.size.unwrap_or(9);
            let game_moves = if games.is_empty() {
                book::GameMoves::new()
            } else {
                use shoutan::policy::train::{Progress, load_games};
                match load_games(games, opts.threads, &Progress::new(true), "games") {
                    Ok(set) => book::count_game_moves(&set.games, size, plies),
                    Err(e) => {
                        eprintln!("shoutan: --games: {e}");
                        return ExitCode::from(2);
                    }
                }
            };
            let build = book::BuildOptions {
                size,
                komi: cli.komi.unwrap_or(opts.rules.komi),
                plies,
                replies,
                min_share,
                playouts: book_playouts,
                workers: opts.threads,
                game_moves,
                min_games,
            };
            match build_book(&build, &opts, base.as_deref(), out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
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
        Some(Command::Review(ref args)) => {
            let job = match review_job(&cli, args) {
                Ok(j) => j,
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    return ExitCode::from(2);
                }
            };
            let mut searcher = Searcher::new(gtp::search_config(&opts));
            match review::run(&job, &mut searcher) {
                Ok(summary) => {
                    if job.output.as_deref() != Some("-") {
                        println!("{summary}");
                    }
                    ExitCode::SUCCESS
                }
                Err(ReviewError::Input(e)) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::from(2)
                }
                Err(ReviewError::Output(e)) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Score {
            ref game,
            ref rules,
            json,
        }) => {
            let counted = rules
                .as_deref()
                .map(Rules::preset)
                .transpose()
                .and_then(|rules| shoutan::referee::score_file(game, rules, json));
            match counted {
                Ok(text) => {
                    println!("{text}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("shoutan: {e}");
                    ExitCode::from(2)
                }
            }
        }
        None => {
            if let Some(path) = &cli.patterns {
                let loaded =
                    shoutan::policy::model_file::load(path).and_then(shoutan::policy::install);
                if let Err(e) = loaded {
                    eprintln!("shoutan: --patterns: {e}");
                    return ExitCode::from(2);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::parse_memory;

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_memory("4G"), Ok(4 << 30));
        assert_eq!(parse_memory("512M"), Ok(512 << 20));
        assert_eq!(parse_memory("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_memory("2097152"), Ok(2 << 20));
        assert!(parse_memory("12X").is_err());
        assert!(parse_memory("G").is_err());
        assert!(parse_memory("10K").is_err(), "below the 1M minimum");
    }
}
