//! Clock commands: `time_settings`, `kgs-time_settings`, `time_left`.

use crate::time::TimeSystem;

use super::{Call, CommandSpec, Engine, expect_args, parse_color, parse_float, parse_uint};

/// The clock commands.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "time_settings",
        handler: time_settings,
    },
    CommandSpec {
        name: "kgs-time_settings",
        handler: kgs_time_settings,
    },
    CommandSpec {
        name: "time_left",
        handler: time_left,
    },
];

fn seconds(text: &str, what: &str) -> Result<f64, String> {
    let x = parse_float(text, what)?;
    if x < 0.0 {
        return Err(format!("{what} must not be negative"));
    }
    Ok(x)
}

fn count(text: &str, what: &str) -> Result<u32, String> {
    let n = parse_uint(text, what)?;
    u32::try_from(n).map_err(|_| format!("{what} too large"))
}

/// GTP `time_settings MAIN BYO_YOMI STONES`: Canadian overtime; `BYO_YOMI > 0, STONES = 0`
/// means no time limit.
fn time_settings(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(
        call.args,
        3,
        "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
    )?;
    let main = seconds(&call.args[0], "main time")?;
    let period = seconds(&call.args[1], "byo-yomi time")?;
    let stones = count(&call.args[2], "byo-yomi stones")?;
    let system = if period > 0.0 && stones == 0 {
        TimeSystem::None
    } else if period == 0.0 {
        TimeSystem::Absolute { main }
    } else {
        TimeSystem::Canadian {
            main,
            period,
            stones,
        }
    };
    engine.clock.set_system(system);
    Ok(String::new())
}

/// KGS `kgs-time_settings none | absolute M | byoyomi M P N | canadian M B S`.
fn kgs_time_settings(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let args = call.args;
    let Some(kind) = args.first() else {
        return Err(
            "syntax error: expected kgs-time_settings none|absolute|byoyomi|canadian ...".into(),
        );
    };
    let system = match kind.to_ascii_lowercase().as_str() {
        "none" => {
            expect_args(args, 1, "kgs-time_settings none")?;
            TimeSystem::None
        }
        "absolute" => {
            expect_args(args, 2, "kgs-time_settings absolute MAIN_TIME")?;
            TimeSystem::Absolute {
                main: seconds(&args[1], "main time")?,
            }
        }
        "byoyomi" => {
            expect_args(
                args,
                4,
                "kgs-time_settings byoyomi MAIN_TIME PERIOD_TIME PERIODS",
            )?;
            let main = seconds(&args[1], "main time")?;
            let period = seconds(&args[2], "period time")?;
            let periods = count(&args[3], "periods")?;
            if period == 0.0 || periods == 0 {
                TimeSystem::Absolute { main }
            } else {
                TimeSystem::Byoyomi {
                    main,
                    period,
                    periods,
                }
            }
        }
        "canadian" => {
            expect_args(
                args,
                4,
                "kgs-time_settings canadian MAIN_TIME PERIOD_TIME STONES",
            )?;
            let main = seconds(&args[1], "main time")?;
            let period = seconds(&args[2], "period time")?;
            let stones = count(&args[3], "stones")?;
            if period == 0.0 || stones == 0 {
                TimeSystem::Absolute { main }
            } else {
                TimeSystem::Canadian {
                    main,
                    period,
                    stones,
                }
            }
        }
        other => {
            return Err(format!(
                "unknown time system '{other}' (use none, absolute, byoyomi or canadian)"
            ));
        }
    };
    engine.clock.set_system(system);
    Ok(String::new())
}

/// GTP `time_left COLOR TIME STONES`.
fn time_left(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 3, "time_left COLOR TIME STONES")?;
    let color = parse_color(&call.args[0])?;
    let left = seconds(&call.args[1], "time")?;
    let stones = count(&call.args[2], "stones")?;
    engine.clock.set_time_left(color, left, stones);
    Ok(String::new())
}
