//! 手談 shoutan: a Go engine speaking the Go Text Protocol.
//!
//! Data flows one way: a GTP line ([`gtp`]) becomes a command on the engine state — the game
//! ([`game`], on a [`board`]) under its [`rules`] and [`time`] clock — which may start a
//! [`search`] built on Monte-Carlo [`playout`]s, and is answered. The end of the game — dead
//! stones, seki, the count, and the judgement the search passes on — is [`score`]; SGF files go
//! through [`sgf`]; [`referee`] counts a game record as a referee and [`review`] analyses one. `docs/architecture.md` lists every module in dependency order.

pub mod bench;
pub mod board;
pub mod book;
pub mod game;
pub mod gtp;
pub mod life;
pub mod patterns;
pub mod playout;
pub mod playout_accuracy;
pub mod policy;
pub mod referee;
pub mod review;
pub mod rng;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
pub mod tactics;
pub mod time;
