//! The engine never loses on time: whole games on a simulated clock, for every time system.
//!
//! Each move, the engine's budget (`Engine::move_limits`, from the clock set by GTP commands)
//! is spent in full, as the slowest search would, plus a random controller overhead (a few
//! milliseconds, now and then nearly the engine's whole lag reserve). An independent referee clock, written here from the rules, charges
//! every move and must never run out. Half of the games send `time_left` from the referee (as
//! KGS does), half send nothing (as gogui-twogtp does), so the engine's own bookkeeping is
//! exercised too. No sleeping: time is only simulated.

use shoutan::board::Color;
use shoutan::gtp::{Engine, EngineOptions};
use shoutan::rng::Rng;

/// The referee's view of one player's clock, straight from the rules.
#[derive(Clone, Copy, Debug)]
struct RefereeClock {
    main: f64,
    /// Canadian: time left in the current period and stones to play in it.
    period_left: f64,
    stones_left: u32,
    /// Byo-yomi: periods left.
    periods_left: u32,
    in_overtime: bool,
}

#[derive(Clone, Copy, Debug)]
enum System {
    Absolute(f64),
    Canadian(f64, f64, u32),
    Byoyomi(f64, f64, u32),
}

impl RefereeClock {
    fn new(system: System) -> RefereeClock {
        let (main, period, n) = match system {
            System::Absolute(m) => (m, 0.0, 0),
            System::Canadian(m, p, s) | System::Byoyomi(m, p, s) => (m, p, s),
        };
        RefereeClock {
            main,
            period_left: period,
            stones_left: n,
            periods_left: n,
            in_overtime: main <= 0.0,
        }
    }

    /// Charges one move; false if the player ran out of time.
    fn charge(&mut self, system: System, used: f64) -> bool {
        let mut used = used;
        if !self.in_overtime {
            if used <= self.main {
                self.main -= used;
                return true;
            }
            used -= self.main;
            self.main = 0.0;
            self.in_overtime = true;
        }
        match system {
            System::Absolute(_) => false,
            System::Canadian(_, period, stones) => {
                if used > self.period_left {
                    return false;
                }
                self.period_left -= used;
                self.stones_left -= 1;
                if self.stones_left == 0 {
                    self.period_left = period;
                    self.stones_left = stones;
                }
                true
            }
            System::Byoyomi(_, period, _) => {
                // Each complete period used up is lost; running out of periods loses.
                let mut left = used;
                while left >= period {
                    left -= period;
                    if self.periods_left <= 1 {
                        return false;
                    }
                    self.periods_left -= 1;
                }
                true
            }
        }
    }

    /// What a server would send with `time_left`.
    fn report(&self) -> (f64, u32) {
        if self.in_overtime {
            (self.period_left, self.stones_left)
        } else {
            (self.main, 0)
        }
    }
}

/// Plays `moves` moves of each colour on a simulated clock; panics on an overrun.
fn simulate(settings: &str, system: System, size: usize, moves: usize, send_time_left: bool) {
    let mut engine = Engine::new(EngineOptions {
        size: Some(size),
        threads: 1,
        ..EngineOptions::default()
    })
    .unwrap();
    let lag = engine.options.lag;
    assert_eq!(engine.execute(settings), "= \n\n", "{settings}");
    let mut referee = [RefereeClock::new(system); 2];
    if let System::Byoyomi(_, _, n) = system {
        referee[0].stones_left = 0;
        referee[1].stones_left = 0;
        referee[0].periods_left = n;
        referee[1].periods_left = n;
    }
    let mut rng = Rng::new(settings.len() as u64 + moves as u64);
    let mut spent = [0.0f64; 2];
    for i in 0..2 * moves {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let c = color.index();
        if send_time_left {
            let (t, n) = match system {
                System::Byoyomi(_, period, _) if referee[c].in_overtime => {
                    (period, referee[c].periods_left)
                }
                _ => referee[c].report(),
            };
            let answer = engine.execute(&format!("time_left {} {t} {n}", color.letter()));
            assert_eq!(answer, "= \n\n");
        }
        let limits = engine.move_limits(color);
        let max = limits
            .max_time
            .expect("a time system gives every move a time limit");
        assert!(limits.time.unwrap() <= max);
        // The slowest search uses its whole maximum; the controller adds its overhead: a few
        // milliseconds usually, now and then almost the whole lag reserve.
        let overhead = if rng.below(50) == 0 {
            lag * 0.9
        } else {
            rng.unit() * 0.03
        };
        let used = max.as_secs_f64() + overhead;
        spent[c] += used;
        assert!(
            referee[c].charge(system, used),
            "{settings}: {color} ran out of time at move {i} after using {used:.3} s \
             (spent {:.1} s in all, referee {:?}, engine {:?})",
            spent[c],
            referee[c],
            engine.clock.players[c]
        );
        engine.clock.charge(color, used);
        // A game move, so the engine's move count advances like in a real game.
        engine.game.set_to_move(color);
        let _ = engine.game.play(shoutan::board::Move::Pass, color);
    }
    // Thinking time was actually used, not just saved: at least a fifth of what the system
    // offers over the game (minus the reserves) went into the moves.
    let offered = match system {
        System::Absolute(m) => m,
        System::Canadian(m, p, s) => m + p * moves as f64 / s as f64,
        System::Byoyomi(m, p, _) => m + p * moves as f64,
    };
    assert!(
        spent[0] > offered * 0.2,
        "{settings}: only {:.1} s of {offered:.1} s used",
        spent[0]
    );
}

#[test]
fn absolute_time_never_runs_out() {
    for send in [false, true] {
        // Games longer than expected: 9x9 games usually last about 70 moves in all.
        simulate(
            "time_settings 300 0 0",
            System::Absolute(300.0),
            9,
            60,
            send,
        );
        simulate(
            "kgs-time_settings absolute 600",
            System::Absolute(600.0),
            19,
            200,
            send,
        );
        simulate(
            "kgs-time_settings absolute 10",
            System::Absolute(10.0),
            9,
            45,
            send,
        );
    }
}

#[test]
fn canadian_overtime_never_runs_out() {
    for send in [false, true] {
        simulate(
            "time_settings 60 30 5",
            System::Canadian(60.0, 30.0, 5),
            9,
            100,
            send,
        );
        simulate(
            "kgs-time_settings canadian 0 20 10",
            System::Canadian(0.0, 20.0, 10),
            19,
            200,
            send,
        );
        simulate(
            "time_settings 10 5 1",
            System::Canadian(10.0, 5.0, 1),
            19,
            150,
            send,
        );
    }
}

#[test]
fn byoyomi_and_the_seeds_du_miao_never_run_out() {
    for send in [false, true] {
        // The seeds' 讀秒: main time, then 60 s periods, five of them.
        simulate(
            "kgs-time_settings byoyomi 600 60 5",
            System::Byoyomi(600.0, 60.0, 5),
            19,
            200,
            send,
        );
        simulate(
            "kgs-time_settings byoyomi 0 10 3",
            System::Byoyomi(0.0, 10.0, 3),
            9,
            60,
            send,
        );
        simulate(
            "kgs-time_settings byoyomi 30 5 1",
            System::Byoyomi(30.0, 5.0, 1),
            9,
            80,
            send,
        );
    }
}

#[test]
fn no_time_system_means_no_time_limit() {
    let mut engine = Engine::new(EngineOptions {
        size: Some(9),
        threads: 1,
        ..EngineOptions::default()
    })
    .unwrap();
    assert_eq!(engine.execute("kgs-time_settings none"), "= \n\n");
    assert_eq!(engine.move_limits(Color::Black).max_time, None);
    // "B > 0, S = 0" is GTP's way to say no limit.
    assert_eq!(engine.execute("time_settings 0 10 0"), "= \n\n");
    assert_eq!(engine.move_limits(Color::Black).max_time, None);
}

#[test]
fn the_engine_charges_its_own_clock_when_no_time_left_comes() {
    use std::sync::Arc;
    let mut engine = Engine::new(EngineOptions {
        size: Some(7),
        threads: 1,
        seed: Some(1),
        playouts: Some(50),
        ..EngineOptions::default()
    })
    .unwrap();
    // Every reading of the simulated clock advances it 1.5 s: a genmove reads it when it
    // starts and when it has answered, so each move costs 1.5 s.
    engine.time = Arc::new(shoutan::time::FakeTime::with_step(1.5));
    assert_eq!(engine.execute("time_settings 100 0 0"), "= \n\n");
    assert!(engine.execute("genmove b").starts_with("= "));
    assert!(engine.execute("genmove w").starts_with("= "));
    assert!(engine.execute("genmove b").starts_with("= "));
    assert_eq!(engine.clock.players[0].time_left, 97.0);
    assert_eq!(engine.clock.players[1].time_left, 98.5);
    // A time_left report replaces the bookkeeping.
    assert_eq!(engine.execute("time_left b 42 0"), "= \n\n");
    assert_eq!(engine.clock.players[0].time_left, 42.0);
}

/// Black's limits on an empty 9x9 board with `--time 1` and search `params`.
fn one_second_a_move(params: shoutan::search::Params) -> shoutan::search::Limits {
    Engine::new(EngineOptions {
        size: Some(9),
        threads: 1,
        time_per_move: Some(1.0),
        params,
        ..EngineOptions::default()
    })
    .unwrap()
    .move_limits(Color::Black)
}

#[test]
fn fixed_time_per_move_is_a_hard_limit() {
    let limits = one_second_a_move(Default::default());
    assert!(limits.max_time.unwrap().as_secs_f64() <= 1.0);
    assert!(limits.max_time.unwrap().as_secs_f64() > 0.9);
    assert_eq!(limits.playouts, None);
}

#[test]
fn fixed_time_per_move_stops_at_three_quarters_when_the_best_move_is_clear() {
    let limits = one_second_a_move(Default::default());
    let (target, max) = (limits.time.unwrap(), limits.max_time.unwrap());
    assert!(max.as_secs_f64() <= 1.0 && max.as_secs_f64() > 0.9);
    assert!((target.as_secs_f64() - 0.75 * max.as_secs_f64()).abs() < 1e-6);
    // The time left over when the best move cannot change is not worth waiting for.
    assert!(limits.early_stop);
    // With a share of 1 the whole time is spent on every move.
    let mut params = shoutan::search::Params::default();
    params.set("move_time_target=1").unwrap();
    let fixed = one_second_a_move(params);
    assert_eq!(fixed.time, fixed.max_time);
    assert!(!fixed.early_stop);
}

/// Black's longest time for its next move on a 19x19 board with `--time 2` and search
/// `params`, after `moves` moves (Black along the bottom rows, White along the top ones).
fn two_seconds_after(moves: usize, params: shoutan::search::Params) -> f64 {
    let mut engine = Engine::new(EngineOptions {
        size: Some(19),
        threads: 1,
        time_per_move: Some(2.0),
        params,
        ..EngineOptions::default()
    })
    .unwrap();
    let columns = "ABCDEFGHJKLMNOPQRST".chars().collect::<Vec<_>>();
    for k in 0..moves / 2 {
        let (col, row) = (columns[k % 19], 1 + k / 19);
        assert!(
            engine
                .execute(&format!("play b {col}{row}"))
                .starts_with("= ")
        );
        assert!(
            engine
                .execute(&format!("play w {col}{}", 20 - row))
                .starts_with("= ")
        );
    }
    engine
        .move_limits(Color::Black)
        .max_time
        .unwrap()
        .as_secs_f64()
}

#[test]
fn fixed_time_per_move_on_a_big_board_goes_to_the_middle_game() {
    let default = shoutan::search::Params::default;
    let (opening, middle) = (
        two_seconds_after(0, default()),
        two_seconds_after(90, default()),
    );
    assert!(opening < 1.3, "{opening}");
    assert!(middle > 2.3, "{middle}");
    // phase_time=0 gives every move the same time, as on 9x9 by default.
    let mut flat = default();
    flat.set("phase_time=0").unwrap();
    for moves in [0, 90] {
        let t = two_seconds_after(moves, flat.clone());
        assert!(t <= 2.0 && t > 1.9, "{moves}: {t}");
    }
}
