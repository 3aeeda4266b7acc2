//! The trainer: reads strong players' games, harvests the shapes they played, extracts the
//! features of every legal move of every position, fits the weights, and measures the
//! result on games kept out of training.
//!
//! The fit maximises the log-likelihood of the played moves under the softmax of the move
//! scores (the generalized Bradley-Terry model of Coulom's paper, fitted by gradient steps
//! instead of minorization-maximization): stochastic gradient with per-weight step sizes
//! (Adagrad), one position at a time, positions in a seeded random order.
//!
//! Everything is deterministic for a seed, whatever the number of threads: games are cut
//! into fixed chunks whose results are put together in chunk order, and the fit itself runs
//! on one thread.

use std::collections::HashMap;
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::accuracy::{self, Accuracy};
use super::dictionary::Dictionary;
use super::features::{Code, GROUP_FEATURES, Placement, TACTICAL_BITS};
use super::records::{self, GameRecord, GameSet};
use super::shape::ShapeScratch;
use super::{Candidate, NO_SHAPE, Policy, Scratch};
use crate::board::Move;
use crate::rng::Rng;

/// What to train on and how.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Training games: SGF files, directories, `.tar.gz` archives.
    pub games: Vec<PathBuf>,
    /// Games kept out of training, to measure accuracy on (may be empty).
    pub test_games: Vec<PathBuf>,
    /// Seed of the position sample and of the order of the fit.
    pub seed: u64,
    /// Worker threads for reading and feature extraction.
    pub threads: usize,
    /// A shape enters the dictionary when it was played at least this often.
    pub min_count: u32,
    /// Passes of the fit over the training positions.
    pub epochs: usize,
    /// Adagrad's step size.
    pub learning_rate: f32,
    /// Fraction of the training positions used (the others are skipped), in (0, 1].
    pub sample: f64,
    /// Print progress to stderr.
    pub verbose: bool,
    /// A model to start from (fine-tuning): its shapes stay in the dictionary beside the
    /// ones counted in the games, and its weights are the fit's starting point.
    pub init: Option<Policy>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            games: Vec::new(),
            test_games: Vec::new(),
            seed: 1,
            threads: 1,
            min_count: 3,
            epochs: 4,
            learning_rate: 0.2,
            sample: 1.0,
            verbose: false,
            init: None,
        }
    }
}

/// A training run's results.
pub struct TrainReport {
    /// The fitted model.
    pub policy: Policy,
    /// Accuracy on the test games, when some were given.
    pub test: Option<Accuracy>,
    /// Training games used and files skipped, in one line.
    pub summary: String,
}

/// Progress lines on stderr, at most one a second (and every forced one).
pub struct Progress {
    verbose: bool,
    start: Instant,
    last: Mutex<Option<Instant>>,
}

impl Progress {
    /// Progress printing to stderr when `verbose`.
    pub fn new(verbose: bool) -> Progress {
        Progress {
            verbose,
            start: Instant::now(),
            last: Mutex::new(None),
        }
    }

    /// Prints `line()` if a second has passed since the last line, or if `force`.
    pub fn report(&self, force: bool, line: impl FnOnce() -> String) {
        if !self.verbose {
            return;
        }
        let now = Instant::now();
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if force || last.is_none_or(|t| now - t >= Duration::from_secs(1)) {
            *last = Some(now);
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "[{:7.1} s] {}",
                (now - self.start).as_secs_f64(),
                line()
            );
        }
    }
}

/// Runs `f` over `0..n` cut into chunks of `chunk` items, on up to `threads` threads, and
/// returns the results in chunk order (so the outcome does not depend on the threads).
pub fn parallel_chunks<R: Send>(
    n: usize,
    chunk: usize,
    threads: usize,
    f: impl Fn(Range<usize>) -> R + Sync,
) -> Vec<R> {
    let chunks = n.div_ceil(chunk.max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..chunks).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, chunks.max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= chunks {
                        break;
                    }
                    let r = f(i * chunk..((i + 1) * chunk).min(n));
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// Reads and parses the games in `paths`, reporting progress.
pub fn load_games(
    paths: &[PathBuf],
    threads: usize,
    progress: &Progress,
    what: &str,
) -> Result<GameSet, String> {
    let mut set = GameSet::default();
    let texts = records::read_texts(paths, &mut set, |n| {
        progress.report(false, || format!("{what}: {n} files read"))
    })?;
    let parts = parallel_chunks(texts.len(), 256, threads, |range| {
        let mut part = GameSet::default();
        records::parse_texts(&texts[range.clone()], &mut part);
        progress.report(false, || {
            format!("{what}: parsing, {} of {} files", range.end, texts.len())
        });
        part
    });
    for part in parts {
        set.games.extend(part.games);
        for (reason, n) in part.skipped {
            *set.skipped.entry(reason).or_default() += n;
        }
        for (reason, example) in part.examples {
            set.examples.entry(reason).or_insert(example);
        }
    }
    progress.report(true, || {
        format!("{what}: {} games, {}", set.games.len(), set.skip_summary())
    });
    for example in set.examples.values() {
        progress.report(true, || format!("{what}: skipped e.g. {example}"));
    }
    Ok(set)
}

/// Whether move `number` of game `game` belongs to the training sample.
fn sampled(seed: u64, game: usize, number: usize, fraction: f64) -> bool {
    if fraction >= 1.0 {
        return true;
    }
    let mut rng = Rng::new(seed ^ (game as u64) << 20 ^ number as u64);
    rng.next_u64();
    rng.unit() < fraction
}

/// How often each shape (every level) was played in the sampled positions of `games`.
fn count_shapes(
    games: &[GameRecord],
    opts: &TrainOptions,
    progress: &Progress,
) -> HashMap<u64, u32> {
    let parts = parallel_chunks(games.len(), 64, opts.threads, |range| {
        let mut counts: HashMap<u64, u32> = HashMap::new();
        let mut shape = ShapeScratch::new();
        for gi in range.clone() {
            games[gi].replay(|board, number, mover, mv| {
                let Move::Play(p) = mv else { return };
                if !sampled(opts.seed, gi, number, opts.sample) {
                    return;
                }
                shape.load(board, mover);
                for h in shape.hashes(p) {
                    *counts.entry(h).or_default() += 1;
                }
            });
        }
        progress.report(false, || {
            format!("shapes: {} of {} games", range.end, games.len())
        });
        counts
    });
    let mut total: HashMap<u64, u32> = HashMap::new();
    for part in parts {
        for (h, n) in part {
            *total.entry(h).or_default() += n;
        }
    }
    total
}

/// Bits of a packed candidate that hold its point; the bits above hold its shape index.
const POINT_BITS: u32 = 10;
const _: () = assert!(crate::board::MAX_POINTS <= 1 << POINT_BITS);
/// The shape field of a packed pass.
const PACKED_PASS: u32 = u32::MAX >> POINT_BITS;
/// Most shapes a dictionary may hold for training.
pub const MAX_TRAINING_SHAPES: usize = PACKED_PASS as usize - 1;

/// What a candidate's feature code needs beyond its point and tactical bits.
#[derive(Clone, Copy)]
struct PositionSample {
    /// First candidate in [`Samples::candidates`].
    start: u64,
    /// First entry in [`Samples::tactical`].
    tactical_start: u32,
    /// The played candidate, from `start`.
    played: u16,
    /// The last two moves (`NO_POINT`: a pass or none).
    last: u16,
    last2: u16,
    /// Board size.
    size: u8,
    /// The pass group's value.
    pass: u8,
}

/// The features of every candidate of every sampled position, in four bytes a candidate:
/// the distance and line groups are recomputed from the point (see [`Placement`]), and the
/// few candidates with tactical features list them apart.
#[derive(Default)]
struct Samples {
    /// Per candidate: shape index << [`POINT_BITS`] | point; a pass has [`PACKED_PASS`].
    candidates: Vec<u32>,
    positions: Vec<PositionSample>,
    /// (candidate offset in its position, tactical bits of its code).
    tactical: Vec<(u16, u16)>,
}

impl Samples {
    fn positions(&self) -> usize {
        self.positions.len()
    }

    /// The candidates and tactical entries of position `i`.
    fn ranges(&self, i: usize) -> (Range<usize>, Range<usize>) {
        let p = &self.positions[i];
        let (end, tactical_end) = match self.positions.get(i + 1) {
            Some(next) => (next.start as usize, next.tactical_start as usize),
            None => (self.candidates.len(), self.tactical.len()),
        };
        (
            p.start as usize..end,
            p.tactical_start as usize..tactical_end,
        )
    }

    fn push(
        &mut self,
        board: &crate::board::Board,
        mover: crate::board::Color,
        candidates: &[Candidate],
        played: usize,
    ) {
        self.positions.push(PositionSample {
            start: self.candidates.len() as u64,
            tactical_start: self.tactical.len() as u32,
            played: played as u16,
            last: board.last_move(),
            last2: board.last_move2(),
            size: board.size() as u8,
            pass: super::features::pass_value(board, mover) as u8,
        });
        for (k, c) in candidates.iter().enumerate() {
            match c.mv {
                Move::Pass => self.candidates.push(PACKED_PASS << POINT_BITS),
                Move::Play(p) => {
                    self.candidates.push(c.shape << POINT_BITS | u32::from(p));
                    let tactical = c.code.0 & ((1 << TACTICAL_BITS) - 1);
                    if tactical != 0 {
                        self.tactical.push((k as u16, tactical as u16));
                    }
                }
            }
        }
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.candidates.len() * 4
            + self.positions.len() * std::mem::size_of::<PositionSample>()
            + self.tactical.len() * 4
    }

    /// The shape indices and codes of position `i`'s candidates into `shapes` and `codes`;
    /// returns the played candidate's index.
    fn unpack(
        &self,
        i: usize,
        placements: &mut [Option<Placement>],
        shapes: &mut Vec<u32>,
        codes: &mut Vec<Code>,
    ) -> usize {
        let p = &self.positions[i];
        let (range, tactical) = self.ranges(i);
        let placement =
            placements[p.size as usize].get_or_insert_with(|| Placement::new(p.size as usize));
        let mut pass = Code::default();
        pass.set(super::features::PASS, p.pass as usize);
        let mut tactical = self.tactical[tactical].iter().peekable();
        shapes.clear();
        codes.clear();
        for (k, &packed) in self.candidates[range].iter().enumerate() {
            let shape = packed >> POINT_BITS;
            if shape == PACKED_PASS {
                shapes.push(NO_SHAPE);
                codes.push(pass);
                continue;
            }
            let point = (packed & ((1 << POINT_BITS) - 1)) as u16;
            let mut code = placement.code(point, p.last, p.last2);
            if let Some(&&(at, bits)) = tactical.peek()
                && at as usize == k
            {
                code.0 |= u32::from(bits);
                tactical.next();
            }
            shapes.push(shape);
            codes.push(code);
        }
        p.played as usize
    }
}

/// The samples of `games`, in parts (one per chunk of games, never copied together: the
/// whole set may take gigabytes).
fn extract_samples(
    games: &[GameRecord],
    dictionary: &Dictionary,
    opts: &TrainOptions,
    progress: &Progress,
) -> Vec<Samples> {
    let done = AtomicUsize::new(0);
    parallel_chunks(games.len(), 16, opts.threads, |range| {
        let mut s = Samples::default();
        let mut scratch = Scratch::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        for gi in range.clone() {
            games[gi].replay(|board, number, mover, mv| {
                if !sampled(opts.seed, gi, number, opts.sample) {
                    return;
                }
                super::extract(
                    board,
                    mover,
                    dictionary,
                    &mut scratch,
                    |_| true,
                    &mut candidates,
                );
                if let Some(played) = candidates.iter().position(|c| c.mv == mv) {
                    s.push(board, mover, &candidates, played);
                }
            });
        }
        let n = done.fetch_add(range.len(), Ordering::Relaxed) + range.len();
        progress.report(false, || format!("features: {n} of {} games", games.len()));
        s.candidates.shrink_to_fit();
        s.positions.shrink_to_fit();
        s.tactical.shrink_to_fit();
        s
    })
}

/// Model weights during the fit, with Adagrad's sums of squared gradients.
struct Weights {
    shapes: Vec<f32>,
    groups: [f32; GROUP_FEATURES],
    shape_sq: Vec<f32>,
    group_sq: [f32; GROUP_FEATURES],
}

impl Weights {
    #[inline]
    fn score(&self, shape: u32, code: Code) -> f32 {
        let shape = if shape == NO_SHAPE {
            0.0
        } else {
            self.shapes[shape as usize]
        };
        shape + code.weight(&self.groups)
    }
}

/// Fits the weights to the positions of `parts` (shape indices below `shapes`).
fn fit(
    parts: &[Samples],
    start: (Vec<f32>, [f32; GROUP_FEATURES]),
    opts: &TrainOptions,
    progress: &Progress,
) -> Weights {
    let shapes = start.0.len();
    let mut w = Weights {
        shapes: start.0,
        groups: start.1,
        shape_sq: vec![0.0; shapes],
        group_sq: [0.0; GROUP_FEATURES],
    };
    // Every position as (part, index in part).
    let mut order: Vec<(u32, u32)> = parts
        .iter()
        .enumerate()
        .flat_map(|(i, s)| (0..s.positions() as u32).map(move |j| (i as u32, j)))
        .collect();
    let n = order.len();
    let mut placements: Vec<Option<Placement>> = vec![None; crate::board::MAX_SIZE + 1];
    // Per-position gradient: dense arrays, with the touched shape indices listed.
    let mut shape_grad = vec![0f32; shapes];
    let mut touched: Vec<u32> = Vec::new();
    let mut group_grad = [0f32; GROUP_FEATURES];
    let mut probs: Vec<f32> = Vec::new();
    let mut cand_shapes: Vec<u32> = Vec::new();
    let mut codes: Vec<Code> = Vec::new();
    let lr = opts.learning_rate;
    const EPS: f32 = 1e-6;
    for epoch in 0..opts.epochs {
        let mut rng = Rng::new(opts.seed.wrapping_add(epoch as u64 + 1));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut log_likelihood = 0f64;
        for (done, &(part, pi)) in order.iter().enumerate() {
            let played = parts[part as usize].unpack(
                pi as usize,
                &mut placements,
                &mut cand_shapes,
                &mut codes,
            );
            probs.clear();
            probs.extend(cand_shapes.iter().zip(&codes).map(|(&s, &c)| w.score(s, c)));
            let max = probs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut total = 0f32;
            for p in probs.iter_mut() {
                *p = (*p - max).exp();
                total += *p;
            }
            log_likelihood += f64::from(probs[played].ln() - total.ln());
            for (k, &p) in probs.iter().enumerate() {
                let g = p / total - if k == played { 1.0 } else { 0.0 };
                let shape = cand_shapes[k];
                if shape != NO_SHAPE {
                    let slot = &mut shape_grad[shape as usize];
                    if *slot == 0.0 {
                        touched.push(shape);
                    }
                    *slot += g;
                }
                for f in codes[k].features() {
                    group_grad[f] += g;
                }
            }
            for &s in &touched {
                let s = s as usize;
                let g = std::mem::take(&mut shape_grad[s]);
                w.shape_sq[s] += g * g;
                w.shapes[s] -= lr * g / (w.shape_sq[s].sqrt() + EPS);
            }
            touched.clear();
            for (f, grad) in group_grad.iter_mut().enumerate() {
                let g = std::mem::take(grad);
                if g != 0.0 {
                    w.group_sq[f] += g * g;
                    w.groups[f] -= lr * g / (w.group_sq[f].sqrt() + EPS);
                }
            }
            progress.report(false, || {
                format!(
                    "fit: epoch {}/{}, {} of {n} positions, log-likelihood {:.4}",
                    epoch + 1,
                    opts.epochs,
                    done + 1,
                    log_likelihood / (done + 1) as f64
                )
            });
        }
        progress.report(true, || {
            format!(
                "fit: epoch {}/{} done, mean log-likelihood {:.4}",
                epoch + 1,
                opts.epochs,
                log_likelihood / n.max(1) as f64
            )
        });
    }
    w
}

/// The fit's starting weights for the shapes `kept` (sorted; index 0 is the unknown shape)
/// and the groups: `init`'s where it has them, else 0.
fn starting_weights(kept: &[u64], init: Option<&Policy>) -> (Vec<f32>, [f32; GROUP_FEATURES]) {
    let mut shapes = vec![0.0; kept.len() + 1];
    let Some(init) = init else {
        return (shapes, [0.0; GROUP_FEATURES]);
    };
    shapes[0] = init.unknown_shape_weight();
    let mut known = init.patterns().peekable();
    for (slot, &h) in shapes[1..].iter_mut().zip(kept) {
        while known.next_if(|&(k, _)| k < h).is_some() {}
        if let Some(&(k, w)) = known.peek()
            && k == h
        {
            *slot = w;
        }
    }
    (shapes, *init.group_weights())
}

/// Trains a model as `opts` says.
pub fn train(opts: &TrainOptions) -> Result<TrainReport, String> {
    if !(opts.sample > 0.0 && opts.sample <= 1.0) {
        return Err(format!(
            "the sample fraction must lie in (0, 1], got {}",
            opts.sample
        ));
    }
    let progress = Progress::new(opts.verbose);
    let set = load_games(&opts.games, opts.threads, &progress, "training games")?;
    if set.games.is_empty() {
        return Err("no usable training game".into());
    }
    let counts = count_shapes(&set.games, opts, &progress);
    let mut kept: Vec<u64> = counts
        .iter()
        .filter(|&(_, &n)| n >= opts.min_count)
        .map(|(&h, _)| h)
        .collect();
    progress.report(true, || {
        format!(
            "shapes: {} distinct played, {} played at least {} times",
            counts.len(),
            kept.len(),
            opts.min_count
        )
    });
    if let Some(init) = &opts.init {
        kept.extend(init.patterns().map(|(h, _)| h));
    }
    kept.sort_unstable();
    kept.dedup();
    if kept.len() > MAX_TRAINING_SHAPES {
        return Err(format!(
            "{} shapes are more than the trainer holds ({MAX_TRAINING_SHAPES}): raise --min-count",
            kept.len()
        ));
    }
    let mut dictionary = Dictionary::with_capacity(kept.len());
    for (i, &h) in kept.iter().enumerate() {
        dictionary.insert(h, i as u32 + 1)?;
    }
    drop(counts);
    let parts = extract_samples(&set.games, &dictionary, opts, &progress);
    let sum = |f: fn(&Samples) -> usize| parts.iter().map(f).sum::<usize>();
    let (positions, candidates) = (sum(Samples::positions), sum(|s| s.candidates.len()));
    progress.report(true, || {
        format!(
            "features: {positions} positions, {candidates} candidates ({:.0} per position, \
             {} tactical), {} MB",
            candidates as f64 / positions.max(1) as f64,
            sum(|s| s.tactical.len()),
            sum(Samples::bytes) >> 20
        )
    });
    let w = fit(
        &parts,
        starting_weights(&kept, opts.init.as_ref()),
        opts,
        &progress,
    );
    drop(parts);
    let patterns: Vec<(u64, f32)> = kept
        .iter()
        .zip(&w.shapes[1..])
        .map(|(&h, &x)| (h, x))
        .collect();
    let policy = Policy::new(&patterns, w.shapes[0], w.groups)?;
    let summary = format!(
        "{} training games ({})",
        set.games.len(),
        set.skip_summary()
    );
    drop(set);
    let test = if opts.test_games.is_empty() {
        None
    } else {
        let test_set = load_games(&opts.test_games, opts.threads, &progress, "test games")?;
        let n = test_set.games.len();
        let acc = accuracy::measure(&policy, &test_set.games, opts.threads, &|done| {
            progress.report(false, || format!("accuracy: {done} of {n} test games"))
        });
        Some(acc)
    };
    Ok(TrainReport {
        policy,
        test,
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Color};
    use crate::policy::features::{GROUP_OFFSETS, LAST_DISTANCE};
    use crate::policy::model_file;
    use std::path::Path;

    /// A 9x9 game in which every move is played next to the opponent's last one (a random
    /// walk of contact plays), in SGF.
    fn contact_game(seed: u64, moves: usize) -> String {
        let mut rng = Rng::new(seed);
        let mut board = Board::new(9);
        let mut sgf = String::from("(;GM[1]FF[4]SZ[9]");
        let mut color = Color::Black;
        let mut last = board.point(4, 4);
        for i in 0..moves {
            let options: Vec<_> = if i == 0 {
                vec![last]
            } else {
                board
                    .neighbors(last)
                    .into_iter()
                    .filter(|&q| board.is_legal(q, color))
                    .collect()
            };
            if options.is_empty() {
                break;
            }
            let p = options[rng.below(options.len())];
            board.play(p, color);
            let (col, row) = board.col_row(p);
            sgf.push_str(&format!(
                ";{}[{}{}]",
                color.letter(),
                (b'a' + col as u8) as char,
                (b'a' + (8 - row) as u8) as char
            ));
            last = p;
            color = color.opponent();
        }
        sgf.push(')');
        sgf
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shoutan-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes games 0..n as plain files, and games n..2n in a .tar.gz archive.
    fn write_games(dir: &Path, first: u64, n: u64) -> Vec<PathBuf> {
        let plain = dir.join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        for i in first..first + n {
            std::fs::write(plain.join(format!("{i:03}.sgf")), contact_game(i, 30)).unwrap();
        }
        let archive = dir.join("games.tar.gz");
        let file = std::fs::File::create(&archive).unwrap();
        let gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
        let mut tar = tar::Builder::new(gz);
        for i in first + n..first + 2 * n {
            let text = contact_game(i, 30);
            let mut header = tar::Header::new_gnu();
            header.set_size(text.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            tar.append_data(&mut header, format!("games/{i:03}.sgf"), text.as_bytes())
                .unwrap();
        }
        // A file that is not SGF is ignored, a broken SGF file skipped.
        let mut header = tar::Header::new_gnu();
        header.set_size(5);
        header.set_cksum();
        tar.append_data(&mut header, "games/README", &b"hello"[..])
            .unwrap();
        let mut header = tar::Header::new_gnu();
        header.set_size(7);
        header.set_cksum();
        tar.append_data(&mut header, "games/broken.sgf", &b"(;B[zz"[..])
            .unwrap();
        tar.into_inner().unwrap().finish().unwrap();
        vec![plain, archive]
    }

    #[test]
    fn trainer_learns_to_answer_next_to_the_last_move() {
        let dir = temp_dir("train");
        let train_dir = dir.join("train");
        let test_dir = dir.join("test");
        let opts = TrainOptions {
            games: write_games(&train_dir, 0, 20),
            test_games: write_games(&test_dir, 1000, 5),
            min_count: 1,
            epochs: 4,
            threads: 2,
            ..TrainOptions::default()
        };
        let report = train(&opts).unwrap();
        assert!(
            report.summary.contains("40 training games"),
            "{}",
            report.summary
        );
        assert!(
            report.summary.contains("1 not valid SGF"),
            "{}",
            report.summary
        );
        // Contact plays weigh more than any other distance.
        let w = report.policy.group_weights();
        let d = |v: usize| w[GROUP_OFFSETS[LAST_DISTANCE] + v];
        assert!((2..=16).all(|v| d(1) > d(v) + 1.0), "{w:?}");
        // On fresh games the model picks the move among about four neighbours: a quarter
        // or better, where a uniform guess gets about 1 in 60.
        let test = report.test.unwrap();
        assert_eq!(test.games, 10);
        assert!(test.overall.top1_percent() > 25.0, "{}", test.table());
        assert!(test.overall.top5_percent() > 90.0, "{}", test.table());
        // The same model whatever the number of threads.
        let one = train(&TrainOptions {
            threads: 1,
            test_games: Vec::new(),
            ..opts.clone()
        })
        .unwrap();
        assert_eq!(
            model_file::to_bytes(&one.policy),
            model_file::to_bytes(&report.policy)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fine_tuning_starts_from_the_given_model_and_keeps_its_shapes() {
        let dir = temp_dir("finetune");
        let base = train(&TrainOptions {
            games: write_games(&dir.join("a"), 0, 10),
            min_count: 1,
            epochs: 2,
            ..TrainOptions::default()
        })
        .unwrap()
        .policy;
        let other_games = write_games(&dir.join("b"), 500, 10);
        let fine_tune = |epochs| {
            train(&TrainOptions {
                games: other_games.clone(),
                min_count: 1,
                epochs,
                init: Some(base.clone()),
                ..TrainOptions::default()
            })
            .unwrap()
            .policy
        };
        // No pass of the fit: the start is the result, the base model's weights exactly,
        // and the shapes only the new games played weigh nothing yet.
        let start = fine_tune(0);
        let new: Vec<(u64, f32)> = start.patterns().collect();
        let old: std::collections::HashMap<u64, f32> = base.patterns().collect();
        assert!(new.len() > old.len(), "{} {}", new.len(), old.len());
        for (h, w) in &new {
            assert_eq!(*w, old.get(h).copied().unwrap_or(0.0), "shape {h:x}");
        }
        assert_eq!(start.group_weights(), base.group_weights());
        assert_eq!(start.unknown_shape_weight(), base.unknown_shape_weight());
        // One pass moves the weights from there.
        let tuned = fine_tune(1);
        assert_ne!(tuned.group_weights(), base.group_weights());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
