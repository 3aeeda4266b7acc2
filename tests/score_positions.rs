//! Hand-built final positions with hand-counted results, for every preset, through the GTP
//! commands a referee uses (`final_score`, `final_status_list`, `shoutan-count`).
//!
//! Each diagram is set up with `play` commands (top row first, `X` black, `O` white); the
//! expected results in the comments are counted by hand from the diagram.

use shoutan::gtp::{Engine, EngineOptions};

fn engine() -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        seed: Some(7),
        playouts: Some(100),
        ..EngineOptions::default()
    })
    .expect("engine")
}

/// Sets up `rows` on a fresh board of the right size under `rules`, with `komi`.
fn setup(rules: &str, komi: Option<f32>, rows: &[&str]) -> Engine {
    let mut e = engine();
    assert_eq!(
        e.execute(&format!("shoutan-rules {rules}")).chars().next(),
        Some('=')
    );
    let size = rows.len();
    assert_eq!(e.execute(&format!("boardsize {size}")), "= \n\n");
    assert_eq!(e.execute("clear_board"), "= \n\n");
    if let Some(k) = komi {
        assert_eq!(e.execute(&format!("komi {k}")), "= \n\n");
    }
    play_diagram(&mut e, rows);
    e
}

fn play_diagram(e: &mut Engine, rows: &[&str]) {
    let size = rows.len();
    let letters: Vec<char> = ('A'..='Z').filter(|&c| c != 'I').collect();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), size, "row {i}");
        for (col, ch) in cells.into_iter().enumerate() {
            let color = match ch {
                'X' => "b",
                'O' => "w",
                _ => continue,
            };
            let vertex = format!("{}{}", letters[col], size - i);
            let answer = e.execute(&format!("play {color} {vertex}"));
            assert_eq!(answer, "= \n\n", "play {color} {vertex}");
        }
    }
}

fn answer(e: &mut Engine, cmd: &str) -> String {
    let a = e.execute(cmd);
    assert!(a.starts_with("= "), "{cmd}: {a}");
    a[2..].trim_end().to_string()
}

fn final_score(rules: &str, komi: Option<f32>, rows: &[&str]) -> String {
    answer(&mut setup(rules, komi, rows), "final_score")
}

/// Black wall on D, White wall on E: Black 27 territory + 9 stones, White 36 + 9.
const SIMPLE: [&str; 9] = [
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O . . . .",
];

#[test]
fn simple_territory_under_every_preset() {
    // Area: 36 - 45 - 7.5.
    assert_eq!(final_score("chinese", None, &SIMPLE), "W+16.5");
    assert_eq!(final_score("tromp-taylor", None, &SIMPLE), "W+16.5");
    // Territory: 27 - 36 - 6.5.
    assert_eq!(final_score("japanese", None, &SIMPLE), "W+15.5");
    assert_eq!(final_score("korean", None, &SIMPLE), "W+15.5");
    // The ancient rules put 座子 stones on 9x9 boards: see the 8x8 and 9x9 tests below.
}

/// Column E is dame between the black wall on D and the white wall on F.
const DAME: [&str; 9] = [
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
    ". . . X . O . . .",
];

#[test]
fn dame_is_split_under_area_and_nobodys_under_territory() {
    // Area: 36 + 4½ each: 0 - 7.5.
    assert_eq!(final_score("chinese", None, &DAME), "W+7.5");
    // Territory: 27 - 27 - 6.5.
    assert_eq!(final_score("japanese", None, &DAME), "W+6.5");
    let mut e = setup("chinese", None, &DAME);
    let count = answer(&mut e, "shoutan-count");
    assert!(
        count.contains("Black: 36 stones + 0 territory + 4½ of 9 shared = 40½")
            || count.contains("Black: 9 stones + 27 territory + 4½ of 9 shared = 40½"),
        "{count}"
    );
    assert!(
        count.contains("Black 40½ stones, needs 44¼: White wins by 3¾ stones"),
        "{count}"
    );
}

/// Dead stones: a white stone inside Black's area (B5) and a black one inside White's (H5).
const DEAD: [&str; 9] = [
    ". . . X O . . . .",
    ". . . X O . . . .",
    ". . . X O O O O O",
    ". . . X O . . . .",
    ". O . X O . . X .",
    ". . . X O . . . .",
    "X X X X O O O O O",
    ". . . X O . . . .",
    ". . . X O . . . .",
];

#[test]
fn dead_stones_are_decided_and_counted() {
    let mut e = setup("chinese", None, &DEAD);
    assert_eq!(answer(&mut e, "final_status_list dead"), "B5\nH5");
    assert_eq!(answer(&mut e, "final_status_list seki"), "");
    // Black stones: D1..D9 and A3 B3 C3 = 12; territory: columns A-C less row 3 = 24
    // (B5 included): area 36. White stones: E1..E9, F7..J7, F3..J3 = 17; territory: columns
    // F-J less rows 3 and 7 = 28 (H5 included): area 45. 36 - 45 - 7.5.
    assert_eq!(answer(&mut e, "final_score"), "W+16.5");
    // Territory: Black 24 + 1 dead white = 25; White 28 + 1 dead black = 29: 25 - 29 - 6.5.
    let mut e = setup("japanese", None, &DEAD);
    assert_eq!(answer(&mut e, "final_score"), "W+10.5");
    // Tromp-Taylor keeps every stone: the regions around B5 and H5 touch both colours.
    // Black: 12 + 1 (H5) stones + A1..C2 (6) = 19; White: 17 + 1 (B5) + F8..J9 (8) +
    // F1..J2 (8) = 34. 19 - 34 - 7.5.
    let mut e = setup("tromp-taylor", None, &DEAD);
    assert_eq!(answer(&mut e, "final_status_list dead"), "");
    assert_eq!(answer(&mut e, "final_score"), "W+22.5");
}

/// Seki without eyes: the chains at the bottom share E1 and E2.
const SEKI: [&str; 9] = [
    ". O . O O X . X .",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O X X O X X X",
    "O X X X . O O O X",
    "O X X X . O O O X",
];

/// Seki with one eye each (C1 and G1) and one shared liberty (E1).
const SEKI_EYES: [&str; 9] = [
    ". O . O O X . X .",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O O O X X X X",
    "O O O X X O X X X",
    "O X X X X O O O X",
    "O X . X . O . O X",
];

#[test]
fn seki_without_eyes() {
    // Black 35 stones + 2 territory + 1 shared, White 40 + 2 + 1: area 38 - 43 - 7.5.
    let mut e = setup("chinese", None, &SEKI);
    assert_eq!(answer(&mut e, "final_score"), "W+12.5");
    let seki = answer(&mut e, "final_status_list seki");
    assert_eq!(seki.lines().count(), 2, "{seki}");
    assert!(seki.contains("B1") && seki.contains("F1"), "{seki}");
    assert_eq!(answer(&mut e, "final_status_list dead"), "");
    // Territory: 2 - 2 - 6.5.
    assert_eq!(final_score("japanese", None, &SEKI), "W+6.5");
    assert_eq!(final_score("tromp-taylor", None, &SEKI), "W+12.5");
}

#[test]
fn seki_with_eyes() {
    // Black 35 stones + 3 territory (C1 eye) + ½, White 39 + 3 (G1 eye) + ½: 38½ - 42½ - 7.5.
    let mut e = setup("chinese", None, &SEKI_EYES);
    assert_eq!(answer(&mut e, "final_score"), "W+11.5");
    assert!(answer(&mut e, "final_status_list seki").contains("F1"));
    // Territory: the seki eyes are nobody's: 2 - 2 - 6.5.
    let mut e = setup("japanese", None, &SEKI_EYES);
    assert_eq!(answer(&mut e, "final_score"), "W+6.5");
    let count = answer(&mut e, "shoutan-count");
    assert!(count.contains("(1 in seki not counted)"), "{count}");
}

/// 8x8 (no 座子 on even boards): Black wall D, White wall E, 32 points each.
const EVEN: [&str; 8] = [
    ". . . X O . . .",
    ". . . X O . . .",
    ". . . X O . . .",
    ". . . X O . . .",
    ". . . X O . . .",
    ". . . X O . . .",
    ". . . X O . . .",
    ". . . X O . . .",
];

#[test]
fn ancient_rules_draw_on_an_even_board() {
    // White moves first, and there are no 座子 stones on an even board.
    let mut e = setup("ancient", None, &[". . . . . . . ."; 8]);
    assert_eq!(answer(&mut e, "gogui-rules_side_to_move"), "white");
    assert_eq!(e.game.board().stone_count(), 0);
    let mut e = setup("ancient", None, &EVEN);
    assert_eq!(answer(&mut e, "final_score"), "0");
    let count = answer(&mut e, "shoutan-count");
    assert!(
        count.contains("Black 32 stones, needs more than 32 (32½ wins): draw"),
        "{count}"
    );
    assert_eq!(final_score("chinese", None, &EVEN), "W+7.5");
}

/// 10x10, ancient: Black's walls C and H are two groups, White's walls D and G are joined
/// through White's territory (E, F) into one group.
const TAXED: [&str; 10] = [
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
    ". . X O . . O X . .",
];

#[test]
fn group_tax_counts_each_group() {
    // Black area 20 stones + 40 territory = 60, White 20 + 20 = 40. Tax: Black 2 groups,
    // White 1: Black counts 60 - 2 + 1 = 59 of 100 (par 50): wins by 9 stones = 18 points.
    let mut e = setup("ancient", None, &TAXED);
    assert_eq!(answer(&mut e, "final_score"), "B+18");
    let count = answer(&mut e, "shoutan-count");
    assert!(count.contains("2 groups, tax 2"), "{count}");
    assert!(count.contains("Black wins by 9 stones"), "{count}");
    // Without the tax: 60 - 40 - 7.5.
    assert_eq!(final_score("chinese", None, &TAXED), "B+12.5");
}

/// The 座子 position on 9x9: Black owns rows 5-9 (C7 is Black's 座子, G7 White's, dead),
/// White rows 1-4 (C3 White's 座子, G3 Black's, dead).
#[test]
fn ancient_rules_with_zuozi_on_9x9() {
    let mut e = engine();
    answer(&mut e, "shoutan-rules ancient");
    answer(&mut e, "boardsize 9");
    answer(&mut e, "clear_board");
    assert_eq!(e.game.board().stone_count(), 4);
    for (i, color) in [(5, "b"), (4, "w")] {
        for col in ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J'] {
            answer(&mut e, &format!("play {color} {col}{i}"));
        }
    }
    answer(&mut e, "play w pass");
    answer(&mut e, "play b pass");
    assert_eq!(answer(&mut e, "final_status_list dead"), "G3\nG7");
    // Black 45 points, White 36; one group each: 45 - 36.
    assert_eq!(answer(&mut e, "final_score"), "B+9");
    let count = answer(&mut e, "shoutan-count");
    assert!(
        count.contains("Black 45 stones, needs more than 40½ (41 wins): Black wins by 4½ stones"),
        "{count}"
    );
    assert_eq!(answer(&mut e, "gogui-rules_final_result"), "B+9");
}

/// 9x9 stripes containing the fixed handicap points C3 and G7: Black walls C and G (two
/// groups), White walls D and F joined through E.
const STRIPES: [&str; 9] = [
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
    ". . X O . O X . .",
];

/// Plays every stone of `rows` not already on the board.
fn play_missing(e: &mut Engine, rows: &[&str]) {
    let size = rows.len();
    let letters: Vec<char> = ('A'..='Z').filter(|&c| c != 'I').collect();
    for (i, row) in rows.iter().enumerate() {
        for (col, ch) in row.split_whitespace().enumerate() {
            let color = match ch {
                "X" => "b",
                "O" => "w",
                _ => continue,
            };
            let vertex = format!("{}{}", letters[col], size - i);
            let p = match e.game.board().parse_move(&vertex) {
                Ok(shoutan::board::Move::Play(p)) => p,
                _ => panic!("{vertex}"),
            };
            if e.game.board().cell(p).color().is_none() {
                answer(e, &format!("play {color} {vertex}"));
            }
        }
    }
}

#[test]
fn handicap_compensation_under_chinese_rules() {
    for (how, rows, chinese, japanese) in [
        // Black 18 stones + 36 territory, White 18 + 9: 54 - 27 - 2 points for 2 stones.
        ("fixed_handicap 2", &STRIPES, "B+25", "B+27"),
        ("place_free_handicap 2", &STRIPES, "B+25", "B+27"),
        // Black 36, White 45: 36 - 45 - 2.
        ("set_free_handicap D4 D6", &SIMPLE, "W+11", "W+9"),
    ] {
        for (rules, expected) in [("chinese", chinese), ("japanese", japanese)] {
            let mut e = engine();
            answer(&mut e, &format!("shoutan-rules {rules}"));
            answer(&mut e, "boardsize 9");
            answer(&mut e, "komi 0");
            let placed = answer(&mut e, how);
            if !how.starts_with("set") {
                assert_eq!(placed, "C3 G7", "{how}");
            }
            play_missing(&mut e, rows);
            assert_eq!(e.game.handicap(), 2);
            assert_eq!(answer(&mut e, "final_score"), expected, "{how} {rules}");
            if rules == "chinese" {
                let count = answer(&mut e, "shoutan-count");
                assert!(
                    count.contains("handicap 2 stones: 2 points to White"),
                    "{count}"
                );
            }
        }
    }
}

/// 19x19: Black wall J, White wall L, Black K1-K9 (9 stones), K10-K19 dame: Black
/// 171 + 9 + 5 = 185 stones, White 171 + 5 = 176.
fn wins_by_three_quarters() -> Vec<String> {
    (0..19)
        .map(|i| {
            let row = 19 - i;
            let k = if row <= 9 { "X" } else { "." };
            format!(". . . . . . . . X {k} O . . . . . . . .")
        })
        .collect()
}

#[test]
fn chinese_count_in_stones_on_19x19() {
    let rows = wins_by_three_quarters();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut e = setup("chinese", None, &rows);
    assert_eq!(answer(&mut e, "final_score"), "B+1.5");
    let count = answer(&mut e, "shoutan-count");
    assert!(
        count.contains("Black 185 stones, needs 184¼: Black wins by ¾ stone"),
        "{count}"
    );
    assert!(count.contains("par (歸本數) 180½"), "{count}");
    // With nine handicap stones and no komi, 185 is a draw (黑方185子就是和棋).
    let count = shoutan::score::count(
        e.game.board(),
        &vec![shoutan::score::StoneStatus::Alive; e.game.board().array_len()],
        &shoutan::rules::Rules::chinese(),
        0.0,
        9,
    );
    assert_eq!(count.result(), "0");
    assert!(count.report().contains("Black 185 stones, needs 185: draw"));
    // Ancient rules: 185 of 361, more than 180½.
    let count = shoutan::score::count(
        e.game.board(),
        &vec![shoutan::score::StoneStatus::Alive; e.game.board().array_len()],
        &shoutan::rules::Rules::ancient(),
        0.0,
        0,
    );
    assert!(
        count
            .report()
            .contains("Black 185 stones, needs more than 180½ (181 wins): Black wins by 4½ stones")
    );
}
